package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sort"
	"strings"

	"github.com/forgebench/forgebench/session"
)

// Placing hits on branches needs every entry's id and parentId. The scan
// of a file's parts records them as it goes — a line's first bytes, read
// where the line already is — once the file has a hit, so a file with hits
// is not read a second time: only the stretches scanned before its first
// hit are (gaps), and a file without hits costs nothing more. Lines are
// recorded with the rules of the session reader: blank, malformed and
// falsy lines are not entries, later "session" lines are not entries, the
// last duplicate of an id wins (treeInfo.link).
//
// What is kept per entry is small, because fresh memory is what a record
// costs most (a page fault per 4 KiB, tens of microseconds on a virtual
// machine): the id packed in 8 bytes, one bit saying that the parentId is
// the previous entry's id — as it is for nearly every entry Pi writes —
// and the parentId itself only for the others. Where each hit's line lies
// in the records is noted on the hit as the line is recorded (entryRef),
// so no offset is kept per entry, except for a tree the cache keeps
// (keepOffsets), which later searches look hits up in by offset.

// idKey is an id packed for comparing: an id of 1 to 8 bytes without a
// NUL byte is its bytes, little-endian and zero-padded (so its low byte is
// not zero); any other non-empty id is (k+1)<<8, k its index in the list of
// such ids of the part that recorded it (in the tree's list once merged);
// 0 is the empty id, or none.
type idKey uint64

// packID packs an id that fits; ok is false for one that needs the list.
func packID(b []byte) (idKey, bool) {
	switch n := len(b); {
	case n == 0:
		return 0, true
	case n == 8:
		v := binary.LittleEndian.Uint64(b)
		if (v-0x0101010101010101)&^v&0x8080808080808080 != 0 {
			return 0, false // a NUL byte
		}
		return idKey(v), true
	case n > 8:
		return 0, false
	}
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == 0 {
			return 0, false
		}
		v = v<<8 | uint64(b[i])
	}
	return idKey(v), true
}

// listed reports whether k refers to a list of ids.
func (k idKey) listed() bool { return k != 0 && byte(k) == 0 }

// listKey is the key of the list's id k.
func listKey(k int) idKey { return idKey(uint64(k+1) << 8) }

// unpack is the id of a packed key (not a listed one).
func (k idKey) unpack() string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(k))
	n := 8
	for n > 0 && b[n-1] == 0 {
		n--
	}
	return string(b[:n])
}

// Entries are kept in chunks, each of up to chunkLen; an entry's index in
// the tree is its chunk's number in the file times chunkLen plus its
// place in the chunk (indices grow in file order and may skip).
const (
	chunkBits = 12
	chunkLen  = 1 << chunkBits
	chunkMask = chunkLen - 1
)

// entChunk holds consecutive entries of one segment.
type entChunk struct {
	ids []idKey
	// seq has a bit per entry whose parentId is the previous entry's id;
	// parents holds the others' parentIds (0: none), allocated when one
	// has one.
	seq     []uint64
	parents []idKey
	// offs and lines, with keepOffsets: each entry's line offset and
	// index in its segment; lineBase is the segment's first line (merge).
	offs     []int64
	lines    []int32
	lineBase int32
}

// recKind is what the first line of a segment that is an entry or a
// session line at all is (the file's first one must be the header).
type recKind uint8

const (
	recNone recKind = iota
	recSession
	recQuick // an entry read by quickIDBytes
	recEntry // an entry parsed whole
)

// firstRec is a segment's first record; for a session line, its id and
// whether its version is below 2.
type firstRec struct {
	kind      recKind
	id        string
	hasID, v1 bool
}

// treeSeg is a run of consecutive lines of a part: recorded, or a gap (the
// lines starting in [from, to), read by the tree pass when the file turns
// out to have hits).
type treeSeg struct {
	gap      bool
	from, to int64
	n        int32 // lines in the segment (a gap's once filled)
	first    firstRec
	chunks   []*entChunk
	entries  int
	prevID   idKey // the last entry's id
	cur      *entChunk
}

// partTree is what the scan of one part recorded of the tree.
type partTree struct {
	segs []treeSeg
	// listed holds the part's ids that do not pack (idKey).
	listed      []string
	keepOffsets bool
}

