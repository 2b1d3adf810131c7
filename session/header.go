package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxHeaderScanBytes is how far discovery looks for the end of the first
// line (Pi's MAX_SESSION_HEADER_SCAN_BYTES).
const MaxHeaderScanBytes = 1 << 20

// ReadHeader reads only the first line of a session, like Pi's discovery
// scan: the text before the first "\n" (within MaxHeaderScanBytes) must be a
// JSON object with type "session" and a string id. Unlike Open, blank or
// malformed first lines are not skipped.
func ReadHeader(r io.Reader) (Header, error) {
	buf := make([]byte, 0, 4096)
	for len(buf) < MaxHeaderScanBytes {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := r.Read(buf[len(buf):min(cap(buf), MaxHeaderScanBytes)])
		buf = buf[:len(buf)+m]
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[:i]
			break
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Header{}, fmt.Errorf("read header: %w", err)
		}
	}
	var sc lineScratch
	kind, e := parseLine(buf, 1, &sc)
	if kind != lineEntry || e.NotObject || e.Type != TypeSession || !e.HasID {
		return Header{}, ErrNotSession
	}
	return headerFrom(&e), nil
}

// OpenHeader reads the header of the session file at path.
func OpenHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	h, err := ReadHeader(f)
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
