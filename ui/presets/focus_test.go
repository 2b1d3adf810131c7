package presets

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/forgebench/forgebench/ui/common"
)

// A jump that asks to discard a dirty draft while the list's filter line
// is open: the question has the keys, and the footer names its answers,
// not the filter's (the three precedences used to disagree here: the keys
// went to the dialog while the footer offered enter and esc).
func TestADialogOverTheFilterLineOwnsTheFooter(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	hs.Press("space")
	if !hs.m.d.Dirty() {
		t.Fatal("space on an item toggles it")
	}
	hs.m.focus = paneList
	hs.Press("/")
	if !hs.m.presets.Filtering() {
		t.Fatal("/ opens the filter line")
	}
	other := ""
	for _, p := range hs.m.lib.Presets {
		if p.Key() != "project:alpha" {
			other = p.Key()
		}
	}
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{PresetID: other}})
	if hs.m.topDialog() == nil {
		t.Fatal("a jump over a dirty draft asks first")
	}
	want := helpKeys([]key.Binding{hs.m.keys.Confirm, hs.m.keys.Cancel})
	if got := helpKeys(hs.m.ShortHelp()); !slices.Equal(got, want) {
		t.Fatalf("footer %q, want the question's answers %q", got, want)
	}
	if _, ok := hs.m.focused().(dialogFocus); !ok || !hs.m.CapturesInput() {
		t.Fatalf("the dialog has the keys, focused is %T", hs.m.focused())
	}
	hs.Press("n")
	if hs.m.topDialog() != nil || !hs.m.presets.Filtering() {
		t.Fatal("n answers the question and leaves the filter line open")
	}
}

// The panel's three answers — where a key goes, the footer, whether typed
// text is captured — come from one part, walked here through the panel's
// states.
func TestFocusedPartFollowsThePanel(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	check := func(step string, want focusPart) {
		t.Helper()
		got := hs.m.focused()
		if got != want {
			t.Fatalf("%s: focused %T, want %T", step, got, want)
		}
		if !slices.Equal(helpKeys(hs.m.ShortHelp()), helpKeys(got.ShortHelp())) || hs.m.CapturesInput() != got.CapturesInput() {
			t.Fatalf("%s: the panel's help or capture is not its focused part's", step)
		}
	}
	m := hs.m
	check("list", paneFocus{m})
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	check("items", paneFocus{m})
	hs.m.items.SetCursor(m.d.Len()) // the first settings row: Properties
	hs.Press("enter")
	check("a settings form", editorFocus{m})
	hs.Press("esc")
	hs.m.items.SetCursor(hs.itemIndex("rules"))
	hs.m.afterItemMove()
	hs.m.focus = paneEditor
	hs.Press("enter")
	check("typing in a block", editorFocus{m})
	hs.Press("esc")
	hs.Press("D")
	check("the draft diff", diffFocus{m})
	hs.Press("esc")
	hs.Press("p")
	check("the profiles view", profilesFocus{m})
}
