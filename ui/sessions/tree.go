package sessions

import (
	"fmt"
	"runtime"
	"strconv"
	"unicode/utf8"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

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
	// filter hides entries like Pi's /tree filter modes; children of a
	// hidden entry hang from its nearest visible ancestor.
	filter treeFilter
	// rowOf maps entry index → row (-1 when hidden by a fold).
	rowOf []int
	// list draws the rows and holds the cursor; its items mirror rows.
	list *common.List[treeItem]
	// branchLeaf is the leaf of the branch the timeline shows (○).
	branchLeaf int
	// hits are the entries the tree search matches (marked in their rows).
	hits map[int]bool
	// pending is true while a fresh load's tree is being built by
	// treeCmd: the pane says so and the built view replaces this one.
	pending bool
}

func newTreeView() treeView {
	tv := treeView{list: common.NewList(renderTreeRow), branchLeaf: -1}
	tv.list.SetIdentity(func(it treeItem) string { return strconv.Itoa(it.idx) })
	return tv
}

// sync rebuilds the list items from rows and the session's data: after a
// rebuild, a new timeline branch or newly decoded summaries.
func (tv *treeView) sync(ls *loadedSession) { tv.syncItems(ls, true) }

// syncItems is sync; without summaries it leaves the items' text empty
// and reads only what never changes after a load, so it is safe inside a
// command (treeCmd) while Update stores decoded summaries.
func (tv *treeView) syncItems(ls *loadedSession, summaries bool) {
	items := make([]treeItem, len(tv.rows))
	for r, tr := range tv.rows {
		it := treeItem{idx: tr.idx, mark: "  ", prefix: tr.prefix, kind: ls.rows[tr.idx].kind,
			label: ls.labels[tr.idx], active: ls.active[tr.idx], hit: tv.hits[tr.idx]}
		if summaries {
			it.text = ls.sums[tr.idx].text
		}
		switch {
		case tv.folded[tr.idx]:
			it.mark, it.folded = "▸ ", fmt.Sprintf(" (+%d)", tr.kids)
		case tr.idx == ls.leaf:
			it.mark = "● "
		case tr.idx == tv.branchLeaf:
			it.mark = "○ "
		}
		items[r] = it
	}
	tv.list.SetItems(items)
}

// marks sets the entries the search matches and redraws their rows.
func (tv *treeView) marks(ls *loadedSession, hits map[int]bool) {
	tv.hits = hits
	if ls != nil {
		tv.sync(ls)
	}
}

// order is every entry the tree shows under its filter, in display order
// with folds ignored: what the search walks, so a match inside a folded
// subtree is found (and unfolded by moveTo).
func (tv *treeView) order(ls *loadedSession) []int {
	n := len(ls.rows)
	out := make([]int, 0, n)
	seen := make([]bool, n)
	push := func(stack []int32, kids []int32) []int32 {
		ordered := activeFirst(ls, tv.visibleKids(ls, kids))
		for k := len(ordered) - 1; k >= 0; k-- {
			stack = append(stack, ordered[k])
		}
		return stack
	}
	stack := push(make([]int32, 0, 64), toInt32(ls.tree.Roots))
	for len(stack) > 0 {
		i := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if i < 0 || i >= n || seen[i] {
			continue
		}
		seen[i] = true
		out = append(out, i)
		stack = push(stack, ls.tree.Children(i))
	}
	return out
}

// cursor is the row under the cursor.
func (tv *treeView) cursor() int { return tv.list.Cursor() }

// rebuild flattens ls into rows honouring folds. It is O(entries) and runs
// on fold/unfold and filter changes (a fresh load builds it in treeCmd),
// never per frame.
func (tv *treeView) rebuild(ls *loadedSession) {
	tv.flatten(ls)
	tv.sync(ls)
}

