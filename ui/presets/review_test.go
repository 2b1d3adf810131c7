package presets

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/uitest"
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

// pressUnsettled delivers keys the way a fast typist's reach the panel: each
// before the commands of the previous one have answered; then the commands
// run in the order they were returned.
func (hs *harness) pressUnsettled(keys ...string) {
	hs.TB().Helper()
	var cmds []tea.Cmd
	for _, k := range keys {
		_, cmd := hs.m.Update(uitest.Key(k))
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		hs.Run(cmd)
	}
}

// TestFormKeysWaitForTheEditBeforeThem: a key typed before the form's
// previous edit came back reaches the form rebuilt from that edit, in every
// form (here the Properties form's mode: three cycles of three values come
// back to the start; the stale form cycled from the old value each time).
func TestFormKeysWaitForTheEditBeforeThem(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.m.items.SetCursor(hs.m.d.Len()) // Properties
	hs.Press("enter", "down", "down")  // name, description, mode
	mode := func() string { return string(hs.m.d.Stack().Mode) }
	before := mode()
	hs.pressUnsettled("space", "space")
	if mode() == before {
		t.Fatalf("two cycles left the mode at %q", before)
	}
	hs.pressUnsettled("space")
	if mode() != before {
		t.Fatalf("three cycles of replace|append|prepend gave %q, want %q", mode(), before)
	}
}

// TestPolicyAndProfileFormsWaitToo: the gate is the panel's, so the
// policy form's m and the profile form's space (hosted by the profiles
// view) are held the same way.
func TestPolicyAndProfileFormsWaitToo(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeStack("pol", `{"schemaVersion":2,"id":"pol","items":[],"tools":{"allow":["read","ls"]}}`))
	hs.openByID("project:pol")
	hs.itemsPane()
	hs.m.items.SetCursor(hs.m.d.Len() + 2) // Tool policy
	hs.Press("enter")
	hs.pressUnsettled("m", "m", "m") // allow → deny → none → allow
	if tools := hs.m.d.Stack().Tools; tools == nil || len(tools.Allow) != 2 || len(tools.Deny) != 0 {
		t.Fatalf("three mode cycles gave %+v, want the allow patterns back", tools)
	}

	hs.Press("esc", "esc", "p")
	for i, p := range hs.m.lib.Profiles {
		if p.ID == "reviewer" {
			hs.m.profiles.SetCursor(i)
		}
	}
	hs.Press("i", "down", "down", "down", "down") // thinkingLevel (medium)
	seven := []string{"space", "space", "space", "space", "space", "space", "space"}
	hs.pressUnsettled(seven...) // off … max: seven levels come round
	if got, _ := hs.m.prof.tree.Get("thinkingLevel"); got != "medium" {
		t.Fatalf("seven cycles of seven levels gave %v, want medium", got)
	}
}
