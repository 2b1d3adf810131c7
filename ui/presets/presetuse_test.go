package presets

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

// presetCursor puts the list's cursor on the Preset key.
func (hs *harness) presetCursor(key string) {
	hs.TB().Helper()
	for i, p := range hs.m.lib.Presets {
		if p.Key() == key {
			hs.m.focus = paneList
			hs.m.presets.SetCursor(i)
			return
		}
	}
	hs.TB().Fatalf("no preset %s", key)
}

// + on a Preset in the list shows the selection entry it will append and
// pi-forge's prompt-cache notice (here: no request compiled with a Preset
// yet, so it cannot be estimated); y appends it, and the session then records
// the Preset as active (what preset/capability status reads).
func TestUsePresetFromTheList(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	hs.presetCursor("project:alpha")
	before := readFile(t, hs.sessFile)
	hs.Press("+")
	text := dialogText(hs)
	for _, want := range []string{"Use Preset project:alpha in the session?", "pi-forge: Switching may change the system prompt; prompt cache impact cannot be estimated until a request has been compiled.", "pi-forge-prompt-stack-state"} {
		if !strings.Contains(text, want) {
			t.Errorf("the dialog does not say %q:\n%s", want, text)
		}
	}
	if readFile(t, hs.sessFile) != before {
		t.Fatal("written before the confirmation")
	}
	hs.Press("y")
	if got := statusText(hs); !strings.Contains(got, "pi-forge: active prompt stack alpha") {
		t.Fatalf("status %q", got)
	}
	s, err := session.Open(hs.sessFile)
	if err != nil {
		t.Fatal(err)
	}
	if a := replay.ActivePresetAt(s, s.LeafIndex()); a.Choice != replay.PresetSelected || a.Selector != "project:alpha" {
		t.Fatalf("the session's active Preset is %+v", a)
	}
	// Asking again: it is active already, nothing to append.
	leaf, _ := s.Leaf()
	hs.com.Selection.EntryID = leaf.ID
	hs.Press("+")
	if hs.m.topDialog() != nil || !strings.Contains(statusText(hs), "nothing to append") {
		t.Fatalf("an active Preset asked again: dialog %q, status %q", dialogText(hs), statusText(hs))
	}
}

// In an untrusted project pi-forge refuses the switch; the notice says so
// with the project, and nothing is written.
func TestUsePresetRefusedUntrusted(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	hs.com.Workspace.Trust.Trusted = false
	hs.presetCursor("project:alpha")
	before := readFile(t, hs.sessFile)
	hs.Press("+", "y")
	if readFile(t, hs.sessFile) != before {
		t.Fatal("an untrusted project's session was written")
	}
	hs.Press("+")
	if d := hs.m.topDialog(); d == nil || d.kind != dialogNotice || !strings.Contains(d.body, "Nothing will be written") {
		t.Fatalf("no refusal: %q", dialogText(hs))
	}
}