// entryRef is where the tree records a hit's line: the part, its segment,
// the line's index there and, for an entry, its chunk in the segment and
// place in the chunk (chunk -1: the line is not an entry).
type entryRef struct {
	part, seg, line int32
	chunk, pos      int32
	ok              bool // recorded
}

// recording returns the segment recorded lines go to, and its index.
func (p *partTree) recording(off int64) (*treeSeg, int32) {
	if k := len(p.segs); k > 0 && !p.segs[k-1].gap {
		return &p.segs[k-1], int32(k - 1)
	}
	p.segs = append(p.segs, treeSeg{from: off})
	return &p.segs[len(p.segs)-1], int32(len(p.segs) - 1)
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

// record adds the line starting at off to seg as the session reader reads
// it; quickOK says it may be read by quickIDBytes. It returns where an
// entry went (chunk -1: the line is not one).
func (p *partTree) record(seg *treeSeg, off int64, line []byte, quickOK bool) (chunk, pos int32) {
	idx := seg.n
	seg.n++
	if quickOK {
		if typ, id, parent, hasParent, ok := quickIDBytes(line); ok && string(typ) != session.TypeSession {
			if seg.first.kind == recNone {
				seg.first.kind = recQuick
			}
			if !hasParent {
				parent = nil
			}
			return p.add(seg, id, parent, off, idx)
		}
	}
	e, err := session.ParseEntryLine(line, 0)
	if err != nil {
		return -1, 0
	}
	if e.Type == session.TypeSession && !e.NotObject {
		if seg.first.kind == recNone {
			v, ok := e.Field("version").Number()
			seg.first = firstRec{kind: recSession, id: strings.Clone(e.ID), hasID: e.HasID, v1: !ok || v < 2}
		}
		return -1, 0
	}
	if seg.first.kind == recNone {
		seg.first.kind = recEntry
	}
	var id, parent []byte
	if e.HasID {
		id = []byte(e.ID)
	}
	if e.HasParent {
		parent = []byte(e.ParentID)
	}
	return p.add(seg, id, parent, off, idx)
}

// key packs an id, listing it when it does not pack.
func (p *partTree) key(b []byte) idKey {
	if k, ok := packID(b); ok {
		return k
	}
	p.listed = append(p.listed, string(b))
	return listKey(len(p.listed) - 1)
}

// add appends an entry (line idx of the segment, starting at off) to seg.
func (p *partTree) add(seg *treeSeg, id, parent []byte, off int64, idx int32) (int32, int32) {
	c := seg.cur
	if c == nil || len(c.ids) == cap(c.ids) {
		size := min(64<<min(len(seg.chunks), chunkBits), chunkLen)
		c = &entChunk{ids: make([]idKey, 0, size), seq: make([]uint64, (size+63)/64)}
		seg.chunks = append(seg.chunks, c)
		seg.cur = c
	}
	pos := len(c.ids)
	c.ids = append(c.ids, p.key(id))
	if len(parent) > 0 {
		pk, packed := packID(parent)
		prev := seg.prevID
		switch {
		case seg.entries > 0 && prev != 0 && (packed && pk == prev || !packed && prev.listed() && p.listed[prev>>8-1] == string(parent)):
			c.seq[pos>>6] |= 1 << (pos & 63)
		default:
			if !packed {
				p.listed = append(p.listed, string(parent))
				pk = listKey(len(p.listed) - 1)
			}
			if c.parents == nil {
				c.parents = make([]idKey, cap(c.ids))
			}
			c.parents[pos] = pk
		}
	}
	if p.keepOffsets {
		c.offs = append(c.offs, off)
		c.lines = append(c.lines, idx)
	}
	seg.prevID = c.ids[pos]
	seg.entries++
	return int32(len(seg.chunks) - 1), int32(pos)
}

// quickIDBytes reads type, id and parentId from a line in the shape Pi
// writes most entries — {"type":"…","id":"…","parentId":null|"…", — that
// ends with "}"; ok is false for any other shape (the caller then parses
// the line properly). Strings with escapes are left to the full parser.
// It runs for every line of a file with hits, so Pi's 8-character ids are
// read as one word each.
func quickIDBytes(line []byte) (typ, id, parent []byte, hasParent, ok bool) {
	const head, idKey, parentKey = `{"type":"`, `,"id":"`, `,"parentId":`
	if len(line) < len(head) || string(line[:len(head)]) != head || line[len(line)-1] != '}' {
		return
	}
	typ, rest, ok := cutPlain(line[len(head):])
	if !ok || len(rest) < len(idKey) || string(rest[:len(idKey)]) != idKey {
		return nil, nil, nil, false, false
	}
	if id, rest, ok = cutID(rest[len(idKey):]); !ok || len(rest) < len(parentKey) || string(rest[:len(parentKey)]) != parentKey {
		return nil, nil, nil, false, false
	}
	switch rest = rest[len(parentKey):]; {
	case len(rest) >= 5 && string(rest[:5]) == "null,":
	case len(rest) > 0 && rest[0] == '"':
		p, after, ok := cutID(rest[1:])
		if !ok || len(after) == 0 || after[0] != ',' {
			return nil, nil, nil, false, false
		}
		parent, hasParent = p, true
	default:
		return nil, nil, nil, false, false
	}
	return typ, id, parent, hasParent, true
}

// cutID is cutPlain, with Pi's ids (8 characters) read in one word.
func cutID(b []byte) (body, rest []byte, ok bool) {
	if len(b) > 8 && b[8] == '"' && specialBytes(binary.LittleEndian.Uint64(b)) == 0 {
		return b[:8], b[9:], true
	}
	return cutPlain(b)
}

// recordLines records the lines of data[from:] that start before end
// (data's lines are complete; bufOff is data[0]'s offset in the file, size
// the file's), noting on hits — those found in data, in order — where
// their lines went.
func (p *partTree) recordLines(data []byte, from int, bufOff, end, size int64, hits []rangeHit) {
	seg, segIdx := p.recording(bufOff + int64(from))
	for from < len(data) {
		if bufOff+int64(from) >= end {
			return
		}
		nl := bytes.IndexByte(data[from:], '\n')
		lineEnd := len(data)
		if nl >= 0 {
			lineEnd = from + nl
		}
		off := bufOff + int64(from)
		idx := seg.n
		chunk, pos := p.record(seg, off, data[from:lineEnd], bufOff+int64(lineEnd) < size)
		for len(hits) > 0 && hits[0].lineOff <= off {
			if hits[0].lineOff == off {
				hits[0].at = entryRef{seg: segIdx, line: idx, chunk: chunk, pos: pos, ok: true}
			}
			hits = hits[1:]
		}
		from = lineEnd + 1
	}
}

// fill reads the gaps of the parts' segments (the tree pass over the
// stretches scanned before the file's first hit), noting where the lines
// of hits (sorted by offset) in them went.
func (s *scanner) fill(ctx context.Context, r io.ReaderAt, size int64, parts []*partTree, hits []rangeHit) error {
	for pi, p := range parts {
		if err := s.fillPart(ctx, r, size, p, int32(pi), hits); err != nil {
			return err
		}
	}
	return nil
}

// fillPart reads the gaps of part pi.
func (s *scanner) fillPart(ctx context.Context, r io.ReaderAt, size int64, p *partTree, pi int32, hits []rangeHit) error {
	for k := range p.segs {
		if p.segs[k].gap {
			if err := s.fillSeg(ctx, r, size, p, pi, int32(k), hits, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// fillSeg reads the lines of gap k of part pi. whole says the segment is
// the whole file: lines are then read quickly only once a first record
// was seen, as the session reader does, and the walk stops at a first
// record that is not a header.
func (s *scanner) fillSeg(ctx context.Context, r io.ReaderAt, size int64, p *partTree, pi, k int32, hits []rangeHit, whole bool) error {
	seg := &p.segs[k]
	from := sort.Search(len(hits), func(i int) bool { return hits[i].lineOff >= seg.from })
	hits = hits[from:]
	err := s.eachLineFrom(ctx, r, size, seg.from, seg.to, func(off int64, line []byte) error {
		idx := seg.n
		chunk, pos := int32(-1), int32(0)
		if line == nil {
			seg.n++ // over the line limit: not an entry
		} else {
			quick := !whole || seg.first.kind != recNone
			chunk, pos = p.record(seg, off, line, quick && off+int64(len(line)) < size)
			if whole && seg.first.kind != recNone && (seg.first.kind != recSession || !seg.first.hasID) {
				return errNotSession
			}
		}
		for len(hits) > 0 && hits[0].lineOff <= off {
			if hits[0].lineOff == off {
				hits[0].at = entryRef{part: pi, seg: k, line: idx, chunk: chunk, pos: pos, ok: true}
			}
			hits = hits[1:]
		}
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
