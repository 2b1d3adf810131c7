package search

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"math/rand/v2"
	"sort"

	"github.com/forgebench/forgebench/session"
)

// errNotSession stops the tree pass over a file that is not a Pi session.
var errNotSession = errors.New("not a Pi session (the first entry is not a session header)")

// treeInfo is the header and the entry forest of a file with hits, to
// place each hit on the active branch or an abandoned one (spec §6).
// Entries are in file order, with the same rules as the session reader
// (see treelines.go); an entry is known by its index (chunk number times
// chunkLen plus its place in the chunk).
type treeInfo struct {
	sessionID string
	v1        bool // no ids in the file: ids come from the reader's migration
	chunks    []*entChunk
	entries   int
	// listed holds the ids that do not pack (idKey), each once.
	listed []string
	// segBase is, per part and segment, the number of its first chunk and
	// its first line (0-based), for the entryRefs noted on hits.
	segBase [][]segBase
	// offsets: the chunks hold each entry's offset (entryAt works).
	offsets bool
	index   idIndex
	leaf    int32 // the last entry (-1: none)
	active  bitset
}

type segBase struct{ chunk, line int32 }

// readTree makes the whole tree pass over r[0:size), noting where the
// lines of hits (sorted by offset) are; keep records offsets for the cache.
func (s *scanner) readTree(ctx context.Context, r io.ReaderAt, size int64, hits []rangeHit, keep bool) (*treeInfo, error) {
	for i := range hits {
		hits[i].at = entryRef{}
	}
	p := &partTree{segs: []treeSeg{{gap: true, from: 0, to: size}}, keepOffsets: keep}
	if err := s.fillSeg(ctx, r, size, p, 0, 0, hits, true); err != nil {
		return nil, err
	}
	return merge([]*partTree{p})
}

// quickIDs is quickIDBytes as strings.
func quickIDs(line []byte) (typ, id, parent string, hasParent, ok bool) {
	t, i, p, hp, ok := quickIDBytes(line)
	return string(t), string(i), string(p), hp, ok
}

// cutPlain splits at the closing quote of a string body without escapes
// or control characters.
func cutPlain(b []byte) (body, rest []byte, ok bool) {
	var i int
	if len(b) >= 16 {
		// Most are short (a type, an 8-character id): two words, no call.
		if m := specialBytes(binary.LittleEndian.Uint64(b)); m != 0 {
			i = bits.TrailingZeros64(m) / 8
		} else if m := specialBytes(binary.LittleEndian.Uint64(b[8:])); m != 0 {
			i = 8 + bits.TrailingZeros64(m)/8
		} else {
			i = 16 + plainEnd(b[16:])
		}
	} else {
		i = plainEnd(b)
	}
	if i == len(b) || b[i] != '"' {
		return nil, nil, false
	}
	return b[:i], b[i+1:], true
}

// merge builds the tree from the parts' segments, in file order: the
// first record must be the header; the entries' chunks are listed in
// order, their listed ids made the tree's, and the tree linked.
func merge(parts []*partTree) (*treeInfo, error) {
	t := &treeInfo{leaf: -1, segBase: make([][]segBase, len(parts))}
	haveHeader := false
	line := int32(0)
	var listed map[string]idKey
	for pi, p := range parts {
		t.offsets = p.keepOffsets
		t.segBase[pi] = make([]segBase, len(p.segs))
		for k := range p.segs {
			seg := &p.segs[k]
			if !haveHeader && seg.first.kind != recNone {
				switch {
				case seg.first.kind == recQuick:
					return nil, errQuickBeforeHeader
				case seg.first.kind != recSession || !seg.first.hasID:
					return nil, errNotSession
				}
				haveHeader = true
				t.sessionID, t.v1 = seg.first.id, seg.first.v1
			}
			t.segBase[pi][k] = segBase{chunk: int32(len(t.chunks)), line: line}
			for _, c := range seg.chunks {
				c.lineBase = line
				if len(p.listed) > 0 {
					if listed == nil {
						listed = map[string]idKey{}
					}
					t.relist(c, p.listed, listed)
				}
			}
			t.chunks = append(t.chunks, seg.chunks...)
			t.entries += seg.entries
			line += seg.n
		}
	}
	if !haveHeader {
		return nil, errNotSession
	}
	if n := len(t.chunks); n > 0 {
		t.leaf = int32((n-1)<<chunkBits | (len(t.chunks[n-1].ids) - 1))
	}
	t.link()
	return t, nil
}

