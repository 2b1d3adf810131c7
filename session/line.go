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
	if kind != LineEntry {
		return nil, ErrNotEntry
	}
	return &e, nil
}

// scratchPool lends ParseEntryLine its member lists: a caller that parses
// line after line (a search recording a file's tree) then allocates only
// the entry.
var scratchPool = sync.Pool{New: func() any { return new(lineScratch) }}

// A LineParser decodes lines one at a time exactly as the reader does, its
// member lists reused from line to line, for a reader of its own that
// frames a file itself (session/stats' digest). The zero value is ready to
// use; it is not safe for concurrent use.
type LineParser struct{ sc lineScratch }

// Parse classifies one line (without its newline) and, for a LineEntry,
// decodes the entry's eager fields; no is the 1-based line number to
// record. The Entry's Raw is line itself, not a copy.
func (p *LineParser) Parse(line []byte, no int) (LineKind, Entry) {
	kind, e := parseLine(line, no, &p.sc)
	if m := e.MessageRaw(); len(m) == 0 || m[0] != '{' {
		p.sc.message = p.sc.message[:0] // no message object: MessageMember finds nothing
	}
	return kind, e
}

// MessageMember returns the member name of the message object
// (Entry.MessageRaw) of the message entry Parse read last: the last
// duplicate, nil when absent or when that line held no message entry with
// an object message. Parse has already scanned those members, so this
// costs no second pass over the message.
func (p *LineParser) MessageMember(name string) RawValue {
	return lookup(p.sc.message, name)
}
