package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/forgebench/forgebench/session"
)

// MaxLineBytes is the longest line the search decodes, the display
// reader's line limit: a longer line — in practice a runaway tool output —
// is skipped, as the Session panel skips it.
const MaxLineBytes = session.DisplayMaxLineBytes

// defaultBufferBytes is each worker's read buffer.
const defaultBufferBytes = 256 << 10

// bigLines lends one buffer, shared by all workers, for lines longer than
// a worker's read buffer that must be held whole (to be decoded): memory
// stays bounded by one maximal line whatever the number of workers.
type bigLines struct {
	mu   sync.Mutex
	line []byte
	sc   scratch
}

// with reads [off, off+n) of r into the shared buffer and calls fn with
// it; only one caller holds the buffer at a time.
func (b *bigLines) with(r io.ReaderAt, off int64, n int, fn func(line []byte, sc *scratch)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cap(b.line) < n {
		b.line = make([]byte, n)
	}
	line := b.line[:n:n]
	if got, err := r.ReadAt(line, off); err != nil && !(errors.Is(err, io.EOF) && got == n) {
		return fmt.Errorf("read line at %d: %w", off, err)
	}
	fn(line, &b.sc)
	return nil
}

// scanner is one worker's state: its read buffer and decode scratch.
type scanner struct {
	buf     []byte
	sc      scratch
	cur     cursor
	big     *bigLines
	maxLine int
	// everything: the file being scanned escapes every character.
	everything bool
	// tree, when set, records the tree lines of the part being scanned,
	// once hasHits (the file's) says the file has a hit.
	tree    *partTree
	hasHits *atomic.Bool
}

func newScanner(bufBytes, maxLine int, big *bigLines) *scanner {
	if bufBytes <= 0 {
		bufBytes = defaultBufferBytes
	}
	if maxLine <= 0 {
		maxLine = MaxLineBytes
	}
	return &scanner{buf: make([]byte, bufBytes), big: big, maxLine: maxLine}
}

// rangeResult is what scanning one byte range of a file found.
type rangeResult struct {
	hits      []rangeHit
	oversized int
	bytes     int64
}

// rangeHit is an entry hit, where its line starts in the file and where
// the tree recorded the line.
type rangeHit struct {
	lineOff int64
	hit     entryHit
	at      entryRef
}

// scanRange finds the hits among the lines that start in [start, end) of r,
// which is read no further than size. A line belongs to the range it
// starts in; it is read to its end even past end. everything says the
// file's writer escapes every character (headEscapesEverything), so every
// line is a candidate; the range that starts the file finds it out itself.
func (s *scanner) scanRange(ctx context.Context, m *Matcher, r io.ReaderAt, size, start, end int64, everything bool) (rangeResult, error) {
	var res rangeResult
	if need := 4 * m.pf.overlap(); len(s.buf) < need {
		s.buf = make([]byte, need) // a window must hold more than its overlap
	}
	end = min(end, size)
	pos := start
	skipFirst := false
	if start > 0 {
		// The line holding byte start-1 began in an earlier range.
		pos, skipFirst = start-1, true
	}
	keep := 0     // bytes carried at the front of buf (a partial line)
	bufOff := pos // file offset of buf[0]
	for pos < size {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		want := min(int64(len(s.buf)-keep), size-pos)
		n, err := r.ReadAt(s.buf[keep:keep+int(want)], pos)
		res.bytes += int64(n)
		if err != nil && !(errors.Is(err, io.EOF) && int64(n) == want) {
			if errors.Is(err, io.EOF) {
				size = pos + int64(n) // the file shrank: stop where it ends now
			} else {
				return res, fmt.Errorf("read at %d: %w", pos, err)
			}
		}
		pos += int64(n)
		data := s.buf[:keep+n]
		eof := pos >= size
		i0 := 0
		if skipFirst {
			nl := bytes.IndexByte(data, '\n')
			if nl < 0 {
				keep, bufOff = 0, pos
				continue
			}
			i0, skipFirst = nl+1, false
		}
		if bufOff+int64(i0) >= end {
			return res, nil
		}
		if bufOff == 0 && i0 == 0 && !everything {
			if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
				everything = escapesEverything(data[:nl])
			} else {
				everything = headEscapesEverything(r, size) // a first line longer than the buffer
			}
		}
		s.everything = everything
		last := lastNewline(data)
		complete := data[:max(last+1, i0)]
		if eof {
			complete = data // a last line without "\n" is still a line
		}
		found := len(res.hits)
		done, err := s.scanLines(m, r, complete, i0, bufOff, end, &res)
		if err == nil {
			s.recordWindow(complete, i0, bufOff, end, size, &res, found)
		}
		if err != nil || done || eof {
			return res, err
		}
		tail := data[len(complete):]
		tailOff := bufOff + int64(len(complete))
		if tailOff >= end {
			return res, nil
		}
		if len(tail) == len(s.buf) {
			// One line fills the buffer: follow it without holding it
			// (the tree pass reads it, if the file has hits).
			if s.tree != nil {
				s.tree.skip(tailOff, tailOff+1)
			}
			next, err := s.longLine(ctx, m, r, size, tailOff, tail, &res)
			if err != nil {
				return res, err
			}
			pos, keep, bufOff = next, 0, next
			continue
		}
		keep = copy(s.buf, tail)
		bufOff = tailOff
	}
	return res, nil
}

