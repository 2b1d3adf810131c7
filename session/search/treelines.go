package search

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"unsafe"

	"github.com/forgebench/forgebench/session"
)

// Placing hits on branches needs every entry's id and parentId. The scan
// of a file's parts records them as it goes — a line's first bytes, read
// where the line already is — once the file has a hit, so a file with hits
// is not read a second time: only the stretches scanned before its first
// hit are (treeSeg gaps), and a file without hits costs nothing more.
// Lines are recorded with the rules of the session reader, which readTree
// applied in its own pass: blank, malformed and falsy lines are not
// entries, later "session" lines are not entries, the last duplicate of an
// id wins (link).

// lineKind is what one line of a session is to the tree.
type lineKind uint8

const (
	// lineEntry is an entry (or, before the header, a file that is not a
	// session).
	lineEntry lineKind = iota
	// lineSession is an object of type "session": the header when it is
	// the first line that is an entry at all, skipped afterwards.
	lineSession
)

// lineRec is one recorded line that the session reader reads as an entry
// or a session line (other lines are only counted). It is kept small: a
// part of many small entries records 100,000 of them.
type lineRec struct {
	off int64
	idx int32 // the line's index in its segment
	// id and parent are the entry's ids in the part's arena; for a
	// session line, id is the session id.
	id, parent idSpan
	kind       lineKind
	// quick: read by quickIDs, which the reader allows only after the
	// header (before it, such a line must be parsed whole: see merge);
	// hasID and hasParent as the reader has them, and v1, for a session
	// line, that its version is below 2.
	quick, hasID, hasParent, v1 bool
}

// idSpan is a run of bytes of an arena.
type idSpan struct{ off, n uint32 }

// treeSeg is a run of consecutive lines of a part: recorded, or a gap (the
// lines starting in [from, to), read by the tree pass when the file turns
// out to have hits).
type treeSeg struct {
	gap      bool
	from, to int64
	recs     recList
	n        int32 // lines in the segment (a gap's once filled)
}

// recList is a list of records in chunks: it grows without copying what
// it holds (a part of many small entries records 100,000 lines).
type recList struct {
	chunks [][]lineRec
	n      int
}

func (l *recList) add(r lineRec) {
	k := len(l.chunks)
	if k == 0 || len(l.chunks[k-1]) == cap(l.chunks[k-1]) {
		size := 64
		if k > 0 {
			size = min(2*cap(l.chunks[k-1]), 4096)
		}
		l.chunks = append(l.chunks, make([]lineRec, 0, size))
		k++
	}
	l.chunks[k-1] = append(l.chunks[k-1], r)
	l.n++
}

// partTree is what the scan of one part recorded of the tree.
type partTree struct {
	segs  []treeSeg
	arena arena
}

// record adds a line of the part (starting at off) to its recorded
// segments; quickOK says whether the line may be read by quickIDs (it is
// not the file's last line without a newline).
func (p *partTree) record(off int64, line []byte, quickOK bool) {
	seg := p.recording(off)
	if rec, ok := p.classify(off, line, quickOK); ok {
		rec.idx = seg.n
		seg.recs.add(rec)
	}
	seg.n++
}

// countLine adds a line that is not read (over the line limit).
func (p *partTree) countLine(off int64) { p.recording(off).n++ }

// recording returns the segment recorded lines go to.
func (p *partTree) recording(off int64) *treeSeg {
	if k := len(p.segs); k > 0 && !p.segs[k-1].gap {
		return &p.segs[k-1]
	}
	p.segs = append(p.segs, treeSeg{from: off})
	return &p.segs[len(p.segs)-1]
}

// skip leaves the lines starting in [from, to) to the tree pass.
func (p *partTree) skip(from, to int64) {
	if from >= to {
		return
	}
	if k := len(p.segs); k > 0 && p.segs[k-1].gap && p.segs[k-1].to == from {
		p.segs[k-1].to = to
		return
	}
	p.segs = append(p.segs, treeSeg{gap: true, from: from, to: to})
}

