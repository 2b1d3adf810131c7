package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

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

// readTree makes the pass over r[0:size).
func (s *scanner) readTree(ctx context.Context, r io.ReaderAt, size int64) (*treeInfo, error) {
	t := &treeInfo{}
	var parentIDs []string
	var hasParent []bool
	haveHeader := false
	lineNo := int32(0)
	err := s.eachLine(ctx, r, size, func(off int64, line []byte) error {
		lineNo++
		if line == nil {
			return nil // over the line limit: skipped like the reader does
		}
		if haveHeader && off+int64(len(line)) < size {
			// Lines Pi writes start with type, id and parentId; they are
			// read without decoding the rest. (The last line is always
			// checked whole: a file being written may end in half a line.)
			if typ, id, parent, hasP, ok := quickIDs(line); ok {
				if typ != session.TypeSession {
					t.offs = append(t.offs, off)
					t.lines = append(t.lines, lineNo)
					t.ids = append(t.ids, id)
					parentIDs = append(parentIDs, parent)
					hasParent = append(hasParent, hasP)
				}
				return nil
			}
		}
		e, err := session.ParseEntryLine(line, int(lineNo))
		if err != nil {
			return nil
		}
		if !haveHeader {
			if e.NotObject || e.Type != session.TypeSession || !e.HasID {
				return errNotSession
			}
			haveHeader = true
			t.sessionID = strings.Clone(e.ID)
			v, ok := e.Field("version").Number()
			t.v1 = !ok || v < 2
			return nil
		}
		if e.Type == session.TypeSession && !e.NotObject {
			return nil
		}
		t.offs = append(t.offs, off)
		t.lines = append(t.lines, lineNo)
		id := ""
		if e.HasID {
			id = strings.Clone(e.ID)
		}
		t.ids = append(t.ids, id)
		parentIDs = append(parentIDs, strings.Clone(e.ParentID))
		hasParent = append(hasParent, e.HasParent)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !haveHeader {
		return nil, errNotSession
	}
	t.link(parentIDs, hasParent)
	return t, nil
}

// quickIDs reads type, id and parentId from a line that starts the way Pi
// writes most entries — {"type":"…","id":"…","parentId":null|"…", — and
// ends with "}"; ok is false for any other shape (the caller then parses
// the line properly). Strings with escapes are left to the full parser.
func quickIDs(line []byte) (typ, id, parent string, hasParent, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte(`{"type":"`))
	if !found || len(line) < 2 || line[len(line)-1] != '}' {
		return
	}
	typB, rest, ok1 := cutPlain(rest)
	rest, found = bytes.CutPrefix(rest, []byte(`,"id":"`))
	if !ok1 || !found {
		return
	}
	idB, rest, ok2 := cutPlain(rest)
	rest, found = bytes.CutPrefix(rest, []byte(`,"parentId":`))
	if !ok2 || !found {
		return
	}
	switch {
	case bytes.HasPrefix(rest, []byte("null,")):
	case len(rest) > 0 && rest[0] == '"':
		pB, after, ok3 := cutPlain(rest[1:])
		if !ok3 || len(after) == 0 || after[0] != ',' {
			return
		}
		parent, hasParent = string(pB), true
	default:
		return
	}
	return string(typB), string(idB), parent, hasParent, true
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

// link resolves parents and marks the active branch: from the last entry
// in file order up through parentId to a root, stopping at a missing
// parent or a cycle, as session.PathTo does.
func (t *treeInfo) link(parentIDs []string, hasParent []bool) {
	n := len(t.ids)
	byID := make(map[string]int32, n)
	for i, id := range t.ids {
		if id != "" || !t.v1 {
			byID[id] = int32(i)
		}
	}
	t.parent = make([]int32, n)
	t.active = make([]bool, n)
	for i := range t.ids {
		t.parent[i] = -1
		switch {
		case t.v1:
			t.parent[i] = int32(i) - 1 // v1 files are a list (migration chains them)
		case hasParent[i] && parentIDs[i] != "":
			if p, ok := byID[parentIDs[i]]; ok {
				t.parent[i] = p
			}
		}
	}
	// Walk up from the leaf; a walk that comes back to an entry met a
	// cycle, which is cut at the cycle's first entry in file order (as
	// session.PathTo cuts it).
	var path []int
	for cur := n - 1; cur >= 0; cur = int(t.parent[cur]) {
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
