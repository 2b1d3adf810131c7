package sessions

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/ui/uitest"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/ui/common"
)

func TestDefaultSelectionIsNewestSessionLeaf(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	if len(hs.Selections) != 1 {
		t.Fatalf("want one selection announced on load, got %d", len(hs.Selections))
	}
	sel := hs.Selections[0]
	if sel.SessionFile != paths["rounding"] || sel.SessionName != "Invoice rounding (test)" || sel.EntryID != "e19" || !sel.AtLeaf {
		t.Fatalf("default selection = %+v, want the newest session at its leaf", sel)
	}
	if got := hs.m.tl.current(); got != hs.m.ls.leaf {
		t.Fatalf("timeline cursor on %d, want the leaf %d", got, hs.m.ls.leaf)
	}
}

func TestCursorMovesSelectionAndLeafIsMarked(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(paneTimeline)
	hs.Press("g", "down", "down", "down", "down", "enter")
	last := hs.Selections[len(hs.Selections)-1]
	if last.EntryID != "e05" {
		t.Fatalf("enter on e05 announced %q", last.EntryID)
	}
	if hs.m.focus != paneDetail {
		t.Fatal("enter in the timeline should focus the detail")
	}
	if last.AtLeaf {
		t.Fatal("e05 is not the leaf")
	}
	hs.Press("esc", "G")
	if last := hs.Selections[len(hs.Selections)-1]; last.EntryID != "e19" || !last.AtLeaf {
		t.Fatalf("moving to the leaf announces it by id and as the leaf at once, got %+v", last)
	}
}

func TestIncomingSelectionMovesToSideBranch(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	hs.focusOn(panePicker)
	hs.m.Update(common.JumpMsg{Target: common.JumpTarget{Panel: common.PanelSession, SessionFile: paths["rounding"], EntryID: "e09"}})
	if got := hs.m.ls.entryID(hs.m.tl.current()); got != "e09" {
		t.Fatalf("timeline cursor on %s, want e09", got)
	}
	if got := hs.m.ls.entryID(hs.m.tl.leaf); got != "e10" {
		t.Fatalf("timeline shows the branch to %s, want the abandoned branch to e10", got)
	}
	if hs.m.focus != paneTimeline {
		t.Fatalf("an entry named elsewhere (a search hit) should land in the timeline, focus is %v", hs.m.focus)
	}
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "branch → e10") || strings.Contains(view, "branch → e10 (active)") {
		t.Fatalf("timeline title should name the side branch:\n%s", view)
	}
	// Another session chosen elsewhere opens here.
	hs.jump(paths["currency"], "", "")
	if hs.m.ls == nil || hs.m.ls.file != paths["currency"] {
		t.Fatal("a selection naming another session should open it")
	}
}

func TestPickerOpensChosenSession(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	hs.focusOn(panePicker)
	hs.Press("down", "enter")
	if hs.m.ls.file != paths["currency"] {
		t.Fatalf("enter on the second row should open currency, open: %s", hs.m.ls.file)
	}
	last := hs.Selections[len(hs.Selections)-1]
	if last.SessionFile != paths["currency"] || !last.AtLeaf || last.EntryID == "" {
		t.Fatalf("opening a session must announce it at its leaf, got %+v", last)
	}
}

// Issue 21: opening a session lands on its leaf with the focus where the
// cursor is drawn: the timeline has the focus (its border is the heavy
// one) and its cursor, the tree's and the selection are on the leaf.
func TestOpeningASessionLandsOnTheLeafWithTheFocusOnTheTimeline(t *testing.T) {
	hs, paths := newHarness(t, 160, 48)
	hs.focusOn(panePicker)
	hs.Press("down", "enter")
	m := hs.m
	if m.ls == nil || m.ls.file != paths["currency"] || m.focus != paneTimeline {
		t.Fatalf("open %v, focus %v: want the currency session with the timeline focused", m.ls != nil, m.focus)
	}
	leaf := m.ls.leaf
	if m.tl.current() != leaf || m.tree.current() != leaf || hs.com.Selection.EntryID != m.ls.entryID(leaf) || !hs.com.Selection.AtLeaf {
		t.Fatalf("timeline on %d, tree on %d, selection %+v; the leaf is %d", m.tl.current(), m.tree.current(), hs.com.Selection, leaf)
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "┏━ Timeline · ") || strings.Contains(v, "┏━ Sessions") {
		t.Fatalf("the timeline's border does not mark the focus:\n%s", v)
	}
}

