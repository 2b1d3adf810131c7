package presets

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/components/forms"
	"github.com/forgebench/forgebench/ui/uitest"
)

// click and wheel act at (x, y) of the panel after drawing a frame.
func click(hs *harness, x, y int) { uitest.Click(hs.Harness, x, y) }

func wheel(hs *harness, x, y int, down bool) { uitest.Wheel(hs.Harness, x, y, down) }

// The Presets panel took no clicks and scrolled the focused pane whatever
// was under the pointer. A click selects a Preset (a second one opens
// it, as enter does) and an item (a second one edits it).
func TestClickSelectsAndOpensAPreset(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	if hs.m.open == nil || hs.m.open.ID != "alpha" {
		t.Fatalf("the panel opens alpha first, got %+v", hs.m.open)
	}
	hs.m.focus = panePreview
	click(hs, 5, 3) // the list's third row: gamma
	if hs.m.focus != paneList || hs.m.presets.Cursor() != 2 || hs.m.open.ID != "alpha" {
		t.Fatalf("a click on gamma: focus %d cursor %d open %s", hs.m.focus, hs.m.presets.Cursor(), hs.m.open.ID)
	}
	click(hs, 5, 3)
	if hs.m.open.ID != "gamma" || hs.m.focus != paneItems {
		t.Fatalf("a click on the selected Preset opens it: open %s focus %d", hs.m.open.ID, hs.m.focus)
	}
	if got := hs.com.Selection.PresetID; got != "global:gamma" {
		t.Errorf("opening by click moves the shared selection, got %q", got)
	}
}

func TestClickSelectsAndEditsAnItem(t *testing.T) {
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		hs := newHarness(t, size[0], size[1], true)
		l := hs.m.layout()
		x, y := l.list.w+3, 1 // the wide layout: the items beside the list
		if !l.wide {
			x, y = 3, l.list.h+1 // narrow: under it
		}
		click(hs, x, y+1) // the second item: House Rules
		if hs.m.focus != paneItems || hs.m.items.Cursor() != 1 {
			t.Fatalf("%v: a click on the second item: focus %d cursor %d", size, hs.m.focus, hs.m.items.Cursor())
		}
		if !strings.Contains(hs.m.View(), "Block · House Rules") {
			t.Fatalf("%v: the editor follows the clicked item:\n%s", size, hs.m.View())
		}
		click(hs, x, y+1)
		if !hs.m.editing {
			t.Fatalf("%v: a click on the selected block types into it", size)
		}
		// While the block editor has the keyboard a click does nothing.
		click(hs, x, y)
		if !hs.m.editing || hs.m.items.Cursor() != 1 {
			t.Fatalf("%v: a click while typing moved the cursor to %d (editing %v)", size, hs.m.items.Cursor(), hs.m.editing)
		}
		hs.Press("esc")
		click(hs, x, y+4) // the first settings row: Properties
		if hs.m.form == nil || hs.m.formKind != formProps {
			t.Fatalf("%v: a click on Properties shows its form, got %q", size, hs.m.formKind)
		}
	}
}

// While a block is being typed the wheel over the items does not move
// the item under the editor (the keys cannot either): the text typed
// would land in a block the editor no longer names.
func TestWheelLeavesTheItemBeingTyped(t *testing.T) {
	hs := newHarness(t, 80, 14, true)
	l := hs.m.layout()
	if l.items.h-2 >= hs.m.d.Len()+len(settingsRows) {
		t.Fatalf("the items must scroll at this size (%d rows)", l.items.h-2)
	}
	hs.itemsPane()
	hs.Press("enter")
	if !hs.m.editing {
		t.Fatal("enter types into the first block")
	}
	for range 3 {
		wheel(hs, 3, l.list.h+2, true)
	}
	if !hs.m.editing || hs.m.items.Cursor() != 0 {
		t.Fatalf("the wheel while typing moved the item cursor to %d (editing %v)", hs.m.items.Cursor(), hs.m.editing)
	}
}

