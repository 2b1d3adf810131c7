package presets

import (
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// TestPartsAskThePanelInsteadOfActing holds the sub-models to their
// contract: a key that touches more than the part comes back as an
// intent, and the part alone leaves the panel as it was (no dialog, no
// draft, no focus change); the panel then acts on the intent.
func TestPartsAskThePanelInsteadOfActing(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	m := hs.m

	// The Preset list: enter and x name the Preset under the cursor.
	m.focus = paneList
	want := m.libraryList.selected()
	if want == nil {
		t.Fatal("no Preset under the list's cursor")
	}
	open := m.open
	cmd, in := m.libraryList.Update(uitest.Key("enter"))
	if got, ok := in.(openPresetIntent); cmd != nil || !ok || got.p != want || m.open != open {
		t.Fatalf("enter: cmd %v, intent %#v, open %v", cmd != nil, in, m.open)
	}
	if _, in = m.libraryList.Update(uitest.Key("x")); in != (deletePresetIntent{want}) || m.dialogs.Open() {
		t.Fatalf("x: intent %#v, dialog open %v", in, m.dialogs.Open())
	}
	if _, in = m.libraryList.Update(uitest.Key("a")); in != (newPresetIntent{}) || m.dialogs.Open() {
		t.Fatalf("a: intent %#v", in)
	}
	hs.Run(m.run(nil, deletePresetIntent{want}))
	if d := m.topDialog(); d == nil || d.title != "Delete "+want.Key()+"?" {
		t.Fatalf("the panel did not act on the delete intent: %+v", d)
	}
	hs.Press("esc")

	// The preview dock: esc asks for the items.
	m.focus = panePreview
	if _, in = m.dock().Update(uitest.Key("esc")); in != (focusIntent{pane: paneItems}) || m.focus != panePreview {
		t.Fatalf("esc in the dock: intent %#v, focus %d", in, m.focus)
	}

	// The draft editor: x on an item asks for the delete, typing into a
	// block asks for the preview and the check.
	hs.openByID("project:alpha")
	m.focus = paneItems
	m.items.SetCursor(0)
	if _, in = m.draftEditor.Update(uitest.Key("x"), paneItems); in != (deleteItemIntent{cur: 0}) || m.dialogs.Open() {
		t.Fatalf("x on an item: intent %#v, dialog open %v", in, m.dialogs.Open())
	}
	if _, in = m.draftEditor.Update(uitest.Key("esc"), paneItems); in != (focusIntent{pane: paneList}) || m.focus != paneItems {
		t.Fatalf("esc on the items: intent %#v, focus %d", in, m.focus)
	}
	m.items.SetCursor(hs.itemIndex("rules"))
	m.afterItemMove()
	m.focus = paneEditor
	hs.Press("enter")
	if !m.editing {
		t.Fatal("enter on a block does not type into it")
	}
	v := m.d.Version()
	if _, in = m.draftEditor.Update(uitest.Key("z"), paneEditor); in != (draftTypedIntent{}) || m.d.Version() == v {
		t.Fatalf("typing: intent %#v, draft version %d (was %d)", in, m.d.Version(), v)
	}
	hs.Press("esc")

	// The Profiles view: n asks for a new profile, p is the panel's key.
	hs.Press("p")
	if !m.showProfile {
		t.Fatal("p does not show the profiles")
	}
	if _, in = m.profilesView.Update(uitest.Key("a")); in != (newProfileIntent{}) || m.dialogs.Open() {
		t.Fatalf("a in the profiles: intent %#v, dialog open %v", in, m.dialogs.Open())
	}
	if _, in = m.profilesView.Update(uitest.Key("p")); in != (passIntent{}) || !m.showProfile {
		t.Fatalf("p in the profiles: intent %#v", in)
	}
	if _, in = m.profilesView.Update(uitest.Key("u")); in != (statusIntent{"nothing to undo", false}) || m.status == "nothing to undo" {
		t.Fatalf("u in the profiles: intent %#v, status %q", in, m.status)
	}
}