func TestPickerIncrementalSearch(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(panePicker)
	hs.Press("/")
	if !hs.m.CapturesInput() {
		t.Fatal("the filter must capture typed keys")
	}
	hs.Type("curr")
	if hs.m.picker.list.Len() != 1 || !strings.Contains(hs.m.picker.list.Shown(0).name, "currency") {
		t.Fatalf("filter 'curr' should keep only the currency session, shown %d", hs.m.picker.list.Len())
	}
	hs.Press("backspace", "backspace", "backspace", "backspace")
	if hs.m.picker.list.Len() != 2 {
		t.Fatal("clearing the query should show every session again")
	}
	hs.Type("q") // q types, it does not quit while filtering
	hs.Press("esc")
	if hs.m.CapturesInput() || hs.m.picker.list.Query() != "" || hs.m.picker.list.Len() != 2 {
		t.Fatal("esc should clear and close the filter")
	}
}

// `/` in the timeline searches the session (issue 16): matches are marked
// and the cursor jumps to the first; m narrows the timeline to them.
func TestTimelineSearchAndMatchesOnly(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(paneTimeline)
	hs.Press("/")
	hs.Type("cents fix")
	var marked []string
	for row := range hs.m.tl.list.Len() {
		if it := hs.m.tl.list.Shown(row); it.hit {
			marked = append(marked, hs.m.ls.entryID(it.idx))
		}
	}
	// e13 carries the label, e15 is the label entry, e16 mentions both words.
	if strings.Join(marked, ",") != "e13,e15,e16" || hs.m.tl.list.Len() != 17 {
		t.Fatalf("search 'cents fix' marked %v of %d rows", marked, hs.m.tl.list.Len())
	}
	if cur, _ := hs.m.tl.list.Selected(); hs.m.ls.entryID(cur.idx) != "e13" {
		t.Fatalf("the cursor should jump to the first match, is on %s", hs.m.ls.entryID(cur.idx))
	}
	hs.Press("enter")
	if hs.m.CapturesInput() || !hs.m.search.Active() {
		t.Fatal("enter should keep the search and release the keyboard")
	}
	hs.Press("n")
	if cur, _ := hs.m.tl.list.Selected(); hs.m.ls.entryID(cur.idx) != "e15" {
		t.Fatalf("n should go to the next match, is on %s", hs.m.ls.entryID(cur.idx))
	}
	hs.Press("N", "N")
	if cur, _ := hs.m.tl.list.Selected(); hs.m.ls.entryID(cur.idx) != "e16" {
		t.Fatalf("N wraps to the last match, is on %s", hs.m.ls.entryID(cur.idx))
	}
	hs.Press("m")
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "3 of 17") {
		t.Fatalf("the timeline should say how many entries match:\n%s", view)
	}
	hs.Press("esc")
	if hs.m.tl.list.Query() != "" || hs.m.tl.list.Len() != 17 {
		t.Fatal("esc in the timeline clears its filter")
	}
}

func TestTreeFoldAndUnfold(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	m := hs.m
	hs.focusOn(paneTree)
	total := len(m.tree.rows)
	if total != 16 {
		t.Fatalf("tree shows %d rows, want 16 (model, thinking and label entries hidden by default)", total)
	}
	// From the leaf, ← jumps to the nearest branch point (e08).
	hs.Press("left")
	if got := m.ls.entryID(m.tree.current()); got != "e08" {
		t.Fatalf("← on a leaf should go to the branch point e08, got %s", got)
	}
	hs.Press("left")
	if !m.tree.folded[hs.entryIndex("e08")] || len(m.tree.rows) != 6 {
		t.Fatalf("← on a branch point folds it: folded=%v rows=%d", m.tree.folded, len(m.tree.rows))
	}
	if !strings.Contains(ansi.Strip(hs.view()), "(+2)") {
		t.Fatal("a folded row should say how many children it hides")
	}
	hs.Press("right")
	if len(m.tree.rows) != total || m.tree.folded[hs.entryIndex("e08")] {
		t.Fatal("→ unfolds")
	}
	// Selecting a hidden entry unfolds its ancestors.
	hs.Press("left")
	m.tree.moveTo(m.ls, hs.entryIndex("e10"))
	if m.ls.entryID(m.tree.current()) != "e10" || len(m.tree.rows) != total {
		t.Fatal("moving to an entry inside a fold must unfold it")
	}
	// Enter selects the entry and shows its branch in the timeline.
	hs.Press("enter")
	if m.ls.entryID(m.tl.leaf) != "e10" || hs.Selections[len(hs.Selections)-1].EntryID != "e10" {
		t.Fatal("enter in the tree selects the entry and its branch")
	}
}