// classify reads one line as the session reader would: ok is false for a
// line that is not an entry at all.
func (p *partTree) classify(off int64, line []byte, quickOK bool) (lineRec, bool) {
	rec := lineRec{off: off}
	if quickOK {
		if typ, id, parent, hasParent, ok := quickIDBytes(line); ok && string(typ) != session.TypeSession {
			rec.quick, rec.hasID, rec.hasParent = true, true, hasParent
			rec.id, rec.parent = p.arena.add(id), p.arena.add(parent)
			return rec, true
		}
	}
	e, err := session.ParseEntryLine(line, 0)
	if err != nil {
		return rec, false
	}
	if e.Type == session.TypeSession && !e.NotObject {
		rec.kind = lineSession
		rec.hasID = e.HasID
		rec.id = p.arena.addString(e.ID)
		v, ok := e.Field("version").Number()
		rec.v1 = !ok || v < 2
		return rec, true
	}
	rec.hasID, rec.hasParent = e.HasID, e.HasParent
	rec.id, rec.parent = p.arena.addString(e.ID), p.arena.addString(e.ParentID)
	return rec, true
}

// arena holds the ids of a part's lines in one buffer (records point into
// it by offset, so it may grow); merge makes strings of it once it is
// complete, and they share it.
type arena struct {
	buf []byte
}

func (a *arena) add(b []byte) idSpan {
	a.grow(len(b))
	s := idSpan{uint32(len(a.buf)), uint32(len(b))}
	a.buf = append(a.buf, b...)
	return s
}

func (a *arena) addString(v string) idSpan {
	a.grow(len(v))
	s := idSpan{uint32(len(a.buf)), uint32(len(v))}
	a.buf = append(a.buf, v...)
	return s
}

// grow doubles the buffer when n more bytes do not fit (append grows a
// large slice by a quarter, copying it many times over).
func (a *arena) grow(n int) {
	if len(a.buf)+n > cap(a.buf) {
		buf := make([]byte, len(a.buf), max(2*cap(a.buf), len(a.buf)+n, 16<<10))
		copy(buf, a.buf)
		a.buf = buf
	}
}

// str is the string a idSpan holds (sharing the arena, which must not
// change any more).
func (a *arena) str(s idSpan) string {
	if s.n == 0 {
		return ""
	}
	return unsafe.String(&a.buf[s.off], int(s.n))
}

// quickIDBytes is quickIDs without a copy: type, id and parentId of a line
// in the shape Pi writes most entries.
func quickIDBytes(line []byte) (typ, id, parent []byte, hasParent, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte(`{"type":"`))
	if !found || len(line) < 2 || line[len(line)-1] != '}' {
		return
	}
	typ, rest, ok1 := cutPlain(rest)
	rest, found = bytes.CutPrefix(rest, []byte(`,"id":"`))
	if !ok1 || !found {
		return
	}
	id, rest, ok2 := cutPlain(rest)
	rest, found = bytes.CutPrefix(rest, []byte(`,"parentId":`))
	if !ok2 || !found {
		return
	}
	switch {
	case bytes.HasPrefix(rest, []byte("null,")):
	case len(rest) > 0 && rest[0] == '"':
		p, after, ok3 := cutPlain(rest[1:])
		if !ok3 || len(after) == 0 || after[0] != ',' {
			return
		}
		parent, hasParent = p, true
	default:
		return
	}
	return typ, id, parent, hasParent, true
}

// recordLines records the lines of data[from:] that start before end
// (data's lines are complete; bufOff is data[0]'s offset in the file, size
// the file's). It returns false when a line starting at or after end was
// reached.
func (p *partTree) recordLines(data []byte, from int, bufOff, end, size int64) bool {
	for from < len(data) {
		if bufOff+int64(from) >= end {
			return false
		}
		nl := bytes.IndexByte(data[from:], '\n')
		lineEnd := len(data)
		if nl >= 0 {
			lineEnd = from + nl
		}
		p.record(bufOff+int64(from), data[from:lineEnd], bufOff+int64(lineEnd) < size)
		from = lineEnd + 1
	}
	return true
}