// The wheel scrolls the pane under the pointer, not the focused one.
func TestWheelScrollsThePaneUnderThePointer(t *testing.T) {
	hs := newHarness(t, 160, 20, true)
	l := hs.m.layout()
	hs.m.focus = paneList
	px, py := l.list.w+l.items.w+3, l.editor.h+2 // inside the preview dock
	last := len(hs.m.dock().lines(hs.m.dock().width())) - hs.m.paneRows(panePreview)
	if last < 3 {
		t.Fatalf("the preview needs more lines than its dock for this test (%d over)", last)
	}
	wheel(hs, px, py, true)
	if hs.m.previewOff != 3 || hs.m.focus != paneList || hs.m.presets.Cursor() != 0 {
		t.Fatalf("wheel over the preview: offset %d focus %d list cursor %d", hs.m.previewOff, hs.m.focus, hs.m.presets.Cursor())
	}
	for range 50 {
		wheel(hs, px, py, true)
	}
	if hs.m.previewOff != last {
		t.Fatalf("the wheel stops at the preview's end: offset %d, want %d", hs.m.previewOff, last)
	}
	wheel(hs, px, py, false)
	if hs.m.previewOff != max(0, last-3) {
		t.Fatalf("wheel up right after the end: offset %d, want %d", hs.m.previewOff, last-3)
	}
	// Over the item list the wheel moves its window and the cursor as far
	// as it must; the editor follows the item under the cursor.
	hs = newHarness(t, 160, 10, true)
	hs.m.focus = paneList
	for range 5 {
		wheel(hs, l.list.w+3, 3, true)
	}
	if c := hs.m.items.Cursor(); c == 0 || hs.m.focus != paneList {
		t.Fatalf("wheel over the items: cursor %d focus %d", c, hs.m.focus)
	}
	if hs.m.formRow != hs.m.items.Cursor() && hs.m.formKindAt(hs.m.items.Cursor()) != "" {
		t.Errorf("the form does not follow the wheel: form row %d cursor %d", hs.m.formRow, hs.m.items.Cursor())
	}
}

// A block longer than the editor pane scrolls under the wheel, and the
// next block shows from its top.
func TestWheelScrollsALongBlock(t *testing.T) {
	hs := newHarness(t, 160, 20, true)
	hs.itemsPane()
	hs.Press("enter")
	for i := range 40 {
		hs.Type("line " + string(rune('a'+i%26)))
		hs.Press("enter")
	}
	hs.Press("esc")
	hs.itemsPane()
	l := hs.m.layout()
	ex, ey := l.list.w+l.items.w+3, 2
	before := hs.m.draftEditor.editorView(l.editor, false, hs.m.compiled())
	wheel(hs, ex, ey, true)
	if hs.m.blockOffset() != 3 || hs.m.draftEditor.editorView(l.editor, false, hs.m.compiled()) == before {
		t.Fatalf("wheel over a long block: offset %d", hs.m.blockOffset())
	}
	for range 40 {
		wheel(hs, ex, ey, true)
	}
	hs.m.View()
	if off := hs.m.blockOffset(); off == 0 || off > 42 {
		t.Fatalf("the block's scroll stops at its end, got %d", off)
	}
	// The wrapped block is kept for the next frames, and made anew once
	// the draft changes.
	hs.m.View()
	kept := &hs.m.blockWrap.lines[0]
	hs.m.View()
	if &hs.m.blockWrap.lines[0] != kept {
		t.Error("the block is wrapped again on every frame")
	}
	hs.Press("space", "u")
	hs.m.View()
	if hs.m.blockWrap.version != hs.m.d.Version() {
		t.Error("the wrapped block outlives an edit of the draft")
	}
	hs.Press("down")
	if hs.m.blockOffset() != 0 {
		t.Fatalf("the next block starts at its top, got %d", hs.m.blockOffset())
	}
	hs.Press("up")
	wheel(hs, ex, ey, true)
	hs.openByID("project:beta")
	hs.Press("y") // discard the typed lines
	if hs.m.open.ID != "beta" || hs.m.blockOffset() != 0 {
		t.Fatalf("another Preset's first block starts at its top, got %d", hs.m.blockOffset())
	}
}

// The wrapped block was kept by item index and draft version only, so
// opening another Preset showed the old Preset's block text under the new
// one's item (both drafts at version 0).
func TestTheBlockShownIsTheOpenPresets(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	if !strings.Contains(hs.m.View(), "You are Alpha") {
		t.Fatal("alpha's first block shows")
	}
	hs.openByID("project:beta")
	first, _, _ := hs.m.d.Item(0)
	if view := hs.m.View(); strings.Contains(view, "You are Alpha") || !strings.Contains(view, strings.SplitN(first.Content, "\n", 2)[0]) {
		t.Fatalf("beta's first block shows, not alpha's:\n%s", view)
	}
}