func TestTreePutsActiveBranchFirst(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	rows := hs.m.tree.rows
	var order []string
	for _, r := range rows {
		order = append(order, hs.m.ls.entryID(r.idx))
	}
	i11, i09 := indexOf(order, "e11"), indexOf(order, "e09")
	if i11 < 0 || i09 < 0 || i11 > i09 {
		t.Fatalf("the active branch (e11…) should come before the abandoned one (e09…): %v", order)
	}
	if !strings.HasPrefix(rows[i11].prefix, connMid) || !strings.HasPrefix(rows[i09].prefix, connLast) {
		t.Fatalf("branch children need connectors: %q %q", rows[i11].prefix, rows[i09].prefix)
	}
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

func TestDetailExpandThinkingAndCacheKeys(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	m := hs.m
	hs.focusOn(paneTimeline)
	hs.Press("g", "down", "down", "down", "enter") // e04: thinking + tool call
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "thinking · 2 line(s) hidden") || strings.Contains(view, "I should read src/invoice.ts") {
		t.Fatalf("thinking must be hidden by default:\n%s", view)
	}
	before := len(m.detail.cache)
	hs.Press("ctrl+t")
	view = ansi.Strip(hs.view())
	if !strings.Contains(view, "I should read src/invoice.ts first.") {
		t.Fatalf("ctrl+t should show thinking:\n%s", view)
	}
	if len(m.detail.cache) != before+1 {
		t.Fatal("toggling thinking is a new rendering (new cache key), not an in-place edit")
	}
	hs.Press("esc", "down", "enter") // e05: 18-line tool result
	if !strings.Contains(ansi.Strip(hs.view()), "8 lines hidden") {
		t.Fatal("tool output should be capped with a hidden-lines note")
	}
	hs.Press("space")
	view = ansi.Strip(hs.view())
	if strings.Contains(view, "lines hidden") || !strings.Contains(view, "// end of file") {
		t.Fatalf("space should expand the tool output:\n%s", view)
	}
	// A resize renders again at the new width; the old rendering stays cached.
	k1 := m.detailKeyFor(m.currentEntry())
	m.SetSize(130, 48) // the root sizes the panel, then forwards the resize
	k2 := m.detailKeyFor(m.currentEntry())
	if k1 == k2 {
		t.Fatal("the cache key must include the width")
	}
	hs.Send(tea.WindowSizeMsg{Width: 130, Height: 48}) // and the rendering comes due
	if _, ok := m.detail.cache[k2]; !ok {
		t.Fatal("a resize should render the entry at the new width")
	}
}

func TestHostileTextNeverReachesTheScreen(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("g")
	for i := 0; i < 6; i++ { // e07 holds OSC 52, ESC[2J and \r
		hs.Press("down")
	}
	hs.Press("enter", "space")
	view := hs.view()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\r", "\x07"} {
		if strings.Contains(view, bad) {
			t.Fatalf("view contains %q", bad)
		}
	}
	if !strings.Contains(ansi.Strip(view), "rounds tax per invoice") {
		t.Fatal("the tool output itself should still show")
	}
	hs.Press("c")
	if v := hs.view(); strings.Contains(v, "\x1b]52") || strings.Contains(v, "\x1b[2J") {
		t.Fatal("the context view must be sanitised too")
	}
}

