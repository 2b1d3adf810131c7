package session

import (
	"errors"
	"sync"
)

// ErrNotEntry is returned by ParseEntryLine for blank, malformed or falsy
// lines, which Pi's loader skips.
var ErrNotEntry = errors.New("not a session entry line")

// ParseEntryLine decodes one current-format (v3) line as the loader would,
// for callers that see lines one at a time (a live tail). no is the
// 1-based line number to record. Lines of v1/v2 files need the whole file
// for migration and must be read with Open instead.
func ParseEntryLine(line []byte, no int) (*Entry, error) {
	sc := scratchPool.Get().(*lineScratch)
	kind, e := parseLine(line, no, sc)
	scratchPool.Put(sc)
	if kind != lineEntry {
		return nil, ErrNotEntry
	}
	return &e, nil
}

// scratchPool lends ParseEntryLine its member lists: a caller that parses
// line after line (a search recording a file's tree) then allocates only
// the entry.
var scratchPool = sync.Pool{New: func() any { return new(lineScratch) }}
