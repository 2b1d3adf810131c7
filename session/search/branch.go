package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"sort"

	"github.com/forgebench/forgebench/session"
)

// errNotSession stops the tree pass over a file that is not a Pi session.
var errNotSession = errors.New("not a Pi session (the first entry is not a session header)")

// treeInfo is what one pass over a file with hits learns: the header and
// the entry forest, to place each hit on the active branch or an abandoned
// one (spec §6). Entries are kept in file order, with the same rules as
// the session reader: blank, malformed and falsy lines are not entries,
// later "session" lines are not entries, the last duplicate of an id wins.
type treeInfo struct {
	sessionID string
	v1        bool // no ids in the file: ids come from the reader's migration
	offs      []int64
	lines     []int32
	ids       []string
	parent    []int32
	active    []bool
}

// readTree makes the whole tree pass over r[0:size), for a file whose
// scan recorded nothing (a cached result, a line read quickly before the
// header).
func (s *scanner) readTree(ctx context.Context, r io.ReaderAt, size int64) (*treeInfo, error) {
	p := &partTree{segs: []treeSeg{{gap: true, from: 0, to: size}}}
	if err := s.fillSeg(ctx, r, size, p, &p.segs[0], true); err != nil {
		return nil, err
	}
	return merge([]*partTree{p})
}

// quickIDs reads type, id and parentId from a line that starts the way Pi
// writes most entries — {"type":"…","id":"…","parentId":null|"…", — and
// ends with "}"; ok is false for any other shape (the caller then parses
// the line properly). Strings with escapes are left to the full parser.
func quickIDs(line []byte) (typ, id, parent string, hasParent, ok bool) {
	t, i, p, hp, ok := quickIDBytes(line)
	return string(t), string(i), string(p), hp, ok
}

// cutPlain splits at the closing quote of a string body without escapes.
func cutPlain(b []byte) (body, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '"')
	if i < 0 || bytes.IndexByte(b[:i], '\\') >= 0 {
		return nil, nil, false
	}
	for _, c := range b[:i] {
		if c < 0x20 {
			return nil, nil, false
		}
	}
	return b[:i], b[i+1:], true
}

// link resolves parents (eachParent calls visit with each entry's
// parentId, and whether it has one, in entry order) and marks the active
// branch: from the last entry
// in file order up through parentId to a root, stopping at a missing
// parent or a cycle, as session.PathTo does.
func (t *treeInfo) link(eachParent func(visit func(parent string, ok bool))) {
	n := len(t.ids)
	t.parent = make([]int32, n)
	t.active = make([]bool, n)
	if t.v1 {
		for i := range t.parent {
			t.parent[i] = int32(i) - 1 // v1 files are a list (migration chains them)
		}
	} else {
		byID := newIDIndex(t.ids)
		i := 0
		eachParent(func(p string, ok bool) {
			t.parent[i] = -1
			switch {
			case !ok || p == "":
			case !byID.dups && i > 0 && t.ids[i-1] == p:
				// Most entries follow their parent: with no id written
				// twice, the previous entry is the one the index holds.
				t.parent[i] = int32(i) - 1
			default:
				t.parent[i] = byID.get(p)
			}
			i++
		})
	}
	// Walk up from the leaf; a walk that comes back to an entry met a
	// cycle, which is cut at the cycle's first entry in file order (as
	// session.PathTo cuts it).
	var path []int32
	for cur := int32(n) - 1; cur >= 0; cur = t.parent[cur] {
		if t.active[cur] {
			k := len(path) - 1
			for path[k] != cur {
				k--
			}
			first := k
			for j := k; j < len(path); j++ {
				if path[j] < path[first] {
					first = j
				}
			}
			for _, i := range path[first+1:] {
				t.active[i] = false
			}
			break
		}
		t.active[cur] = true
		path = append(path, cur)
	}
}

// idIndex finds an entry by id: the last one in file order with that id,
// as the reader's index keeps it. It is an open-addressing table of entry
// indices over the ids themselves — a session of many small entries has
// 150,000 ids per 100 MB, and a Go map of them cost a third of placing a
// file's hits.
type idIndex struct {
	ids   []string
	slots []int32 // entry index + 1; 0 is empty
	mask  uint64
	seed  maphash.Seed
	// dups is true when some id is written more than once.
	dups bool
}

func newIDIndex(ids []string) *idIndex {
	size := uint64(16)
	for size < 2*uint64(len(ids)) {
		size *= 2
	}
	x := &idIndex{ids: ids, slots: make([]int32, size), mask: size - 1, seed: maphash.MakeSeed()}
	for i, id := range ids {
		h := maphash.String(x.seed, id) & x.mask
		for {
			s := x.slots[h]
			if s == 0 || ids[s-1] == id {
				x.dups = x.dups || s != 0
				x.slots[h] = int32(i) + 1 // a later duplicate wins
				break
			}
			h = (h + 1) & x.mask
		}
	}
	return x
}

// get returns the index of the last entry with the id, or -1.
func (x *idIndex) get(id string) int32 {
	h := maphash.String(x.seed, id) & x.mask
	for {
		s := x.slots[h]
		if s == 0 {
			return -1
		}
		if x.ids[s-1] == id {
			return s - 1
		}
		h = (h + 1) & x.mask
	}
}

// entryAt returns the index of the entry whose line starts at off.
func (t *treeInfo) entryAt(off int64) (int, bool) {
	i := sort.Search(len(t.offs), func(k int) bool { return t.offs[k] >= off })
	return i, i < len(t.offs) && t.offs[i] == off
}

// place tells whether entry i is on the active branch and, when it is
// not, which abandoned branch holds it: the id of the branch's first entry
// (the one whose parent is on the active branch, or its root) and the id of
// the active entry it leaves from ("" for a separate root).
func (t *treeInfo) place(i int) (active bool, branch, fork string) {
	if t.active[i] {
		return true, "", ""
	}
	top := i
	for steps := 0; steps <= len(t.parent); steps++ {
		p := t.parent[top]
		if p < 0 {
			return false, t.ids[top], ""
		}
		if t.active[p] {
			return false, t.ids[top], t.ids[p]
		}
		top = int(p)
	}
	return false, t.ids[top], "" // a cycle off the active branch
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