func TestContextAndStatsViewsAndBack(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("c")
	view := ansi.Strip(hs.view())
	if hs.m.mode != modeContext || !strings.Contains(view, "Context at e19") || !strings.Contains(view, "compacted into the following summary") {
		t.Fatalf("c should show the rebuilt context at the entry:\n%s", view)
	}
	// Compaction keeps e12 onwards: the abandoned branch is not in it.
	for _, msg := range hs.m.sent.shown.side(false).messages {
		if strings.Contains(msg.text, "Math.round") || strings.Contains(msg.text, "float") {
			t.Fatalf("the context at the leaf must hold only the compaction summary and what follows: %q", msg.text)
		}
	}
	hs.Press("s")
	view = ansi.Strip(hs.view())
	if hs.m.mode != modeStats || !strings.Contains(view, "Session · all branches") || !strings.Contains(view, "tool calls  3") {
		t.Fatalf("s should show stats:\n%s", view)
	}
	hs.Press("esc")
	if hs.m.mode != modeEntry || hs.m.focus != paneDetail {
		t.Fatal("esc leaves stats for the entry detail first")
	}
	hs.Press("esc")
	if hs.m.focus != paneTimeline {
		t.Fatal("then esc goes back to the timeline")
	}
}

func TestKeymapNamesAndHelp(t *testing.T) {
	k := keymap.DefaultSession() // names and help of every group: keymap's tests
	if err := keymap.Apply(&k, map[string][]string{"session.follow": {"f"}}); err != nil {
		t.Fatal(err)
	}
	hs, _ := newHarness(t, 120, 40)
	hs.m.SetKeys(k)
	hs.focusOn(paneTimeline)
	found := false
	for _, b := range hs.m.ShortHelp() {
		if d := b.Help().Desc; d == "follow" || d == "pause" { // F pauses at the leaf
			found = b.Help().Key == "f"
		}
	}
	if !found {
		t.Fatal("help must follow the rebinding")
	}
	if !key.Matches(uitest.Key("f"), hs.m.keys.Follow) {
		t.Fatal("the rebound key must act")
	}
}

func TestEveryViewFitsAtOddSizes(t *testing.T) {
	for _, size := range [][2]int{{20, 6}, {60, 10}, {119, 30}, {120, 30}, {200, 60}, {4, 2}} {
		hs, _ := newHarness(t, size[0], size[1])
		for p := panePicker; p < paneCount; p++ {
			hs.focusOn(p)
			v := hs.view()
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Fatalf("%dx%d pane %d: %d lines", size[0], size[1], p, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Fatalf("%dx%d pane %d line %d: %d cells", size[0], size[1], p, i, w)
				}
			}
		}
	}
}

func TestStatsFollowTheShownBranch(t *testing.T) {
	hs, paths := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("s")
	if got := hs.m.stats.branch.Entries; got != 17 {
		t.Fatalf("active branch stats count %d entries, want 17", got)
	}
	hs.jump(paths["rounding"], "e10", "")
	hs.Press("s")
	if got := hs.m.stats.branch.Entries; got != 10 {
		t.Fatalf("side branch stats count %d entries, want 10 (e01…e10)", got)
	}
	// c from the tree shows the context at the tree's entry and the
	// detail follows it.
	hs.Press("esc", "esc", "shift+tab")
	hs.focusOn(paneTree)
	hs.m.tree.moveTo(hs.m.ls, hs.entryIndex("e04"))
	hs.Run(hs.m.treeMoved()) // as a key or the wheel moves it
	hs.Press("c")
	if hs.m.sent.shown == nil || hs.m.ls.entryID(hs.m.sent.shown.idx) != "e04" || hs.m.ls.entryID(hs.m.tl.current()) != "e04" {
		t.Fatal("c in the tree should rebuild the context at the tree entry and move the timeline there")
	}
}

