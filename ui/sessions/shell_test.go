package sessions

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// guardedLines is an unnamed session whose branch records Preset
// selections (pi-forge-prompt-stack-state) and three lines Pi drops.
var guardedLines = []string{
	`{"type":"session","version":3,"id":"01a2f000-0000-7000-8000-000000000003","timestamp":"2026-11-28T09:00:00.000Z","cwd":"/home/ada/projects/demo-app"}`,
	`{"type":"message","id":"g01","parentId":null,"timestamp":"2026-11-28T09:00:05.000Z","message":{"role":"user","content":"Review the guard rails.","timestamp":1795856405000}}`,
	`{"type":"custom","id":"g02","parentId":"g01","timestamp":"2026-11-28T09:00:06.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:guarded-worker"}}`,
	`{not json at all`,
	`{"type":"message","id":"g03","parentId":"g02","timestamp":"2026-11-28T09:00:10.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Reading first."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1795856410000}}`,
	``,
	`{"type":"message","id":"g04","parentId":"g03","timestamp":"2026-11-28T09:00:20.000Z","message":{"role":"user","content":"Now switch presets off.","timestamp":1795856420000}}`,
	`null`,
	`{"type":"custom","id":"g05","parentId":"g04","timestamp":"2026-11-28T09:00:21.000Z","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"none"}}`,
	`{"type":"message","id":"g06","parentId":"g05","timestamp":"2026-11-28T09:00:30.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1795856430000}}`,
}

// addGuarded writes the guarded session into the workspace (newest of
// all, so discovery opens it first) and returns its path.
func addGuarded(t *testing.T, hs *harness) string {
	t.Helper()
	dir := filepath.Join(hs.com.Workspace.AgentDir, "sessions", session.EncodeCwd(testCwd))
	p := filepath.Join(dir, "2026-11-28T09-00-00-000Z_01a2f000-0000-7000-8000-000000000003.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(guardedLines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// openGuarded opens the guarded session through a jump, as another
// panel would.
func openGuarded(t *testing.T, w, h int) (*harness, string) {
	t.Helper()
	hs, _ := newHarness(t, w, h)
	p := addGuarded(t, hs)
	hs.Press("r") // discover it
	hs.jump(p, "", "")
	if hs.m.ls == nil || hs.m.ls.file != p {
		t.Fatal("the guarded session did not open")
	}
	return hs, p
}

func lastSelection(t *testing.T, hs *harness) common.Selection {
	t.Helper()
	if len(hs.Selections) == 0 {
		t.Fatal("no selection was announced")
	}
	return hs.Selections[len(hs.Selections)-1]
}

// The header lost the Preset and the selection moved only on enter: now
// every cursor move announces the entry, with the Preset selection the
// branch records there (replay.ActivePresetAt).
func TestSelectionTravelsWithTheCursorAndCarriesTheActivePreset(t *testing.T) {
	hs, p := openGuarded(t, 160, 48)
	sel := lastSelection(t, hs)
	if sel.SessionFile != p || sel.EntryID != "g06" || !sel.AtLeaf || sel.ActivePreset != "none" {
		t.Fatalf("opened at the leaf, where presets are switched off: %+v", sel)
	}
	hs.focusOn(paneTimeline)
	for _, c := range []struct{ key, entry, preset string }{
		{"up", "g05", "none"},
		{"up", "g04", "project:guarded-worker"},
		{"up", "g03", "project:guarded-worker"},
		{"up", "g02", "project:guarded-worker"},
		{"up", "g01", ""},
	} {
		n := len(hs.Selections)
		hs.Press(c.key)
		sel := lastSelection(t, hs)
		if len(hs.Selections) != n+1 || sel.EntryID != c.entry || sel.AtLeaf || sel.ActivePreset != c.preset {
			t.Fatalf("after %s: %+v (announced %d), want entry %s with preset %q", c.key, sel, len(hs.Selections)-n, c.entry, c.preset)
		}
	}
	// The tree's cursor moves the selection too.
	hs.focusOn(paneTree)
	hs.Press("G")
	if sel := lastSelection(t, hs); sel.EntryID != "g06" || !sel.AtLeaf {
		t.Fatalf("the tree's cursor selects as well: %+v", sel)
	}
	// The panel owns the selection's entry: a selection change it hears
	// (another panel's, or an old one arriving late) never moves its
	// cursors nor is announced again.
	n, cur := len(hs.Selections), hs.m.tl.current()
	stale := lastSelection(t, hs)
	stale.EntryID, stale.AtLeaf = "g03", false
	hs.Send(common.SelectionChangedMsg{Selection: stale})
	if len(hs.Selections) != n || hs.m.tl.current() != cur {
		t.Fatal("a selection the panel hears must not move its cursor or be announced again")
	}
}

func appendLine(t *testing.T, file, line string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line + "\n"); err != nil {
		t.Fatal(err)
	}
}

// One name for an unnamed session in the header (the selection), the
// picker and the tree's title: session.Title.
func TestAnUnnamedSessionHasOneNameEverywhere(t *testing.T) {
	hs, paths := newHarness(t, 160, 48)
	hs.jump(paths["currency"], "", "")
	const title = "Format currency with a thousands separator."
	if sel := lastSelection(t, hs); sel.SessionName != title {
		t.Fatalf("the selection (header) calls it %q", sel.SessionName)
	}
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "Tree · "+title) {
		t.Fatalf("the tree's title should call it %q:\n%s", title, view)
	}
	if strings.Count(view, title) < 2 { // the picker row, the tree title
		t.Fatalf("the picker should call it %q too:\n%s", title, view)
	}
}

