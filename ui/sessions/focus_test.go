package sessions

import (
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// helpKeys are the keys of a footer, for comparing two.
func helpKeys(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key+" "+b.Help().Desc)
	}
	return out
}

// Which part has the keys is decided once (focused): the fork's question
// arriving while the entry prompt is open goes over it — it takes the
// keys (the prompt's text stays as typed) and gives the footer — and once
// answered the prompt has them again; the footer, CapturesInput and the
// keys follow the same part all along.
func TestFocusedPartTakesKeysFooterAndInput(t *testing.T) {
	hs, _ := newForkHarness(t, 160, 48, true, false)
	hs.selectAt("e05")
	if _, ok := hs.m.focused().(timelinePart); !ok || hs.m.CapturesInput() {
		t.Fatalf("the timeline has the keys: %T", hs.m.focused())
	}
	var plan tea.Msg
	hs.Intercept = func(msg tea.Msg) bool {
		if _, ok := msg.(forkPlannedMsg); ok {
			plan = msg
			return true
		}
		return false
	}
	hs.Press("C")
	hs.Intercept = nil
	if plan == nil {
		t.Fatal("C planned no fork")
	}
	hs.Press("#")
	hs.Type("e0")
	if _, ok := hs.m.focused().(promptFocus); !ok || !hs.m.CapturesInput() {
		t.Fatalf("the prompt has the keys: %T", hs.m.focused())
	}
	typing := helpKeys(hs.m.ShortHelp())
	hs.Send(plan)
	if _, ok := hs.m.focused().(dialogFocus); !ok || !hs.m.CapturesInput() {
		t.Fatalf("the question has the keys: %T", hs.m.focused())
	}
	if got, want := helpKeys(hs.m.ShortHelp()), helpKeys(hs.m.dialogs.ShortHelp()); !slices.Equal(got, want) {
		t.Fatalf("footer %v, the question's keys %v", got, want)
	}
	hs.Press("3", "n") // the question swallows 3; n answers it
	if hs.m.gotoID == nil || hs.m.gotoID.Value() != "e0" {
		t.Fatalf("the prompt lost its text under the question: %v", hs.m.gotoID)
	}
	if _, ok := hs.m.focused().(promptFocus); !ok || !slices.Equal(helpKeys(hs.m.ShortHelp()), typing) {
		t.Fatalf("after the answer the prompt has the keys again: %T", hs.m.focused())
	}
	hs.Type("7")
	hs.Press("enter")
	if hs.m.ls.sess.Entries[hs.m.currentEntry()].ID != "e07" {
		t.Fatalf("the prompt went to %s", hs.m.ls.sess.Entries[hs.m.currentEntry()].ID)
	}
	if _, ok := hs.m.focused().(timelinePart); !ok {
		t.Fatalf("the timeline has the keys again: %T", hs.m.focused())
	}
}
