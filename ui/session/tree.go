package session

// treeRow is one visible line of the branch tree.
type treeRow struct {
	idx int
	// prefix is the drawing before the entry: gutters and ├─/└─ connectors.
	prefix string
	// kids is the number of children (folded rows hide them).
	kids int
}

// treeView is the flattened, foldable branch tree with Pi's /tree habits:
// indentation only where the conversation branches, the branch holding
// the active leaf first, folded subtrees hidden.
type treeView struct {
	rows   []treeRow
	folded map[int]bool
	// rowOf maps entry index → row (-1 when hidden by a fold).
	rowOf  []int
	cursor int
	offset int
}

// rebuild flattens ls into rows honouring folds. It is O(entries) and runs
// on load and on fold/unfold, never per frame.
func (tv *treeView) rebuild(ls *loadedSession) {
	if tv.folded == nil {
		tv.folded = map[int]bool{}
	}
	n := len(ls.rows)
	tv.rows = tv.rows[:0]
	if cap(tv.rowOf) < n {
		tv.rowOf = make([]int, n)
	}
	tv.rowOf = tv.rowOf[:n]
	for i := range tv.rowOf {
		tv.rowOf[i] = -1
	}
	type item struct {
		idx        int
		base, conn string
	}
	roots := ls.tree.Roots
	ordered := activeFirst(ls, toInt32(roots))
	stack := make([]item, 0, 64)
	multi := len(ordered) > 1
	for i := len(ordered) - 1; i >= 0; i-- {
		conn := ""
		if multi {
			conn = connector(i == len(ordered)-1)
		}
		stack = append(stack, item{idx: int(ordered[i]), conn: conn})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.idx < 0 || it.idx >= n || tv.rowOf[it.idx] >= 0 {
			continue // defensive: a malformed forest must not loop
		}
		kids := ls.tree.Children(it.idx)
		tv.rowOf[it.idx] = len(tv.rows)
		tv.rows = append(tv.rows, treeRow{idx: it.idx, prefix: it.base + it.conn, kids: len(kids)})
		if tv.folded[it.idx] || len(kids) == 0 {
			continue
		}
		childBase := it.base
		switch it.conn {
		case connMid:
			childBase += "│  "
		case connLast:
			childBase += "   "
		}
		ordered := activeFirst(ls, kids)
		for k := len(ordered) - 1; k >= 0; k-- {
			conn := ""
			if len(ordered) > 1 {
				conn = connector(k == len(ordered)-1)
			}
			stack = append(stack, item{idx: int(ordered[k]), base: childBase, conn: conn})
		}
	}
	tv.cursor = clamp(tv.cursor, 0, len(tv.rows)-1)
}

const (
	connMid  = "├─ "
	connLast = "└─ "
)

func connector(last bool) string {
	if last {
		return connLast
	}
	return connMid
}

func toInt32(xs []int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

// activeFirst orders siblings so the one on the active path comes first,
// keeping the tree's timestamp order otherwise.
func activeFirst(ls *loadedSession, kids []int32) []int32 {
	for i, k := range kids {
		if int(k) < len(ls.active) && ls.active[k] {
			if i == 0 {
				return kids
			}
			out := make([]int32, 0, len(kids))
			out = append(out, k)
			out = append(out, kids[:i]...)
			return append(out, kids[i+1:]...)
		}
	}
	return kids
}

// current is the entry index under the cursor (-1 when empty).
func (tv *treeView) current() int {
	if tv.cursor < 0 || tv.cursor >= len(tv.rows) {
		return -1
	}
	return tv.rows[tv.cursor].idx
}

// moveTo puts the cursor on entry idx, unfolding its ancestors if needed.
func (tv *treeView) moveTo(ls *loadedSession, idx int) {
	if idx < 0 || idx >= len(tv.rowOf) {
		return
	}
	if tv.rowOf[idx] < 0 {
		changed := false
		for p, steps := int(ls.tree.Parent[idx]), 0; p >= 0 && steps < len(tv.rowOf); p, steps = int(ls.tree.Parent[p]), steps+1 {
			if tv.folded[p] {
				delete(tv.folded, p)
				changed = true
			}
		}
		if changed {
			tv.rebuild(ls)
		}
	}
	if r := tv.rowOf[idx]; r >= 0 {
		tv.cursor = r
	}
}

// fold folds the subtree under the cursor; on a leaf or an already folded
// row it jumps to the nearest branch point above (Pi's ← habit).
func (tv *treeView) fold(ls *loadedSession) {
	idx := tv.current()
	if idx < 0 {
		return
	}
	if tv.rows[tv.cursor].kids > 0 && !tv.folded[idx] {
		tv.folded[idx] = true
		tv.rebuild(ls)
		tv.moveTo(ls, idx)
		return
	}
	for p, steps := int(ls.tree.Parent[idx]), 0; p >= 0 && steps < len(tv.rowOf); p, steps = int(ls.tree.Parent[p]), steps+1 {
		if len(ls.tree.Children(p)) > 1 || ls.tree.Parent[p] < 0 {
			tv.moveTo(ls, p)
			return
		}
	}
}

// unfold opens a folded row; on an open row it steps to its first child.
func (tv *treeView) unfold(ls *loadedSession) {
	idx := tv.current()
	if idx < 0 {
		return
	}
	if tv.folded[idx] {
		delete(tv.folded, idx)
		tv.rebuild(ls)
		tv.moveTo(ls, idx)
		return
	}
	if tv.rows[tv.cursor].kids > 0 && tv.cursor+1 < len(tv.rows) {
		tv.cursor++
	}
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// follow puts the cursor on entry idx when it is visible; unlike moveTo it
// never unfolds, so it is cheap enough for every timeline keypress.
func (tv *treeView) follow(idx int) {
	if idx >= 0 && idx < len(tv.rowOf) && tv.rowOf[idx] >= 0 {
		tv.cursor = tv.rowOf[idx]
	}
}