// Bad lines were dropped silently: the timeline's border now says so and
// `!` lists each skipped line with its reason.
func TestSkippedLinesAreMarkedAndListed(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			hs, _ := openGuarded(t, size.w, size.h)
			hs.focusOn(paneTimeline)
			if v := ansi.Strip(hs.view()); !strings.Contains(v, "⚠ 3 line(s) skipped · !") {
				t.Fatalf("the timeline's border should mark the skipped lines:\n%s", v)
			}
			hs.Press("!")
			view := hs.view()
			uitest.AssertFills(t, view, size.w, size.h)
			plain := ansi.Strip(view)
			for _, want := range []string{"line 4", "not valid JSON", "line 6", "blank line", "line 8", "falsy JSON value"} {
				if !strings.Contains(plain, want) {
					t.Errorf("the skipped list lacks %q:\n%s", want, plain)
				}
			}
			uitest.Golden(t, fmt.Sprintf("skipped_%dx%d", size.w, size.h), view)
			hs.Press("esc")
			if hs.m.mode != modeEntry {
				t.Fatal("esc leaves the list")
			}
		})
	}
}

// Issue 21: the timeline's border said the lines were skipped twice (the
// mark and the note of the open, cut) and the footer named the key a
// third time. The mark says it, once, with its key.
func TestSkippedLinesAreSaidOnce(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs, _ := openGuarded(t, size.w, size.h)
		hs.focusOn(paneTimeline)
		if v := ansi.Strip(hs.view()); strings.Count(v, "skipped") != 1 {
			t.Fatalf("%dx%d: the skipped lines are said %d times:\n%s", size.w, size.h, strings.Count(v, "skipped"), v)
		}
		for _, b := range hs.m.ShortHelp() {
			if b.Help().Key == hs.m.keys.Skipped.Help().Key {
				t.Fatalf("%dx%d: the footer names %s again", size.w, size.h, b.Help().Key)
			}
		}
	}
}