// In the profiles view a click selects a profile and the detail follows.
func TestClickSelectsAProfile(t *testing.T) {
	hs := newHarness(t, 80, 24, true)
	hs.Press("p")
	click(hs, 5, 2) // the second profile: reviewer
	if hs.m.profiles.Cursor() != 1 || !strings.Contains(hs.m.View(), "Profile · reviewer") {
		t.Fatalf("a click on the second profile: cursor %d\n%s", hs.m.profiles.Cursor(), hs.m.View())
	}
	hs.Press("i")
	if !hs.m.profFocus {
		t.Fatal("i edits the profile")
	}
	click(hs, 5, 1) // back on the list: the form lets go of the keys
	if hs.m.profFocus || hs.m.profiles.Cursor() != 0 {
		t.Fatalf("a click on the list: form focus %v cursor %d", hs.m.profFocus, hs.m.profiles.Cursor())
	}
}

// Under a dialog the mouse does nothing.
func TestMouseIgnoredUnderADialog(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.Press("a")
	if hs.m.topDialog() == nil {
		t.Fatal("n opens the new-preset prompt")
	}
	click(hs, 5, 2)
	wheel(hs, 5, 2, true)
	if hs.m.presets.Cursor() != 0 || hs.m.focus != paneList {
		t.Fatalf("the mouse acted under a dialog: cursor %d focus %d", hs.m.presets.Cursor(), hs.m.focus)
	}
}

// Over a form the wheel moves the form's cursor, as its arrow keys do;
// the focus stays where it was.
func TestWheelMovesAFormsCursor(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.itemsPane()
	hs.m.items.SetCursor(hs.m.d.Len() + 2) // Tool policy
	hs.m.afterItemMove()
	if hs.m.form == nil || hs.m.formKind != formTools {
		t.Fatalf("the tool policy form shows, got %q", hs.m.formKind)
	}
	l := hs.m.layout()
	wheel(hs, l.list.w+l.items.w+3, 3, true)
	if row := forms.CursorOf(hs.m.form).Row; row == 0 || hs.m.focus != paneItems {
		t.Fatalf("wheel over the form: row %d focus %d", row, hs.m.focus)
	}
}

// The profiles view's footer said "n new preset" and "i item properties"
// where n makes a profile and i edits one.
func TestProfilesViewHelpNamesProfiles(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.Press("p")
	var hints []string
	for _, b := range hs.m.ShortHelp() {
		hints = append(hints, b.Help().Key+" "+b.Help().Desc)
	}
	got := strings.Join(hints, " • ")
	for _, want := range []string{"a new profile", "i edit profile", "enter open its preset", "p presets"} {
		if !strings.Contains(got, want) {
			t.Errorf("the profiles view's keys lack %q: %s", want, got)
		}
	}
	if strings.Contains(got, "new preset") || strings.Contains(got, "item properties") {
		t.Errorf("the profiles view's keys name Presets: %s", got)
	}
	if hs.m.keys.New.Help().Desc != "new preset" || hs.m.keys.Item.Help().Desc != "item properties" {
		t.Error("the panel's own bindings were relabelled, not copies")
	}
}

// The profile pane's border named its keys as text ("v JSON"): after the
// grammar moved the raw JSON to m it sent users to v. The border reads
// the bindings, a rebinding included.
func TestProfileBorderNamesTheBoundKeys(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.m.keys.RawJSON = key.NewBinding(key.WithKeys("ctrl+j"), key.WithHelp("ctrl+j", "raw JSON"))
	hs.openProfile("reviewer")
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "ctrl+j JSON") || strings.Contains(v, "v JSON") {
		t.Fatalf("the profile's border names the raw JSON key:\n%s", v)
	}
	hs.Press("ctrl+j")
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, "ctrl+j form") || !strings.Contains(v, hs.m.keys.Save.Help().Key+" save") {
		t.Fatalf("the raw editor's border names its keys:\n%s", v)
	}
}
