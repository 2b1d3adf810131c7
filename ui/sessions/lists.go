package sessions

import (
	"runtime"
	"strconv"
	"time"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// picker is the session list with incremental search.
type picker struct {
	list *common.List[pickerItem]
	// raw are the discovered sessions, in the list's order: by activity,
	// each fork under the session it was forked from (forkTree).
	raw []session.ListItem
	// forkPrefix is each raw session's place in the fork tree.
	forkPrefix []string
	err        error
	// all lists every project's sessions instead of the cwd's.
	all bool
	// live counts the rows marked live (the title says how many).
	live int
}

func newPicker() picker {
	p := picker{list: common.NewList(renderPickerRow)}
	p.list.SetIdentity(func(it pickerItem) string { return it.path })
	return p
}

// setItems replaces the discovered sessions, keeping the cursor on the
// same file when it is still listed; open is the open session's file and
// now the time the rows' marks and dates are drawn for.
func (p *picker) setItems(items []session.ListItem, open *loadedSession, now time.Time) {
	p.raw, p.forkPrefix = forkTree(items)
	// Discovery's own search rules (name, first message, id prefix), in
	// its order.
	p.list.SetFilter(func(rows []pickerItem, q string) []int {
		byPath := make(map[string]int, len(rows))
		for i, r := range rows {
			byPath[r.path] = i
		}
		var out []int
		for _, it := range session.Search(items, q) {
			out = append(out, byPath[it.Path])
		}
		return out
	})
	p.refresh(open, now)
}

// refresh rebuilds the rows (after a load changed the open session, a
// scope switch changed what a row shows, or time took a live mark away).
// The open session's row shows what the loaded file says (its exact
// message count and title), which follows the file as it grows.
func (p *picker) refresh(open *loadedSession, now time.Time) {
	rows := make([]pickerItem, len(p.raw))
	liveCol, treeCol := false, false
	for i, it := range p.raw {
		row := newPickerItem(it, false, p.all, now)
		row.fork = p.forkPrefix[i]
		if open != nil && it.Path == open.file {
			row.open, row.count, row.name = true, open.messages, open.title
			if !open.lastActive.IsZero() {
				row.when = common.NewWhen(open.lastActive, now)
			}
		}
		liveCol, treeCol = liveCol || row.live, treeCol || row.tree
		rows[i] = row
	}
	for i := range rows {
		rows[i].liveCol, rows[i].treeCol = liveCol, treeCol
	}
	p.live = 0
	for _, r := range rows {
		if r.live {
			p.live++
		}
	}
	p.list.SetItems(rows)
}

// nextExpiry is when the first live mark goes (ok=false: none shows).
func (p *picker) nextExpiry(now time.Time) (time.Time, bool) {
	var next time.Time
	for _, it := range p.raw {
		if !isLive(it.ModTime, now) {
			continue
		}
		if end := it.ModTime.Add(LiveWindow); next.IsZero() || end.Before(next) {
			next = end
		}
	}
	return next, !next.IsZero()
}

// currentPath is the file under the cursor ("" when none).
func (p *picker) currentPath() string {
	it, _ := p.list.Selected()
	return it.path
}

// sizeOf is the size discovery saw for a listed file (0 when unlisted).
func (p *picker) sizeOf(path string) int64 {
	for _, it := range p.raw {
		if it.Path == path {
			return it.Size
		}
	}
	return 0
}

func (p *picker) moveToPath(path string) {
	p.list.Select(func(it pickerItem) bool { return it.path == path })
}

// timeline is the entries of one branch (root → branch leaf), filterable.
type timeline struct {
	list *common.List[timelineItem]
	leaf int   // the branch's last entry
	path []int // entry indexes root → leaf
	// onPath[i] is true for the entries of path (indexed by entry; the
	// session's active marks when the branch is the leaf's).
	onPath []bool
	// hits are the entries the session search matches (marked in rows).
	hits map[int]bool
}

func newTimeline() timeline {
	t := timeline{list: common.NewList(renderTimelineRow)}
	t.list.SetIdentity(func(it timelineItem) string { return strconv.Itoa(it.idx) })
	// The timeline is narrowed to the session search's matches (marked
	// in the items), its query being the search's.
	t.list.SetFilter(func(items []timelineItem, q string) []int {
		out := make([]int, 0, len(items))
		for i, it := range items {
			if q == "" || it.hit {
				out = append(out, i)
			}
		}
		return out
	})
	return t
}

// marks sets the entries the search matches and redraws their rows.
func (t *timeline) marks(ls *loadedSession, hits map[int]bool) {
	t.hits = hits
	if ls != nil && t.path != nil {
		t.refresh(ls)
	}
}

// setBranch shows the branch ending at leaf with the cursor on entry at.
func (t *timeline) setBranch(ls *loadedSession, leaf, at int) {
	t.leaf = leaf
	t.path = ls.sess.PathTo(leaf)
	if leaf == ls.leaf && len(ls.active) == len(ls.rows) {
		t.onPath = ls.active // the same set, never written after the load
	} else {
		t.onPath = make([]bool, len(ls.rows))
		for _, i := range t.path {
			t.onPath[i] = true
		}
	}
	t.refresh(ls)
	t.moveToEntry(at)
}

// refresh rebuilds the rows from the session (after summaries arrived),
// keeping the cursor on its entry.
func (t *timeline) refresh(ls *loadedSession) {
	items := make([]timelineItem, len(t.path))
	// A branch of a big session is 180k rows: filled on every core.
	forChunks(len(t.path), func(lo, hi int) int {
		for k := lo; k < hi; k++ {
			i := t.path[k]
			items[k] = newTimelineItem(ls, i)
			items[k].hit = t.hits[i]
			if k&4095 == 4095 {
				runtime.Gosched() // a big session's load: let a key frame in
			}
		}
		return 0
	})
	t.list.SetItems(items)
}

// markBranchPoints sets the ⑂ mark of the rows whose entries have
// become branch points (entryRow.branch) since the items were made: a
// load fills the timeline before the tree is built. The list has not
// drawn the items yet, so they are edited in place.
func (t *timeline) markBranchPoints(ls *loadedSession) {
	items := t.list.Items()
	for k := range items {
		if it := &items[k]; it.mark == " " && ls.rows[it.idx].branch {
			it.mark = "⑂" // newTimelineItem's mark: nothing outranks it here
		}
	}
}

// contains reports whether entry idx is on the shown branch.
func (t *timeline) contains(idx int) bool { return idx >= 0 && idx < len(t.onPath) && t.onPath[idx] }

// current is the entry index under the cursor (-1 when empty).
func (t *timeline) current() int {
	if it, ok := t.list.Selected(); ok {
		return it.idx
	}
	return -1
}

// atEnd reports whether the cursor is on the last shown row.
func (t *timeline) atEnd() bool { return t.list.Cursor() >= t.list.Len()-1 }

func (t *timeline) moveToEntry(idx int) {
	if idx >= 0 {
		t.list.Select(func(it timelineItem) bool { return it.idx == idx })
	}
}

// visibleEntries are the entries around the cursor that a frame of h rows
// may show: the ones whose summaries should be ready.
func (t *timeline) visibleEntries(h int) []int {
	from, to := max(0, t.list.Cursor()-h), min(t.list.Len(), t.list.Cursor()+h+1)
	out := make([]int, 0, to-from)
	for row := from; row < to; row++ {
		out = append(out, t.list.Shown(row).idx)
	}
	return out
}

// newTimelineItem is the timeline row of entry i: everything it shows.
func newTimelineItem(ls *loadedSession, i int) timelineItem {
	r := ls.rows[i]
	mark := " "
	switch {
	case i == ls.leaf:
		mark = "●"
	case r.compaction:
		mark = "≡"
	case r.summary:
		mark = "↩"
	case r.branch:
		mark = "⑂"
	}
	sum := ls.sums[i]
	atMs, timed := clockMs(ls.sess.Entries[i].TimestampMs())
	return timelineItem{idx: i, mark: mark, atMs: atMs, timed: timed, kind: r.kind,
		label: ls.labels[i], text: sum.text, tokens: sum.tokens}
}

// newPickerItem is the picker row of a discovered session at time now.
func newPickerItem(it session.ListItem, open, showCwd bool, now time.Time) pickerItem {
	row := pickerItem{path: it.Path, name: it.Title(), named: it.Name != "", open: open, count: it.MessageCount,
		when: common.NewWhen(it.LastActivity, now), unreadable: it.Problem != "", live: isLive(it.ModTime, now), tree: it.HasAgentTree}
	if showCwd {
		row.cwd = baseName(sanitize.Fold(it.Cwd))
		row.showCwd = true
	}
	return row
}