// recordWindow records the tree lines of a scanned window — data[i0:]
// up to the part's end — once the file has a hit (this part's or
// another's), and leaves them to the tree pass before that. The window's
// hits are res.hits[found:].
func (s *scanner) recordWindow(data []byte, i0 int, bufOff, end, size int64, res *rangeResult, found int) {
	if s.tree == nil {
		return
	}
	if len(res.hits) > 0 {
		s.hasHits.Store(true)
	}
	if s.hasHits.Load() {
		s.tree.recordLines(data, i0, bufOff, end, size, res.hits[found:])
		return
	}
	s.tree.skip(bufOff+int64(i0), min(end, bufOff+int64(len(data))))
}

// scanLines matches the candidate lines of data[i0:], whose lines are all
// complete; done reports that a line starting at or after end was reached.
func (s *scanner) scanLines(m *Matcher, r io.ReaderAt, data []byte, i0 int, bufOff, end int64, res *rangeResult) (done bool, err error) {
	s.cur.reset(m.pf, data, s.everything)
	for from := i0; from < len(data); {
		cand := s.cur.candidate(from)
		if cand < 0 {
			return false, nil
		}
		ls := lastNewline(data[from:cand]) + from + 1
		if bufOff+int64(ls) >= end {
			return true, nil
		}
		le := bytes.IndexByte(data[cand:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += cand
		}
		line := data[ls:le]
		if len(line) > s.maxLine {
			res.oversized++
		} else if h, ok := m.matchLine(line, &s.sc); ok {
			res.hits = append(res.hits, rangeHit{lineOff: bufOff + int64(ls), hit: h})
		}
		from = le + 1
	}
	return false, nil
}

// longLine follows a line that starts at lineOff and is longer than the
// read buffer (held holds its first bytes). It is scanned window by window
// for a candidate; only if one is found is it read whole into the shared
// buffer and matched. It returns the offset after the line's newline.
func (s *scanner) longLine(ctx context.Context, m *Matcher, r io.ReaderAt, size, lineOff int64, held []byte, res *rangeResult) (int64, error) {
	overlap := m.pf.overlap()
	s.cur.reset(m.pf, held, s.everything)
	candidate := s.cur.candidate(0) >= 0
	pos := lineOff + int64(len(held))
	keep := copy(s.buf, held[len(held)-min(overlap, len(held)):])
	lineEnd := size
	for pos < size {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		want := min(int64(len(s.buf)-keep), size-pos)
		n, err := r.ReadAt(s.buf[keep:keep+int(want)], pos)
		res.bytes += int64(n)
		if err != nil && !(errors.Is(err, io.EOF) && int64(n) == want) {
			if !errors.Is(err, io.EOF) {
				return 0, fmt.Errorf("read at %d: %w", pos, err)
			}
			size = pos + int64(n)
		}
		window := s.buf[:keep+n]
		nl := bytes.IndexByte(window[keep:], '\n')
		if nl >= 0 {
			window = window[:keep+nl]
		}
		if !candidate {
			s.cur.reset(m.pf, window, s.everything)
			candidate = s.cur.candidate(0) >= 0
		}
		if nl >= 0 {
			lineEnd = pos + int64(nl)
			break
		}
		pos += int64(n)
		if n == 0 {
			break
		}
		keep = copy(s.buf, window[len(window)-min(overlap, len(window)):])
	}
	lineEnd = min(lineEnd, size)
	length := lineEnd - lineOff
	switch {
	case !candidate:
	case length > int64(s.maxLine):
		res.oversized++
	default:
		err := s.big.with(r, lineOff, int(length), func(line []byte, sc *scratch) {
			if h, ok := m.matchLine(line, sc); ok {
				res.hits = append(res.hits, rangeHit{lineOff: lineOff, hit: h})
			}
		})
		if err != nil {
			return 0, err
		}
	}
	return lineEnd + 1, nil
}

// eachLineFrom calls fn for every line of r[0:size) that starts in
// [from, to) (from is a line's start), in order with its offset; lines
// longer than the read buffer are read whole into the shared buffer,
// lines longer than maxLine are skipped (fn gets nil for them, so line
// counts stay right). An error from fn stops the walk and is returned.
func (s *scanner) eachLineFrom(ctx context.Context, r io.ReaderAt, size, from, to int64, fn func(off int64, line []byte) error) error {
	pos, keep, bufOff := from, 0, from
	for pos < size {
		if err := ctx.Err(); err != nil {
			return err
		}
		want := min(int64(len(s.buf)-keep), size-pos)
		n, err := r.ReadAt(s.buf[keep:keep+int(want)], pos)
		if err != nil && !(errors.Is(err, io.EOF) && int64(n) == want) {
			if !errors.Is(err, io.EOF) {
				return fmt.Errorf("read at %d: %w", pos, err)
			}
			size = pos + int64(n)
		}
		pos += int64(n)
		data := s.buf[:keep+n]
		eof := pos >= size
		start := 0
		for {
			if bufOff+int64(start) >= to {
				return nil
			}
			nl := bytes.IndexByte(data[start:], '\n')
			if nl < 0 {
				break
			}
			if err := fn(bufOff+int64(start), data[start:start+nl]); err != nil {
				return err
			}
			start += nl + 1
		}
		tail := data[start:]
		tailOff := bufOff + int64(start)
		if eof {
			if len(tail) > 0 {
				return fn(tailOff, tail)
			}
			return nil
		}
		if len(tail) < len(s.buf) {
			keep, bufOff = copy(s.buf, tail), tailOff
			continue
		}
		// A line longer than the buffer: measure it, then hold it whole
		// in the shared buffer (or skip it past the limit).
		length, err := measureLine(r, tailOff, size, s.buf)
		if err != nil {
			return err
		}
		var ferr error
		if length > int64(s.maxLine) {
			ferr = fn(tailOff, nil)
		} else if err := s.big.with(r, tailOff, int(length), func(line []byte, _ *scratch) { ferr = fn(tailOff, line) }); err != nil {
			return err
		}
		if ferr != nil {
			return ferr
		}
		pos = tailOff + length + 1
		keep, bufOff = 0, pos
	}
	return nil
}

// measureLine returns the length of the line starting at off (up to its
// newline or size), reading through buf.
func measureLine(r io.ReaderAt, off, size int64, buf []byte) (int64, error) {
	pos := off
	for pos < size {
		want := min(int64(len(buf)), size-pos)
		n, err := r.ReadAt(buf[:want], pos)
		if nl := bytes.IndexByte(buf[:n], '\n'); nl >= 0 {
			return pos + int64(nl) - off, nil
		}
		pos += int64(n)
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return 0, fmt.Errorf("read at %d: %w", pos, err)
		}
		if n == 0 {
			break
		}
	}
	return pos - off, nil
}