// Picker filter: enter applies and opens in one press, ctrl+u clears the
// line, esc clears an applied filter, and clearing keeps the cursor on
// the selected session.
func TestPickerFilterKeys(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	hs.focusOn(panePicker)
	hs.Press("/")
	hs.Type("currency")
	hs.Press("enter")
	if hs.m.ls.file != paths["currency"] || hs.m.focus != paneTimeline {
		t.Fatalf("enter should apply the filter and open the session in one press (open %s, focus %d)", hs.m.ls.file, hs.m.focus)
	}
	hs.focusOn(panePicker)
	if hs.m.picker.list.Query() != "currency" {
		t.Fatal("the applied filter stays")
	}
	hs.Press("esc")
	if hs.m.picker.list.Query() != "" || hs.m.picker.currentPath() != paths["currency"] {
		t.Fatalf("esc clears the applied filter and keeps the cursor on the session (%q, %s)", hs.m.picker.list.Query(), hs.m.picker.currentPath())
	}
	hs.Press("/")
	hs.Type("zzz") // matches nothing: no row is under the cursor
	hs.Press("ctrl+u")
	if !hs.m.picker.list.Filtering() || hs.m.picker.list.Query() != "" || hs.m.picker.list.Len() != 2 {
		t.Fatal("ctrl+u clears the typed filter and keeps the line open")
	}
	if hs.m.picker.currentPath() != paths["currency"] {
		t.Fatal("clearing returns the cursor to the session it was on")
	}
	hs.Type("round") // the cursor goes to the only match…
	hs.Press("ctrl+u")
	if hs.m.picker.currentPath() != paths["rounding"] {
		t.Fatal("…and clearing keeps it there")
	}
	hs.Press("esc")
	if hs.m.picker.list.Filtering() || hs.m.focus != panePicker {
		t.Fatal("esc closes the filter line")
	}
}

// The Tree pane's own search: `/` finds entries (also inside folds), n
// and N step through the matches, esc drops it; the timeline's filter is
// untouched.
func TestTreeSearchFindsAndSteps(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTree)
	hs.Press("g")
	// Fold the abandoned branch first: the search must still find e09.
	hs.m.tree.moveTo(hs.m.ls, hs.entryIndex("e09"))
	hs.Press("left") // folds nothing at e09 (a leafless step) or jumps up
	hs.Press("g")
	hs.Press("/")
	hs.Type("user")
	if !hs.CapturesInputNow() {
		t.Fatal("the search line takes the keyboard while typing")
	}
	first := hs.m.ls.entryID(hs.m.tree.current())
	if first != "e03" {
		t.Fatalf("typing jumps to the first user entry, got %s", first)
	}
	hs.Press("enter")
	if hs.m.tl.list.Query() != "" {
		t.Fatal("the tree's search must not filter the timeline")
	}
	var seen []string
	for range 5 { // e16 is the compaction, whose summary mentions the user
		hs.Press("n")
		seen = append(seen, hs.m.ls.entryID(hs.m.tree.current()))
	}
	if got := strings.Join(seen, " "); got != "e12 e16 e17 e09 e03" {
		t.Fatalf("n steps through every user entry in tree order and wraps, got %s", got)
	}
	hs.Press("N")
	if id := hs.m.ls.entryID(hs.m.tree.current()); id != "e09" {
		t.Fatalf("N steps back, got %s", id)
	}
	if sel := lastSelection(t, hs); sel.EntryID != "e09" {
		t.Fatalf("each jump moves the selection, got %s", sel.EntryID)
	}
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "/ user  match 5/5") {
		t.Fatalf("the tree shows its search line and counter:\n%s", view)
	}
	uitest.Golden(t, "tree_search_160x48", hs.view())
	hs.Press("esc")
	if hs.m.search.Active() || strings.Contains(ansi.Strip(hs.view()), "/ user") {
		t.Fatal("esc drops the search")
	}
}

// CapturesInputNow reports whether the panel takes typed keys.
func (hs *harness) CapturesInputNow() bool { return hs.m.CapturesInput() }

