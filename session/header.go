package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxHeaderScanBytes is how far discovery looks for the end of the first
// line (Pi's MAX_SESSION_HEADER_SCAN_BYTES).
const MaxHeaderScanBytes = 1 << 20

// ReadHeader reads a session header the way Pi's discovery does
// (readSessionHeader): blank, malformed and falsy lines are skipped, and
// the first entry that parses must be a JSON object with type "session"
// and a string id. At most MaxHeaderScanBytes are examined (skipped lines
// included); a header still unfinished there counts only when the file
// ends right at the limit.
func ReadHeader(r io.Reader) (Header, error) {
	h, _, err := scanHeader(r)
	return h, err
}

// scanHeader is ReadHeader that also returns the offset just past the
// header line (before its newline).
func scanHeader(r io.Reader) (Header, int, error) {
	buf := make([]byte, 0, 4096)
	start, scan := 0, 0 // start of the current line; where to look for "\n"
	lineNo := 0
	var sc lineScratch
	// decide returns done=true when the line is the first entry.
	decide := func(line []byte, end int) (Header, int, bool, error) {
		lineNo++
		kind, e := parseLine(line, lineNo, &sc)
		if kind != LineEntry {
			return Header{}, 0, false, nil
		}
		if e.NotObject || e.Type != TypeSession || !e.HasID {
			return Header{}, 0, true, ErrNotSession
		}
		e.Raw = append([]byte(nil), e.Raw...)
		return HeaderOf(&e), end, true, nil
	}
	eof := false
	for !eof && len(buf) < MaxHeaderScanBytes {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), MaxHeaderScanBytes)])
		buf = buf[:len(buf)+m]
		if errors.Is(err, io.EOF) {
			eof = true
		} else if err != nil {
			return Header{}, 0, fmt.Errorf("read header: %w", err)
		}
		for {
			i := bytes.IndexByte(buf[scan:], '\n')
			if i < 0 {
				scan = len(buf)
				break
			}
			end := scan + i
			if h, at, done, err := decide(buf[start:end], end); done {
				return h, at, err
			}
			start, scan = end+1, end+1
		}
	}
	if !eof {
		// The limit is reached: like Pi, probe for one more byte.
		var probe [1]byte
		n, err := io.ReadFull(r, probe[:])
		if n > 0 {
			return Header{}, 0, ErrNotSession
		}
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return Header{}, 0, fmt.Errorf("read header: %w", err)
		}
	}
	if h, at, done, err := decide(buf[start:], len(buf)); done {
		return h, at, err
	}
	return Header{}, 0, ErrNotSession
}

// OpenHeader reads the header of the session file at path.
func OpenHeader(path string) (Header, error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return Header{}, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	h, err := ReadHeader(sizedReader(f, fi))
	if err != nil {
		return Header{}, fmt.Errorf("session %s: %w", path, err)
	}
	return h, nil
}

// Lineage follows parentSession links from the session file at path and
// returns the ancestor paths, nearest first. It stops at a missing or
// invalid file (reported as the error together with the ancestors found so
// far), at a repeated path, or after maxDepth ancestors.
func Lineage(path string, maxDepth int) ([]string, error) {
	seen := map[string]bool{path: true}
	var out []string
	cur := path
	for len(out) < maxDepth {
		h, err := OpenHeader(cur)
		if err != nil {
			return out, err
		}
		if h.ParentSession == "" || seen[h.ParentSession] {
			return out, nil
		}
		seen[h.ParentSession] = true
		out = append(out, h.ParentSession)
		cur = h.ParentSession
	}
	return out, nil
}

// firstEntryLine finds the header the way Pi's session listing does: the
// first line of head that parses as a truthy JSON value (blank, malformed
// and falsy lines are skipped). Only complete lines count unless whole
// (head is the entire file). found is false when head ran out first;
// otherwise end is the offset just past the line (before its newline) and
// err is ErrNotSession unless the entry is a session header with an id.
func firstEntryLine(head []byte, whole bool, sc *lineScratch) (h Header, end int, found bool, err error) {
	start, lineNo := 0, 0
	for start < len(head) {
		end = bytes.IndexByte(head[start:], '\n')
		if end < 0 {
			if !whole {
				return Header{}, 0, false, nil
			}
			end = len(head)
		} else {
			end += start
		}
		lineNo++
		kind, e := parseLine(head[start:end], lineNo, sc)
		if kind == LineEntry {
			if e.NotObject || e.Type != TypeSession || !e.HasID {
				return Header{}, 0, true, ErrNotSession
			}
			return HeaderOf(&e), end, true, nil
		}
		start = end + 1
	}
	return Header{}, 0, whole, ErrNotSession
}
