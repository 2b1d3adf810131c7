package ui

import (
	"bufio"
	"fmt"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/i18n"
)

// TraceEnv names the environment variable that turns the trace on: a
// file path the workbench writes one line per event to (FORGEBENCH_TRACE).
// Unset, nothing is traced and nothing is paid.
const TraceEnv = "FORGEBENCH_TRACE"

// Trace records when the workbench read input, handled each message and
// wrote each frame, so a measurement can tell the workbench's own time
// ("last key read → final frame written") from the terminal's around it
// (bench/tui.sh, bench/palette.sh). One line per event, tab-separated:
//
//	KIND  WALL_NS  DURATION_NS  DETAIL
//
// KIND is read (bytes read from the terminal; DETAIL the count), key (a
// key press handled by Update; DETAIL the key), msg (any other message
// handled by Update; DETAIL its Go type), view (a frame composed by View)
// and write (bytes written to the terminal; DETAIL the count). WALL_NS is
// when the event began, in Unix nanoseconds (the clock of bash's
// EPOCHREALTIME); DURATION_NS how long it took. Lines are buffered and
// flushed after each write to the terminal, so once the screen settles
// the file holds every event up to the final frame.
type Trace struct {
	mu  sync.Mutex
	f   *os.File
	buf *bufio.Writer
}

// OpenTrace creates (truncates) the trace file at path.
func OpenTrace(path string) (*Trace, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, i18n.Errorf("open the trace file: %w", err)
	}
	return &Trace{f: f, buf: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Close flushes and closes the trace file.
func (t *Trace) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	err := t.buf.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return i18n.Errorf("close the trace file: %w", err)
	}
	return nil
}

// event records one event that began at start and ended now; flush
// writes the buffer out after it.
func (t *Trace) event(kind string, start time.Time, detail string, flush bool) {
	d := time.Since(start)
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.buf, "%s\t%d\t%d\t%s\n", kind, start.UnixNano(), d.Nanoseconds(), detail)
	if flush {
		_ = t.buf.Flush() // a trace that cannot be written only loses lines
	}
}

// message records the Update of msg that began at start.
func (t *Trace) message(msg tea.Msg, start time.Time) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		t.event("key", start, k.String(), false)
		return
	}
	t.event("msg", start, fmt.Sprintf("%T", msg), false)
}

// TracedFile is a terminal file whose reads or writes the Trace records;
// it stays an *os.File underneath (Fd, raw mode, the window size), so
// bubbletea treats it as the terminal it is.
type TracedFile struct {
	*os.File
	trace         *Trace
	reads, writes bool
}

// Input wraps the terminal's input so each read is recorded.
func (t *Trace) Input(f *os.File) *TracedFile { return &TracedFile{File: f, trace: t, reads: true} }

// Output wraps the terminal's output so each write is recorded.
func (t *Trace) Output(f *os.File) *TracedFile { return &TracedFile{File: f, trace: t, writes: true} }

// Read reads from the file and records when the bytes arrived (a read
// blocks until input comes, so its end, not its start, is the event).
func (f *TracedFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	if f.reads && n > 0 {
		f.trace.event("read", time.Now(), fmt.Sprint(n), false)
	}
	return n, err // the file's own error, unwrapped: bubbletea checks it
}

// Write writes to the file and records the write.
func (f *TracedFile) Write(p []byte) (int, error) {
	start := time.Now()
	n, err := f.File.Write(p)
	if f.writes {
		f.trace.event("write", start, fmt.Sprint(n), true)
	}
	return n, err // the file's own error, unwrapped: bubbletea checks it
}