// Jump to an entry by id (or a unique prefix) and back to the leaf.
func TestGotoEntryAndBackToLeaf(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(panePicker)
	hs.Press("#")
	if hs.m.focus != paneTimeline || !hs.m.CapturesInput() {
		t.Fatal("# opens the entry prompt in the timeline")
	}
	hs.Type("e0")
	if !strings.Contains(ansi.Strip(hs.view()), "# entry id: e0") {
		t.Fatalf("the prompt shows what is typed:\n%s", ansi.Strip(hs.view()))
	}
	hs.Press("enter")
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, `"e0" starts 9 entry ids`) {
		t.Fatalf("an ambiguous prefix is said, got %q", st)
	}
	hs.Press("#")
	hs.Type("e10")
	hs.Press("enter")
	if sel := lastSelection(t, hs); sel.EntryID != "e10" || hs.m.ls.entryID(hs.m.tl.leaf) != "e10" {
		t.Fatalf("enter goes to e10 on its branch, got %+v", sel)
	}
	hs.Press("L")
	if sel := lastSelection(t, hs); sel.EntryID != "e19" || !sel.AtLeaf || hs.m.tl.leaf != hs.m.ls.leaf {
		t.Fatalf("L goes back to the leaf of the active branch, got %+v", sel)
	}
	hs.Press("#")
	hs.Type("e1 zz")
	hs.Press("ctrl+w") // the text keys (form.text.*) edit the prompt too
	if v := ansi.Strip(hs.view()); !strings.Contains(v, "# entry id: e1 ") || strings.Contains(v, "e1 zz") {
		t.Fatalf("ctrl+w deletes the word before the cursor:\n%s", v)
	}
	hs.Press("esc")
	if hs.m.CapturesInput() {
		t.Fatal("esc closes the prompt")
	}
}

// y copies the entry's text; Y (and y in the context view) copies the
// request at the entry as the provider received it: the request document
// `payload show session:FILE#ENTRY --json` prints as request.payload —
// for an assistant entry the request that produced it.
func TestCopyTheContextAsTheProviderReceivesIt(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("g", "down", "down", "down", "down", "down") // e06
	clip := pressCopy(t, hs, "Y")
	var req struct {
		Model    string
		Messages []map[string]any
	}
	if err := json.Unmarshal([]byte(clip), &req); err != nil {
		t.Fatalf("the request is copied as JSON: %v\n%s", err, clip)
	}
	msgs := req.Messages
	if req.Model != "anthropic/claude-sonnet-4-5" || len(msgs) < 3 || msgs[0]["role"] != "user" || msgs[len(msgs)-1]["role"] != "toolResult" {
		t.Fatalf("the request that produced e06 ends with the tool result it answered: %s", clip)
	}
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "copied the request as sent at e06") {
		t.Fatalf("the timeline says what was copied, got %q", st)
	}
	hs.Press("c")
	if again := pressCopy(t, hs, "y"); again != clip {
		t.Fatal("y in the context view copies the same request")
	}
	if st := hs.m.status[paneDetail].Text(); !strings.Contains(st, "copied the request as sent") {
		t.Fatalf("the note shows in the pane that asked (the detail), got %q", st)
	}
}

