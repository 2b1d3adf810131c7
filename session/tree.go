package session

import (
	"runtime"
	"sort"
	"sync/atomic"
)

// PathTo returns the indexes of the entries from a root down to the entry
// at index leaf, following parentId like Pi's buildSessionPath. A parent
// cycle (which would hang Pi) is cut where Tree cuts it: the path starts at
// the cycle's first entry in file order.
func (s *Session) PathTo(leaf int) []int {
	if leaf < 0 || leaf >= len(s.Entries) {
		return nil
	}
	// Count first and fill one exact slice: paths are as long as the
	// session is deep, and callers ask for many. A count past the number
	// of entries means a cycle, which the walk below cuts.
	n := 0
	for cur := leaf; cur >= 0 && n <= len(s.Entries); cur = int(s.up[cur]) {
		n++
	}
	if n <= len(s.Entries) {
		path := make([]int, n)
		for k, cur := n-1, leaf; k >= 0; k-- {
			path[k] = cur
			cur = int(s.up[cur])
		}
		return path
	}
	var seen []uint64
	var path []int
	for cur := leaf; ; {
		path = append(path, cur)
		e := &s.Entries[cur]
		if !e.HasParent || e.ParentID == "" || s.parent[cur] < 0 {
			break
		}
		next := int(s.parent[cur])
		if len(path) > 64 { // only long walks can hide a cycle worth tracking
			if seen == nil {
				seen = make([]uint64, (len(s.Entries)+63)/64)
				for _, p := range path {
					seen[p/64] |= 1 << (p % 64)
				}
			}
			if seen[next/64]&(1<<(next%64)) != 0 {
				path = cutCycle(path, next)
				break
			}
			seen[next/64] |= 1 << (next % 64)
		} else if containsInt(path, next) {
			path = cutCycle(path, next)
			break
		}
		cur = next
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// cutCycle ends a leaf-to-root walk that came back to repeat (already on
// path) at the cycle's first entry in file order, as Tree.breakCycles does.
func cutCycle(path []int, repeat int) []int {
	k := len(path) - 1
	for path[k] != repeat {
		k--
	}
	first := k
	for j := k; j < len(path); j++ {
		if path[j] < path[first] {
			first = j
		}
	}
	return path[:first+1]
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// LeafIndexByID resolves a leaf id like Pi's buildSessionPath: a known id
// gives its entry; an unknown or empty id falls back to the last entry.
// The second result reports whether the id itself was found.
func (s *Session) LeafIndexByID(id string) (int, bool) {
	if id != "" {
		if i, ok := s.byID[id]; ok {
			return i, true
		}
	}
	return s.LeafIndex(), false
}

// Tree is the entry forest of a session (Pi's getTree): roots in file order
// and children sorted by timestamp, oldest first (a stable sort, so equal or
// unparsable timestamps keep file order).
type Tree struct {
	// Roots lists root entries: parentId null/absent, equal to the entry's
	// own id, or unknown (orphans) — in file order.
	Roots []int
	// Orphans lists the roots whose parentId names an unknown entry.
	Orphans []int
	// SelfParents lists the roots whose parentId is their own id.
	SelfParents []int
	// Parent maps an entry index to its parent index (-1 for roots).
	Parent []int32
	// CycleBreaks lists, in file order, one entry of each parentId cycle:
	// the first of the cycle in file order, shown as a root with its parent
	// link cut. (Pi's tree leaves a cycle and everything below it out; here
	// every entry of the file appears once.)
	CycleBreaks []int

	childStart []int32 // CSR layout: children of i are childList[childStart[i]:childStart[i+1]]
	childList  []int32
}

// Children returns the child indexes of entry i in timestamp order.
func (t *Tree) Children(i int) []int32 {
	if i < 0 || i+1 >= len(t.childStart) {
		return nil
	}
	return t.childList[t.childStart[i]:t.childStart[i+1]]
}

// Leaves returns every entry without children in file order: the tips of
// all branches.
func (t *Tree) Leaves() []int {
	var out []int
	for i := 0; i+1 < len(t.childStart); i++ {
		if t.childStart[i] == t.childStart[i+1] {
			out = append(out, i)
		}
	}
	return out
}

// Tree builds the entry forest.
func (s *Session) Tree() *Tree {
	n := len(s.Entries)
	t := &Tree{Parent: make([]int32, n), childStart: make([]int32, n+1)}
	for i := range s.Entries {
		if i&8191 == 8191 {
			runtime.Gosched() // the Session panel builds this beside other work: let a key frame in
		}
		e := &s.Entries[i]
		t.Parent[i] = -1
		if !e.HasParent || (e.HasID && e.ParentID == e.ID) {
			t.Roots = append(t.Roots, i)
			if e.HasParent {
				t.SelfParents = append(t.SelfParents, i)
			}
			continue
		}
		p := int(s.parent[i])
		if p < 0 || p == i {
			t.Roots = append(t.Roots, i)
			t.Orphans = append(t.Orphans, i)
			continue
		}
		t.Parent[i] = int32(p)
		t.childStart[p+1]++
	}
	t.breakCycles()
	for i := 1; i <= n; i++ {
		t.childStart[i] += t.childStart[i-1]
	}
	t.childList = make([]int32, t.childStart[n])
	fill := make([]int32, n)
	for i := 0; i < n; i++ {
		if p := t.Parent[i]; p >= 0 {
			t.childList[t.childStart[p]+fill[p]] = int32(i)
			fill[p]++
		}
	}
	ms := make([]float64, n)
	for i := range s.Entries {
		ms[i] = s.Entries[i].timestampMs
	}
	for p := 0; p < n; p++ {
		kids := t.childList[t.childStart[p]:t.childStart[p+1]]
		if len(kids) > 1 {
			sortByTimestamp(kids, ms)
		}
	}
	return t
}

// breakCycles finds the entries that no root reaches — those on a parentId
// cycle and those hanging below one — and cuts each cycle at its first entry
// in file order, which becomes a root. Each entry is walked once (O(n)).
// It runs before the child lists are laid out; childStart holds counts.
func (t *Tree) breakCycles() {
	const (
		unvisited = iota
		onWalk
		done
	)
	state := make([]uint8, len(t.Parent))
	var walk []int
	for i := range t.Parent {
		walk = walk[:0]
		cur := i
		for cur >= 0 && state[cur] == unvisited {
			state[cur] = onWalk
			walk = append(walk, cur)
			cur = int(t.Parent[cur])
		}
		if cur >= 0 && state[cur] == onWalk {
			// cur is on this walk: walk[k:] is the cycle.
			k := len(walk) - 1
			for walk[k] != cur {
				k--
			}
			first := cur
			for _, c := range walk[k:] {
				first = min(first, c)
			}
			t.childStart[t.Parent[first]+1]--
			t.Parent[first] = -1
			t.CycleBreaks = append(t.CycleBreaks, first)
		}
		for _, w := range walk {
			state[w] = done
		}
	}
	if len(t.CycleBreaks) > 0 {
		sort.Ints(t.CycleBreaks)
		t.Roots = append(t.Roots, t.CycleBreaks...)
		sort.Ints(t.Roots)
	}
}

// sortByTimestamp sorts children by ms ascending like V8's Array.prototype.sort
// with the comparator (a, b) => ms(a) - ms(b). Without unparsable (NaN)
// timestamps any stable sort agrees with V8; with them the comparator is
// inconsistent, so short arrays use V8's binary insertion sort to get the
// same order (V8 sorts runs of up to 64 elements that way).
func sortByTimestamp(kids []int32, ms []float64) {
	hasNaN := false
	for _, k := range kids {
		if ms[k] != ms[k] {
			hasNaN = true
			break
		}
	}
	if !hasNaN || len(kids) > 64 {
		sort.SliceStable(kids, func(a, b int) bool { return ms[kids[a]] < ms[kids[b]] })
		return
	}
	for i := 1; i < len(kids); i++ {
		pivot := kids[i]
		left, right := 0, i
		for left < right {
			mid := left + (right-left)/2
			if ms[pivot]-ms[kids[mid]] < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(kids[left+1:i+1], kids[left:i])
		kids[left] = pivot
	}
}

// BranchPaths is what the contexts a caller builds on one session share:
// the paths to entries of one branch, handed out as prefixes of the path
// to its deepest entry (each path to a long branch's entry is as long as
// the session is deep, and predicting cache drops asks for ten; the
// prefixes are capped, so appending to one copies it), and the message
// entries' decoded bodies, decoded once for every context that holds them
// (the two requests around a cache break share all but their last turns).
// A nil *BranchPaths, or an entry off the branch, gets PathTo's own path
// and decodes every body again. Its contexts may be built concurrently;
// they share the decoded messages, which nothing downstream modifies
// (every rewrite of a message copies it first).
type BranchPaths struct {
	path     []int
	at       []int32 // at[i]: entry i's position on path, -1 off it
	messages []atomic.Pointer[any]
}

// NewBranchPaths shares the path to leaf (when that path is the plain
// chain of parents that a prefix can stand for: no cycle cut short, no
// missing parent) and the decoded messages of s's entries.
func NewBranchPaths(s *Session, leaf int) *BranchPaths {
	b := &BranchPaths{messages: make([]atomic.Pointer[any], len(s.Entries))}
	path := s.PathTo(leaf)
	if len(path) == 0 || s.up[path[0]] >= 0 {
		return b
	}
	for k := 1; k < len(path); k++ {
		if int(s.up[path[k]]) != path[k-1] {
			return b
		}
	}
	b.path = path
	b.at = make([]int32, len(s.Entries))
	for i := range b.at {
		b.at[i] = -1
	}
	for k, i := range path {
		b.at[i] = int32(k)
	}
	return b
}

// Decode decodes, on every core, the message bodies of the context at the
// branch's deepest entry, which the contexts built next on the branch
// share (a body that fails to decode is left for the context that needs
// it, which says why).
func (b *BranchPaths) Decode(s *Session) {
	if b == nil || len(b.path) == 0 {
		return
	}
	ctx := s.ContextEntries(b.path)
	const chunk = 256
	inParallel((len(ctx)+chunk-1)/chunk, func(j int) {
		for _, i := range ctx[j*chunk : min(len(ctx), (j+1)*chunk)] {
			if e := &s.Entries[i]; e.Type == TypeMessage && !e.MessageRaw().Nullish() {
				_, _ = b.message(s, i)
			}
		}
	})
}

// message is the decoded message of the message entry at index i,
// decoded at most once per BranchPaths (nil b: every time).
func (b *BranchPaths) message(s *Session, i int) (any, error) {
	if b == nil {
		return s.Entries[i].MessageValue()
	}
	if v := b.messages[i].Load(); v != nil {
		return *v, nil
	}
	v, err := s.Entries[i].MessageValue()
	if err != nil {
		return nil, err
	}
	b.messages[i].Store(&v)
	return v, nil
}

// to returns the path to leaf: a prefix of the branch's when leaf is on
// it (the branch is a plain chain of parents from a root, so the path to
// any entry on it is the prefix ending there), else s.PathTo(leaf).
func (b *BranchPaths) to(s *Session, leaf int) []int {
	if b == nil || b.at == nil || leaf < 0 || leaf >= len(s.Entries) || b.at[leaf] < 0 {
		return s.PathTo(leaf)
	}
	n := int(b.at[leaf]) + 1
	return b.path[:n:n]
}