// Issue 21: the tree and the timeline show one selected entry. Moving in
// the timeline over an entry the tree's filter hides (the label e15) puts
// the tree's cursor on the row that holds it, which says so; the detail,
// the copy keys and the selection stay on that entry whichever of the two
// has the focus; moving in the tree moves the timeline.
func TestTreeAndTimelineShowOneSelectedEntry(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.m.tl.moveToEntry(hs.entryIndex("e16"))
	hs.Press("up") // e15, the label: hidden by the tree's default filter
	label := hs.entryIndex("e15")
	if hs.m.tl.current() != label || hs.com.Selection.EntryID != "e15" {
		t.Fatalf("timeline on %d, selection %s", hs.m.tl.current(), hs.com.Selection.EntryID)
	}
	if got := hs.m.tree.current(); got != hs.entryIndex("e14") {
		t.Fatalf("the tree's cursor is on %s, want e14, the row that holds e15", hs.m.ls.entryID(got))
	}
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "→ e15 hidden") || !strings.Contains(v, "Detail · e15") {
		t.Fatalf("the tree does not say the selected entry is hidden under its cursor, or the detail moved:\n%s", v)
	}
	hs.focusOn(paneTree)
	if hs.m.currentEntry() != label || !strings.Contains(ansi.Strip(hs.view()), "Detail · e15") {
		t.Fatalf("with the tree focused the panel acts on %d, want the selected e15", hs.m.currentEntry())
	}
	hs.Press("up")
	if cur := hs.m.tree.current(); hs.m.tl.current() != cur || hs.com.Selection.EntryID != hs.m.ls.entryID(cur) {
		t.Fatalf("the tree moved to %s; the timeline is on %s and the selection %s",
			hs.m.ls.entryID(cur), hs.m.ls.entryID(hs.m.tl.current()), hs.com.Selection.EntryID)
	}
	if v := ansi.Strip(hs.view()); strings.Contains(v, "→ e15 hidden") {
		t.Fatalf("the note stays although the tree's cursor is on the selected entry:\n%s", v)
	}
}

func TestTreeFilterModes(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	m := hs.m
	hs.focusOn(paneTree)
	ids := func() string {
		var out []string
		for _, r := range m.tree.rows {
			out = append(out, m.ls.entryID(r.idx))
		}
		return strings.Join(out, ",")
	}
	want := []struct{ mode, ids string }{
		{"all", "e01,e02,e03,e04,e05,e06,e07,e08,e11,e12,e13,e14,e15,e16,e17,e18,e19,e09,e10"},
		{"user only", "e03,e12,e17,e19,e09"},
		{"labeled", "e13,e19"},
		{"default", "e03,e04,e05,e06,e07,e08,e11,e12,e13,e14,e16,e17,e18,e19,e09,e10"},
	}
	for _, w := range want {
		hs.Press("f")
		if m.tree.filter.String() != w.mode || ids() != w.ids {
			t.Fatalf("mode %s shows %s, want %s %s", m.tree.filter, ids(), w.mode, w.ids)
		}
	}
	// In user-only mode the abandoned branch's user message still hangs
	// from a branch connector, and the cursor falls back to a visible
	// ancestor of a hidden entry.
	hs.Press("f", "f")
	if m.tree.filter != treeUserOnly {
		t.Fatal("expected user-only mode")
	}
	if r := m.tree.rows[m.tree.rowOf[hs.entryIndex("e09")]]; !strings.Contains(r.prefix, "└─") {
		t.Fatalf("e09 should be drawn as a branch, prefix %q", r.prefix)
	}
	m.tree.follow(m.ls, hs.entryIndex("e14"))
	if got := m.ls.entryID(m.tree.current()); got != "e12" {
		t.Fatalf("a hidden entry should put the cursor on its nearest visible ancestor, got %s", got)
	}
}

// The session search reads the whole text of an entry (decoded, as the
// global search does), not only the one-line summary the rows show.
func TestSessionSearchMatchesTheFullText(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(paneTree)
	hs.Press("/")
	hs.Type("// END OF FILE") // past the 240 runes of the summary, other case
	hs.Press("enter")
	if hs.m.search.Count() != 1 {
		t.Fatalf("%d matches: %s", hs.m.search.Count(), hs.m.search.Info())
	}
	if cur := hs.m.tree.current(); hs.m.ls.entryID(cur) != "e05" {
		t.Fatalf("the tree cursor is on %s", hs.m.ls.entryID(cur))
	}
	if !strings.Contains(ansi.Strip(hs.view()), "match 1/1") {
		t.Fatalf("the tree should count the match:\n%s", ansi.Strip(hs.view()))
	}
}
