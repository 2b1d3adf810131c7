package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// TailEventKind says what a TailEvent carries.
type TailEventKind int

const (
	// TailLines delivers new complete lines in file order.
	TailLines TailEventKind = iota
	// TailReset reports that the file was truncated or replaced; everything
	// delivered so far is void and the file is re-read from Offset (0).
	TailReset
	// TailError reports a problem; tailing continues unless the channel
	// closes right after it.
	TailError
	// TailSibling reports that another entry of the file's directory
	// changed (TailOptions.Siblings): a session file written, created,
	// removed or renamed, a directory made. Path names it.
	TailSibling
)

// String names the kind for logs.
func (k TailEventKind) String() string {
	switch k {
	case TailLines:
		return "lines"
	case TailReset:
		return "reset"
	case TailError:
		return "error"
	case TailSibling:
		return "sibling"
	}
	return fmt.Sprintf("TailEventKind(%d)", int(k))
}

// ErrLineTooLong reports a line longer than TailOptions.MaxLineBytes; the
// line is skipped up to its newline.
var ErrLineTooLong = errors.New("session line too long")

// TailLine is one complete line of the file without its "\n".
type TailLine struct {
	// Offset is the byte offset of the line's first byte in the file.
	Offset int64
	// Data is the line as written (a "\r" before the newline is kept).
	Data []byte
}

// TailEvent is one notification from Tail.
type TailEvent struct {
	Kind TailEventKind
	// Lines are the new lines of a TailLines event.
	Lines []TailLine
	// Offset is, for TailReset, where reading restarts (0); for TailError
	// with ErrLineTooLong, the offset of the skipped line.
	Offset int64
	// Err is the problem of a TailError event.
	Err error
	// Path is the directory entry a TailSibling event names.
	Path string
}

// TailOptions tune Tail. The zero value is ready to use.
type TailOptions struct {
	// SafetyPoll is how often the file is checked even when the filesystem
	// watch works, in case an event is lost (default 1s).
	SafetyPoll time.Duration
	// FallbackPoll is the check interval when the watch cannot be set up
	// (default 100ms).
	FallbackPoll time.Duration
	// NoWatch disables fsnotify and polls every FallbackPoll.
	NoWatch bool
	// Buffer is the capacity of the event channel (default 16). When the
	// reader falls behind, Tail waits instead of dropping events.
	Buffer int
	// MaxLineBytes bounds how much of an unfinished line is held
	// (default DisplayMaxLineBytes: the tail is a display path).
	MaxLineBytes int
	// Siblings reports the changes of the directory's other entries as
	// TailSibling events, from the same watch (the Session panel's picker
	// keeps up with the project's sessions through the open session's
	// tail). Only while the filesystem watch works: polling sees the file
	// alone.
	Siblings bool
}

func (o TailOptions) withDefaults() TailOptions {
	if o.SafetyPoll <= 0 {
		o.SafetyPoll = time.Second
	}
	if o.FallbackPoll <= 0 {
		o.FallbackPoll = 100 * time.Millisecond
	}
	if o.Buffer <= 0 {
		o.Buffer = 16
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DisplayMaxLineBytes
	}
	return o
}

// Tail follows a session file that a running Pi appends to, starting at
// fromOffset (normally the size already read, a line boundary). New complete
// lines are delivered in order; an unfinished last line is held until its
// newline arrives. Truncation (the file shrinks below what was read) and
// replacement (another inode at path) produce a TailReset event, after which
// the file is read again from the start. The channel closes when ctx ends;
// no goroutine outlives that.
func Tail(ctx context.Context, path string, fromOffset int64) (<-chan TailEvent, error) {
	return TailWithOptions(ctx, path, fromOffset, TailOptions{})
}

// TailWithOptions is Tail with explicit options.
func TailWithOptions(ctx context.Context, path string, fromOffset int64, opt TailOptions) (<-chan TailEvent, error) {
	if fromOffset < 0 {
		return nil, fmt.Errorf("tail %s: negative offset %d", path, fromOffset)
	}
	opt = opt.withDefaults()
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, fmt.Errorf("tail: %w", err)
	}
	t := &tailer{path: filepath.Clean(path), opt: opt, f: f, fi: fi, pos: fromOffset,
		out: make(chan TailEvent, opt.Buffer), buf: make([]byte, 64<<10)}
	var watcher *fsnotify.Watcher
	if !opt.NoWatch {
		watcher, err = fsnotify.NewWatcher()
		if err == nil {
			// Watch the directory, not the file, so that a replacement
			// (rename over the path) is seen too.
			if err = watcher.Add(filepath.Dir(t.path)); err != nil {
				watcher.Close()
				watcher = nil
			}
		}
	}
	go t.run(ctx, watcher)
	return t.out, nil
}

// tailer is the state of one Tail; only its goroutine touches it.
type tailer struct {
	path string
	opt  TailOptions
	f    *os.File
	fi   os.FileInfo
	out  chan TailEvent
	buf  []byte
	// pos is how far the file has been consumed (complete lines plus the
	// bytes held in pending).
	pos      int64
	pending  []byte
	skipping bool // inside a line longer than MaxLineBytes
}