// flatten computes rows and rowOf from the tree, folds and filter; it
// reads only what never changes after a load.
func (tv *treeView) flatten(ls *loadedSession) {
	tv.pending = false
	if tv.folded == nil {
		tv.folded = map[int]bool{}
	}
	n := len(ls.rows)
	tv.rows = tv.rows[:0]
	if cap(tv.rowOf) < n {
		tv.rowOf = make([]int, n)
	}
	tv.rowOf = tv.rowOf[:n]
	if cap(tv.rows) < n {
		tv.rows = make([]treeRow, 0, n) // one allocation, not a doubling series
	}
	for i := range tv.rowOf {
		tv.rowOf[i] = -1
	}
	type item struct {
		idx        int
		base, conn string
	}
	roots := tv.visibleKids(ls, toInt32(ls.tree.Roots))
	ordered := activeFirst(ls, roots)
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
		kids := tv.visibleKids(ls, ls.tree.Children(it.idx))
		tv.rowOf[it.idx] = len(tv.rows)
		tv.rows = append(tv.rows, treeRow{idx: it.idx, prefix: it.base + it.conn, kids: len(kids)})
		if len(tv.rows)&4095 == 0 {
			runtime.Gosched() // a big session's load: let a key frame in
		}
		if tv.folded[it.idx] || len(kids) == 0 {
			continue
		}
		childBase := it.base
		switch it.conn {
		case connMid:
			childBase = innerLevels(childBase + "│  ")
		case connLast:
			childBase = innerLevels(childBase + "   ")
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
}

const (
	connMid  = "├─ "
	connLast = "└─ "
)

// keptLevels is how many levels of a row's drawing the rows keep. A row
// draws at most a third of the pane's width of it (renderTreeRow elides
// the outer levels), so the outer levels of a session that branches
// hundreds of times deep are never drawn, and keeping them cost a string
// as long as the session is deep for every branch row: tens of MB on a
// 1 GB session. 96 levels draw the same rows on panes up to 864 columns.
const keptLevels = 96

// innerLevels drops the outermost level (three columns) of a drawing one
// level deeper than keptLevels.
func innerLevels(drawing string) string {
	if utf8.RuneCountInString(drawing) <= 3*keptLevels {
		return drawing
	}
	cut := 0
	for range 3 {
		_, size := utf8.DecodeRuneInString(drawing[cut:])
		cut += size
	}
	return drawing[cut:]
}

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

// treeFilter is one of the tree's display modes (Pi's /tree filters).
type treeFilter int

const (
	// treeDefault hides bookkeeping entries (labels, custom state, model
	// and thinking changes, session info), like Pi's default view.
	treeDefault treeFilter = iota
	treeAll
	treeUserOnly
	treeLabeled
	treeFilterCount
)

// String is the filter's name, marked: the tree's border translates it.
func (f treeFilter) String() string {
	return [...]string{i18n.Mark("default"), i18n.Mark("all"), i18n.Mark("user only"), i18n.Mark("labeled")}[f]
}

// visible reports whether entry i shows under the filter. The default
// leaf always shows so the active position is never lost.
func (tv *treeView) visible(ls *loadedSession, i int) bool {
	if i == ls.leaf || tv.filter == treeAll {
		return true
	}
	switch tv.filter {
	case treeUserOnly:
		return ls.rows[i].kind == session.RoleUser
	case treeLabeled:
		_, ok := ls.labels[i]
		return ok
	}
	switch ls.sess.Entries[i].Type {
	case session.TypeLabel, session.TypeCustom, session.TypeModelChange, session.TypeThinkingLevelChange, session.TypeSessionInfo:
		return false
	}
	return true
}

// visibleKids replaces hidden entries among kids by their visible
// descendants, in order, without recursion (chains can be very long).
func (tv *treeView) visibleKids(ls *loadedSession, kids []int32) []int32 {
	if tv.filter == treeAll {
		return kids
	}
	allVisible := true
	for _, k := range kids {
		if !tv.visible(ls, int(k)) {
			allVisible = false
			break
		}
	}
	if allVisible {
		return kids
	}
	var out []int32
	stack := make([]int32, 0, len(kids))
	for i := len(kids) - 1; i >= 0; i-- {
		stack = append(stack, kids[i])
	}
	for steps := 0; len(stack) > 0 && steps <= len(ls.rows); steps++ {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if tv.visible(ls, int(k)) {
			out = append(out, k)
			continue
		}
		grand := ls.tree.Children(int(k))
		for i := len(grand) - 1; i >= 0; i-- {
			stack = append(stack, grand[i])
		}
	}
	return out
}

// nearestVisible walks up from idx to the first entry with a row.
func (tv *treeView) nearestVisible(ls *loadedSession, idx int) int {
	for steps := 0; idx >= 0 && steps <= len(tv.rowOf); steps++ {
		if tv.rowOf[idx] >= 0 {
			return idx
		}
		idx = int(ls.tree.Parent[idx])
	}
	return -1
}

// cycleFilter switches to the next filter mode, keeping the cursor on the
// same entry or its nearest visible ancestor.
func (tv *treeView) cycleFilter(ls *loadedSession) {
	cur := tv.current()
	tv.filter = (tv.filter + 1) % treeFilterCount
	tv.rebuild(ls)
	if cur >= 0 {
		tv.follow(ls, cur)
	}
}

// current is the entry index under the cursor (-1 when empty).
func (tv *treeView) current() int {
	if it, ok := tv.list.Selected(); ok {
		return it.idx
	}
	return -1
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
	if v := tv.nearestVisible(ls, idx); v >= 0 {
		tv.list.SetCursor(tv.rowOf[v])
	}
}

// fold folds the subtree under the cursor; on a leaf or an already folded
// row it jumps to the nearest branch point above (Pi's ← habit).
func (tv *treeView) fold(ls *loadedSession) {
	idx := tv.current()
	if idx < 0 {
		return
	}
	if tv.rows[tv.cursor()].kids > 0 && !tv.folded[idx] {
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
	if tv.rows[tv.cursor()].kids > 0 && tv.cursor()+1 < len(tv.rows) {
		tv.list.Move(1)
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
func (tv *treeView) follow(ls *loadedSession, idx int) {
	if idx < 0 || idx >= len(tv.rowOf) {
		return
	}
	if v := tv.nearestVisible(ls, idx); v >= 0 {
		tv.list.SetCursor(tv.rowOf[v])
	}
}

// visibleEntries are the entries around the cursor that a frame of h rows
// may show: the ones whose summaries should be ready.
func (tv *treeView) visibleEntries(h int) []int {
	from, to := max(0, tv.cursor()-h), min(len(tv.rows), tv.cursor()+h+1)
	out := make([]int, 0, to-from)
	for row := from; row < to; row++ {
		out = append(out, tv.rows[row].idx)
	}
	return out
}