// relist turns a chunk's keys into the part's listed ids into keys into
// the tree's list, where each id is once.
func (t *treeInfo) relist(c *entChunk, from []string, seen map[string]idKey) {
	move := func(k idKey) idKey {
		if !k.listed() {
			return k
		}
		id := from[k>>8-1]
		if nk, ok := seen[id]; ok {
			return nk
		}
		nk := listKey(len(t.listed))
		t.listed = append(t.listed, id)
		seen[id] = nk
		return nk
	}
	for i, k := range c.ids {
		c.ids[i] = move(k)
	}
	for i, k := range c.parents {
		c.parents[i] = move(k)
	}
}

// id is the id of an entry.
func (t *treeInfo) id(i int32) string {
	k := t.key(i)
	if k.listed() {
		return t.listed[k>>8-1]
	}
	return k.unpack()
}

func (t *treeInfo) key(i int32) idKey { return t.chunks[i>>chunkBits].ids[i&chunkMask] }

// prev is the entry before i in file order (-1: none).
func (t *treeInfo) prev(i int32) int32 {
	if i&chunkMask > 0 {
		return i - 1
	}
	c := i >> chunkBits
	if c == 0 {
		return -1
	}
	return (c-1)<<chunkBits | int32(len(t.chunks[c-1].ids)-1)
}

// parent is the entry i's parentId names (-1: none, or not found): the
// last entry with that id, as the reader's index keeps it; in a v1 file,
// the previous entry (the migration chains them).
func (t *treeInfo) parent(i int32) int32 {
	if t.v1 {
		return t.prev(i)
	}
	c, pos := t.chunks[i>>chunkBits], i&chunkMask
	if c.seq[pos>>6]>>(pos&63)&1 != 0 {
		p := t.prev(i)
		if !t.index.dup.has(p) {
			return p // its id is written once: the previous entry is the one with it
		}
		return t.index.get(t, t.key(p))
	}
	if c.parents == nil || c.parents[pos] == 0 {
		return -1
	}
	return t.index.get(t, c.parents[pos])
}

func (t *treeInfo) isActive(i int32) bool { return t.active.has(i) }

func (t *treeInfo) setActive(i int32, on bool) { t.active.set(i, on) }

// bitset is a bit per entry index.
type bitset []uint64

func newBitset(chunks int) bitset { return make(bitset, (chunks<<chunkBits+63)/64) }

func (b bitset) has(i int32) bool { return b[i>>6]>>(i&63)&1 != 0 }

func (b bitset) set(i int32, on bool) {
	if on {
		b[i>>6] |= 1 << (i & 63)
	} else {
		b[i>>6] &^= 1 << (i & 63)
	}
}

// link indexes the ids and marks the active branch: from the last entry
// in file order up through parentId to a root, stopping at a missing
// parent or a cycle, as session.PathTo does. A walk that comes back to an
// entry met a cycle, which is cut at the cycle's first entry in file
// order (as session.PathTo cuts it): the entries after it on the walk are
// not active.
func (t *treeInfo) link() {
	t.active = newBitset(len(t.chunks))
	if !t.v1 {
		t.index.build(t)
	}
	for cur := t.leaf; cur >= 0; cur = t.parent(cur) {
		if !t.isActive(cur) {
			t.setActive(cur, true)
			continue
		}
		first := cur
		for x := t.parent(cur); x != cur; x = t.parent(x) {
			first = min(first, x)
		}
		for x := t.parent(first); x != cur; x = t.parent(x) {
			t.setActive(x, false)
		}
		break
	}
}

