package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// splitter reads chunks and cuts them into lines. Complete lines are
// sub-slices of the chunk they were read into (chunks are never reused), so
// entry bytes are stored once; a line crossing a chunk boundary is moved
// into the next chunk.
type splitter struct {
	opt            Options
	mapped         bool         // lines are sub-slices of a mapped file
	seekable       seekReaderAt // non-nil when long lines can be measured ahead
	base           int64        // reader offset when reading started
	scratch        []byte       // look-ahead buffer for measureLine
	out            chan<- lineBatch
	seq            int
	cur            []lineRef
	bufs           *batchBuffers
	curBytes       int
	lines          int
	totalBytes     int64
	missingNewline bool
	oversized      []int
	oversizedBytes []int64
}

// skipped records an oversized line of the given length.
func (sp *splitter) skipped(length int64) {
	sp.lines++
	sp.oversized = append(sp.oversized, sp.lines)
	sp.oversizedBytes = append(sp.oversizedBytes, length)
}

func (sp *splitter) emit(data []byte) {
	sp.lines++
	if sp.cur == nil {
		sp.cur = sp.bufs.lines()
	}
	sp.cur = append(sp.cur, lineRef{no: sp.lines, data: data})
	sp.curBytes += len(data)
	if sp.curBytes >= batchBytes || len(sp.cur) >= batchLines {
		sp.flush()
	}
}

// emitChecked emits a complete line, or records it as oversized when a
// buffer that was sized for the bytes after a skipped line still held it
// whole: the limit is the same on every path.
func (sp *splitter) emitChecked(data []byte) {
	if len(data) > sp.opt.MaxLineBytes {
		sp.skipped(int64(len(data)))
		return
	}
	sp.emit(data)
}

func (sp *splitter) flush() {
	if len(sp.cur) == 0 {
		return
	}
	sp.out <- lineBatch{seq: sp.seq, lines: sp.cur}
	sp.seq++
	sp.cur = sp.bufs.lines()
	sp.curBytes = 0
}