// fill reads the gaps of the parts' segments (the tree pass over the
// stretches scanned before the file's first hit).
func (s *scanner) fill(ctx context.Context, r io.ReaderAt, size int64, parts []*partTree) error {
	for _, p := range parts {
		for k := range p.segs {
			if p.segs[k].gap {
				if err := s.fillSeg(ctx, r, size, p, &p.segs[k], false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fillSeg reads the lines of a gap. whole says the segment is the whole
// file: lines are then read quickly only once the header was seen, as the
// session reader does, and the walk stops at a first entry that is not a
// header.
func (s *scanner) fillSeg(ctx context.Context, r io.ReaderAt, size int64, p *partTree, seg *treeSeg, whole bool) error {
	err := s.eachLineFrom(ctx, r, size, seg.from, seg.to, func(off int64, line []byte) error {
		defer func() { seg.n++ }()
		if line == nil {
			return nil // over the line limit: not an entry
		}
		header := !whole || seg.recs.n > 0
		rec, ok := p.classify(off, line, header && off+int64(len(line)) < size)
		if !ok {
			return nil
		}
		if whole && seg.recs.n == 0 && (rec.kind != lineSession || !rec.hasID) {
			return errNotSession
		}
		rec.idx = seg.n
		seg.recs.add(rec)
		return nil
	})
	if err != nil {
		return err
	}
	seg.gap = false
	return nil
}

// errQuickBeforeHeader: a quick-read line came before the header, where
// the reader parses lines whole (a line quickIDs accepts may still be
// malformed): the file's tree is read by the whole pass instead.
var errQuickBeforeHeader = errors.New("a line read quickly before the session header")

// merge builds the tree from the parts' segments, in file order.
func merge(parts []*partTree) (*treeInfo, error) {
	t := &treeInfo{}
	n := 0
	for _, p := range parts {
		for _, seg := range p.segs {
			n += seg.recs.n
		}
	}
	t.offs, t.lines, t.ids = make([]int64, 0, n), make([]int32, 0, n), make([]string, 0, n)
	// Entries are the records after the header that are not session
	// lines: each walks them in file order.
	entries := func(fn func(p *partTree, rec *lineRec, line int32) error) error {
		haveHeader := false
		lineBase := int32(0)
		for _, p := range parts {
			for _, seg := range p.segs {
				for _, chunk := range seg.recs.chunks {
					for k := range chunk {
						rec := &chunk[k]
						if !haveHeader {
							switch {
							case rec.quick:
								return errQuickBeforeHeader
							case rec.kind != lineSession || !rec.hasID:
								return errNotSession
							}
							haveHeader = true
							t.sessionID, t.v1 = strings.Clone(p.arena.str(rec.id)), rec.v1
							continue
						}
						if rec.kind != lineSession {
							if err := fn(p, rec, lineBase+rec.idx+1); err != nil {
								return err
							}
						}
					}
				}
				lineBase += seg.n
			}
		}
		if !haveHeader {
			return errNotSession
		}
		return nil
	}
	err := entries(func(p *partTree, rec *lineRec, line int32) error {
		t.offs = append(t.offs, rec.off)
		t.lines = append(t.lines, line)
		id := ""
		if rec.hasID {
			id = p.arena.str(rec.id)
		}
		t.ids = append(t.ids, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The parents, by a second walk in the same order.
	t.link(func(visit func(parent string, ok bool)) {
		entries(func(p *partTree, rec *lineRec, _ int32) error {
			visit(p.arena.str(rec.parent), rec.hasParent)
			return nil
		})
	})
	return t, nil
}