// idIndex finds an entry by id: the last one in file order with that id,
// as the reader's index keeps it. It is an open-addressing table of entry
// indices, keyed by the packed ids themselves (4 bytes a slot).
type idIndex struct {
	slots []int32 // entry index + 1; 0 is empty
	mask  uint64
	seed  uint64
	// dup marks the entries whose id is written more than once.
	dup bitset
}

func (x *idIndex) hash(k idKey) uint64 {
	h := uint64(k) ^ x.seed
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h & x.mask
}

// build indexes every entry with an id (the empty id is never looked up).
func (x *idIndex) build(t *treeInfo) {
	size := uint64(16)
	for size*3 < 4*uint64(t.entries) {
		size *= 2
	}
	x.slots, x.mask, x.seed = make([]int32, size), size-1, rand.Uint64()
	x.dup = newBitset(len(t.chunks))
	for c, ch := range t.chunks {
		for pos, k := range ch.ids {
			if k == 0 {
				continue
			}
			i := int32(c<<chunkBits | pos)
			for h := x.hash(k); ; h = (h + 1) & x.mask {
				s := x.slots[h]
				if s == 0 || t.key(s-1) == k {
					if s != 0 {
						x.dup.set(s-1, true)
						x.dup.set(i, true)
					}
					x.slots[h] = i + 1 // a later duplicate wins
					break
				}
			}
		}
	}
}

// get returns the last entry with the id, or -1.
func (x *idIndex) get(t *treeInfo, k idKey) int32 {
	for h := x.hash(k); ; h = (h + 1) & x.mask {
		s := x.slots[h]
		if s == 0 {
			return -1
		}
		if t.key(s-1) == k {
			return s - 1
		}
	}
}

// locate returns the entry of a hit and its line number (1-based): from
// where the scan recorded its line, or by its offset in a tree that keeps
// offsets. ok is false when the line is not an entry of the session (e.g.
// a second header).
func (t *treeInfo) locate(h *rangeHit) (i int32, line int, ok bool, err error) {
	if h.at.ok {
		if h.at.chunk < 0 {
			return 0, 0, false, nil
		}
		b := t.segBase[h.at.part][h.at.seg]
		return (b.chunk+h.at.chunk)<<chunkBits | h.at.pos, int(b.line+h.at.line) + 1, true, nil
	}
	if !t.offsets {
		return 0, 0, false, fmt.Errorf("the tree pass did not record the line at %d", h.lineOff)
	}
	c := sort.Search(len(t.chunks), func(k int) bool {
		offs := t.chunks[k].offs
		return offs[len(offs)-1] >= h.lineOff
	})
	if c == len(t.chunks) {
		return 0, 0, false, nil
	}
	ch := t.chunks[c]
	pos := sort.Search(len(ch.offs), func(k int) bool { return ch.offs[k] >= h.lineOff })
	if ch.offs[pos] != h.lineOff {
		return 0, 0, false, nil
	}
	return int32(c<<chunkBits | pos), int(ch.lineBase+ch.lines[pos]) + 1, true, nil
}

// place tells whether entry i is on the active branch and, when it is
// not, which abandoned branch holds it: the id of the branch's first entry
// (the one whose parent is on the active branch, or its root) and the id of
// the active entry it leaves from ("" for a separate root).
func (t *treeInfo) place(i int32) (active bool, branch, fork string) {
	if t.isActive(i) {
		return true, "", ""
	}
	top := i
	for steps := 0; steps <= t.entries; steps++ {
		p := t.parent(top)
		if p < 0 {
			return false, t.id(top), ""
		}
		if t.isActive(p) {
			return false, t.id(top), t.id(p)
		}
		top = p
	}
	return false, t.id(top), "" // a cycle off the active branch
}

// v1IDs returns the ids the reader's migration gives a v1 file's entries,
// by line number.
func v1IDs(path string) (map[int32]string, error) {
	s, err := session.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read v1 session for its entry ids: %w", err)
	}
	ids := make(map[int32]string, len(s.Entries))
	for i := range s.Entries {
		ids[int32(s.Entries[i].Line)] = s.Entries[i].ID
	}
	return ids, nil
}