func (sp *splitter) run(r io.Reader) error {
	defer sp.flush()
	if sr, ok := r.(seekReaderAt); ok {
		if pos, err := sr.Seek(0, io.SeekCurrent); err == nil {
			sp.seekable, sp.base = sr, pos
		}
	}
	buf := make([]byte, sp.opt.ChunkBytes)
	n, start, scan := 0, 0, 0
	for {
		m, err := r.Read(buf[n:])
		n += m
		sp.totalBytes += int64(m)
		for {
			idx := bytes.IndexByte(buf[scan:n], '\n')
			if idx < 0 {
				break
			}
			end := scan + idx
			sp.emitChecked(buf[start:end:end])
			start = end + 1
			scan = start
		}
		scan = n
		if err == io.EOF {
			if start < n {
				sp.missingNewline = true
				sp.emitChecked(buf[start:n:n])
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		if n < len(buf) {
			continue
		}
		tail := n - start
		if tail > sp.opt.MaxLineBytes {
			rest, eof, err := sp.skipLongLine(r, int64(tail))
			if err != nil {
				return err
			}
			if eof {
				return nil
			}
			buf = make([]byte, max(sp.opt.ChunkBytes, 2*len(rest)))
			n = copy(buf, rest)
			start, scan = 0, 0
			continue
		}
		size := sp.opt.ChunkBytes
		if tail*2 > size {
			size = min(tail*2, sp.opt.MaxLineBytes+1)
			if sp.seekable != nil && (tail >= measureMinBytes || tail*2 > sp.opt.MaxLineBytes) {
				// A long line: measure it first so it is either skipped
				// without being held or buffered in one exact allocation.
				lineLen, found, err := sp.measureLine(tail)
				if err != nil {
					return err
				}
				if lineLen > int64(sp.opt.MaxLineBytes) {
					if !found {
						// The line runs to the end of the data: count its
						// unread rest as read (Size is the file's size).
						sp.skipped(lineLen)
						sp.totalBytes += lineLen - int64(tail)
						sp.missingNewline = true
						return nil
					}
					if err := sp.skipMeasured(lineLen, lineLen-int64(tail)+1); err != nil {
						return err
					}
					buf = make([]byte, sp.opt.ChunkBytes)
					n, start, scan = 0, 0, 0
					continue
				}
				size = int(lineLen) + 1 + sp.opt.ChunkBytes
			}
		}
		nb := make([]byte, size)
		copy(nb, buf[start:n])
		buf, n, start, scan = nb, tail, 0, tail
	}
}

// runBytes splits a whole mapped file in place: every line is a sub-slice
// of data. A line above the limit is measured by the same scan that finds
// its end, and its pages are dropped from the resident set as the scan
// passes them, so a huge skipped line costs one read of the page cache.
func (sp *splitter) runBytes(data []byte) error {
	defer sp.flush()
	sp.totalBytes = int64(len(data))
	limit := sp.opt.MaxLineBytes
	for start := 0; start < len(data); {
		end := indexNewline(data, start, limit)
		if end < 0 { // over the limit: skip to the newline
			end = sp.skipMapped(data, start)
			if end == len(data) {
				sp.missingNewline = true
				return nil
			}
			start = end + 1
			continue
		}
		if end == len(data) {
			sp.missingNewline = true
			sp.emit(data[start:end:end])
			return nil
		}
		sp.emit(data[start:end:end])
		start = end + 1
	}
	return nil
}

// indexNewline returns the offset of the first newline at or after start,
// len(data) when the data ends first, or -1 when the line holds more than
// limit bytes.
func indexNewline(data []byte, start, limit int) int {
	window := data[start:min(len(data), start+limit+1)]
	if i := bytes.IndexByte(window, '\n'); i >= 0 {
		return start + i
	}
	if start+len(window) == len(data) && len(window) <= limit {
		return len(data)
	}
	return -1
}

// skipMapped records the oversized line starting at start, dropping the
// pages already scanned and those it scans in windows, and returns the
// offset of its newline (len(data) when it runs to the end).
func (sp *splitter) skipMapped(data []byte, start int) int {
	const window = 4 << 20
	scanned := start + sp.opt.MaxLineBytes + 1
	dropPages(data[start:scanned])
	for pos := scanned; ; {
		chunk := data[pos:min(len(data), pos+window)]
		i := bytes.IndexByte(chunk, '\n')
		if i >= 0 {
			dropPages(data[pos : pos+i])
			sp.skipped(int64(pos + i - start))
			return pos + i
		}
		dropPages(chunk)
		pos += len(chunk)
		if pos == len(data) {
			sp.skipped(int64(pos - start))
			return pos
		}
	}
}

// skipLongLine discards the rest of an oversized line whose first held
// bytes are already buffered, reading through a fixed scratch buffer, and
// returns the bytes after its newline.
func (sp *splitter) skipLongLine(r io.Reader, held int64) (rest []byte, eof bool, err error) {
	scratch := make([]byte, min(sp.opt.ChunkBytes, 1<<20))
	length := held
	for {
		m, rerr := r.Read(scratch)
		sp.totalBytes += int64(m)
		if idx := bytes.IndexByte(scratch[:m], '\n'); idx >= 0 {
			sp.skipped(length + int64(idx))
			return scratch[idx+1 : m], false, nil
		}
		length += int64(m)
		if rerr == io.EOF {
			sp.skipped(length)
			sp.missingNewline = true
			return nil, true, nil
		}
		if rerr != nil {
			return nil, false, fmt.Errorf("read: %w", rerr)
		}
	}
}

// seekReaderAt is a reader whose data can be inspected ahead (os.File,
// bytes.Reader, strings.Reader).
type seekReaderAt interface {
	io.ReaderAt
	io.Seeker
}

// measureLine returns the full length of the line whose first tail bytes
// are buffered, by scanning ahead with ReadAt (nothing is kept), and
// whether it ends with a newline (false: it runs to the end of the data).
func (sp *splitter) measureLine(tail int) (int64, bool, error) {
	if sp.scratch == nil {
		sp.scratch = make([]byte, 1<<20)
	}
	scratch := sp.scratch
	pos := sp.base + sp.totalBytes
	length := int64(tail)
	for {
		m, err := sp.seekable.ReadAt(scratch, pos)
		if idx := bytes.IndexByte(scratch[:m], '\n'); idx >= 0 {
			return length + int64(idx), true, nil
		}
		length += int64(m)
		pos += int64(m)
		if errors.Is(err, io.EOF) || (err == nil && m == 0) {
			return length, false, nil
		}
		if err != nil {
			return 0, false, fmt.Errorf("read: %w", err)
		}
	}
}

// skipMeasured records an oversized line of the given length and moves the
// reader past the given number of unread bytes (the rest of the line and
// its newline).
func (sp *splitter) skipMeasured(length, unread int64) error {
	sp.skipped(length)
	sp.totalBytes += unread
	if _, err := sp.seekable.Seek(sp.base+sp.totalBytes, io.SeekStart); err != nil {
		return fmt.Errorf("skip oversized line: %w", err)
	}
	return nil
}
