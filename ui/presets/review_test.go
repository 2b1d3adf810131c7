package presets

import (
	"testing"
)

// TestListFilterTakesEveryLetter: while the Preset list filter is open,
// letters that are panel keys elsewhere (p profiles, u undo, r reload, n
// new, f fork, y copy, v preview) are text of the query.
func TestListFilterTakesEveryLetter(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("space") // an edit u would undo
	version := hs.m.d.Version()
	hs.m.focus = paneList
	hs.Press("/")
	hs.Type("alpunrfyvID")
	if hs.m.showProfile || hs.m.dlg != nil || hs.m.diff != nil {
		t.Fatalf("a letter of the query acted as a key: profiles %v, dialog %v, diff %v", hs.m.showProfile, hs.m.dlg != nil, hs.m.diff != nil)
	}
	if hs.m.d.Version() != version || !hs.m.d.Dirty() {
		t.Fatal("u in the query undid the draft's edit")
	}
	if got := hs.m.presets.Query(); got != "alpunrfyvID" {
		t.Fatalf("query %q", got)
	}
	hs.Press("esc")
	if hs.m.presets.Filtering() {
		t.Fatal("esc does not close the filter")
	}
}