// The wheel scrolls the pane under the pointer, focused or not; a click
// focuses a pane and puts its cursor on the clicked row.
func TestMouseWheelAndClickActOnThePaneUnderThePointer(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.view()
	l := hs.m.layout()
	treeTop := l.picker.h
	beforeTree := hs.m.tree.list.Cursor()
	beforeTL := hs.m.tl.list.Cursor()
	// The tree shows every row at this size: scroll the timeline instead
	// by pointing at it from the tree's focus.
	hs.focusOn(paneTree)
	hs.Send(tea.MouseWheelMsg{X: l.picker.w + 5, Y: 3, Button: tea.MouseWheelUp})
	if hs.m.focus != paneTree {
		t.Fatal("the wheel does not move the focus")
	}
	if hs.m.tl.list.Cursor() == beforeTL && hs.m.tl.list.Len() > l.timeline.h {
		t.Fatal("the wheel over the timeline scrolls the timeline")
	}
	hs.view()
	// Click the third row of the tree (inside its top border).
	hs.focusOn(paneTimeline)
	hs.view()
	hs.Send(tea.MouseClickMsg{X: 4, Y: treeTop + 1 + 2, Button: tea.MouseLeft})
	if hs.m.focus != paneTree || hs.m.tree.list.Cursor() != 2 || hs.m.tree.list.Cursor() == beforeTree {
		t.Fatalf("a click focuses the tree and selects row 2 (focus %d, cursor %d)", hs.m.focus, hs.m.tree.list.Cursor())
	}
	if sel := lastSelection(t, hs); sel.EntryID != hs.m.ls.sess.Entries[hs.m.tree.current()].ID {
		t.Fatalf("the clicked entry becomes the selection, got %s", sel.EntryID)
	}
	hs.view()
	hs.Send(tea.MouseClickMsg{X: 4, Y: treeTop + 1 + 2, Button: tea.MouseLeft})
	if hs.m.focus != paneTimeline {
		t.Fatal("clicking the row under the cursor opens it, as enter does")
	}
	// A click in the picker's border only focuses it.
	hs.Send(tea.MouseClickMsg{X: 4, Y: 0, Button: tea.MouseLeft})
	if hs.m.focus != panePicker {
		t.Fatal("a click on a pane's border focuses the pane")
	}
}

// A search stays right when the tree's filter changes what it shows: the
// matches are recomputed in place, the cursor stays.
func TestTreeSearchFollowsTheTreeFilter(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTree)
	hs.Press("g", "/")
	hs.Type("model")
	hs.Press("enter")
	if hs.m.search.Count() != 0 {
		t.Fatalf("the default filter hides model changes: %d matches", hs.m.search.Count())
	}
	hs.Press("f") // all entries
	if hs.m.search.Count() != 1 || !hs.m.tree.hits[hs.entryIndex("e01")] {
		t.Fatalf("showing every entry finds the model change: %d matches", hs.m.search.Count())
	}
}

// Another panel's append (a capability action) moves a leaf selection to
// the new leaf too.
func TestAnAppendByAnotherPanelMovesTheLeafSelection(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	appendLine(t, paths["rounding"], `{"type":"custom","id":"e20","parentId":"e19","timestamp":"2026-11-27T10:04:00.000Z","customType":"pi-forge-capability-event","data":{}}`)
	hs.Send(common.SessionWrittenMsg{File: paths["rounding"]})
	if sel := lastSelection(t, hs); sel.EntryID != "e20" || !sel.AtLeaf {
		t.Fatalf("the selection follows the leaf the append made, got %+v", sel)
	}
}

// A jump from another panel names an entry; the panel says whether it is
// the leaf (the selection at the leaf before does not carry over).
func TestAJumpGoesToItsEntryAndSaysWhetherItIsTheLeaf(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	if !lastSelection(t, hs).AtLeaf {
		t.Fatal("the panel opens at the leaf")
	}
	hs.jump(paths["rounding"], "e05", "")
	if id := hs.m.ls.entryID(hs.m.tl.current()); id != "e05" {
		t.Fatalf("the jump goes to e05, cursor on %s", id)
	}
	if sel := lastSelection(t, hs); sel.EntryID != "e05" || sel.AtLeaf {
		t.Fatalf("the leaf flag: %+v", sel)
	}
	hs.jump(paths["currency"], "f01", "")
	if sel := lastSelection(t, hs); sel.SessionFile != paths["currency"] || sel.EntryID != "f01" || sel.AtLeaf {
		t.Fatalf("in another session too: %+v", sel)
	}
}