func (t *tailer) run(ctx context.Context, watcher *fsnotify.Watcher) {
	defer close(t.out)
	defer func() { t.f.Close() }()
	interval := t.opt.FallbackPoll
	var events <-chan fsnotify.Event
	var errs <-chan error
	if watcher != nil {
		defer watcher.Close()
		interval = t.opt.SafetyPoll
		events, errs = watcher.Events, watcher.Errors
	}
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	if !t.check(ctx) {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			if name := filepath.Clean(ev.Name); name != t.path {
				if t.opt.Siblings && ev.Op&^fsnotify.Chmod != 0 &&
					!t.send(ctx, TailEvent{Kind: TailSibling, Path: name}) {
					return
				}
				continue
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if !t.send(ctx, TailEvent{Kind: TailError, Err: fmt.Errorf("watch %s: %w", t.path, err)}) {
				return
			}
			continue
		case <-ticker.C:
		}
		if !t.check(ctx) {
			return
		}
	}
}

// send delivers ev unless ctx ends first.
func (t *tailer) send(ctx context.Context, ev TailEvent) bool {
	select {
	case t.out <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// check detects replacement and truncation, then reads what was appended.
// It returns false when ctx ended.
func (t *tailer) check(ctx context.Context) bool {
	if st, err := os.Stat(t.path); err == nil && !os.SameFile(st, t.fi) {
		f, fi, err := openRegular(t.path)
		if err != nil {
			return t.send(ctx, TailEvent{Kind: TailError, Err: fmt.Errorf("tail: reopen: %w", err)})
		}
		t.f.Close()
		t.f, t.fi = f, fi
		if !t.reset(ctx) {
			return false
		}
	}
	// A missing path keeps the old descriptor: a writer may still hold it.
	fi, err := t.f.Stat()
	if err != nil {
		return t.send(ctx, TailEvent{Kind: TailError, Err: fmt.Errorf("tail: stat: %w", err)})
	}
	if fi.Size() < t.pos {
		if !t.reset(ctx) {
			return false
		}
	}
	return t.readNew(ctx, fi.Size())
}

func (t *tailer) reset(ctx context.Context) bool {
	t.pos, t.pending, t.skipping = 0, nil, false
	return t.send(ctx, TailEvent{Kind: TailReset, Offset: 0})
}

// Limits of one TailLines event, so one huge burst does not become one
// huge event.
const (
	tailEventMaxLines = 4096
	tailEventMaxBytes = 8 << 20
)

// readNew reads from pos to size and delivers the complete lines.
func (t *tailer) readNew(ctx context.Context, size int64) bool {
	var lines []TailLine
	batchBytes := 0
	flush := func() bool {
		if len(lines) == 0 {
			return true
		}
		ok := t.send(ctx, TailEvent{Kind: TailLines, Lines: lines})
		lines, batchBytes = nil, 0
		return ok
	}
	for t.pos < size {
		n, err := t.f.ReadAt(t.buf[:min(int64(len(t.buf)), size-t.pos)], t.pos)
		if n == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				flush()
				return t.send(ctx, TailEvent{Kind: TailError, Err: fmt.Errorf("tail: read: %w", err)})
			}
			break
		}
		chunk := t.buf[:n]
		chunkStart := t.pos
		t.pos += int64(n)
		for len(chunk) > 0 {
			nl := bytes.IndexByte(chunk, '\n')
			if nl < 0 {
				// An unfinished line is held until its newline arrives.
				if t.skipping {
					break
				}
				if len(t.pending)+len(chunk) > t.opt.MaxLineBytes {
					start := chunkStart - int64(len(t.pending))
					t.pending, t.skipping = nil, true
					if !flush() || !t.send(ctx, TailEvent{Kind: TailError, Offset: start, Err: ErrLineTooLong}) {
						return false
					}
					break
				}
				t.pending = append(t.pending, chunk...)
				break
			}
			part := chunk[:nl]
			lineEnd := chunkStart + int64(nl)
			chunk, chunkStart = chunk[nl+1:], lineEnd+1
			if t.skipping {
				t.skipping, t.pending = false, nil
				continue
			}
			if len(t.pending)+len(part) > t.opt.MaxLineBytes {
				start := lineEnd - int64(len(t.pending)+len(part))
				t.pending = nil
				if !flush() || !t.send(ctx, TailEvent{Kind: TailError, Offset: start, Err: ErrLineTooLong}) {
					return false
				}
				continue
			}
			data := make([]byte, len(t.pending)+len(part))
			copy(data, t.pending)
			copy(data[len(t.pending):], part)
			lines = append(lines, TailLine{Offset: lineEnd - int64(len(data)), Data: data})
			t.pending = nil
			batchBytes += len(data)
			if (len(lines) >= tailEventMaxLines || batchBytes >= tailEventMaxBytes) && !flush() {
				return false
			}
		}
		if ctx.Err() != nil {
			return false
		}
	}
	return flush()
}
