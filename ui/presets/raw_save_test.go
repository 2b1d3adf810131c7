package presets

import (
	"os"
	"strings"
	"testing"
)

// ctrl+s while the raw JSON being typed does not parse saves nothing: the
// draft kept its last valid state, which is not what the user sees.
func TestSaveRefusedWhileRawJSONDoesNotParse(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("space") // an edit, so there is something to save
	hs.m.items.SetCursor(hs.m.d.Len() + len(settingsRows) - 1)
	hs.Press("enter", "enter", "ctrl+end", "backspace")
	before, _ := os.ReadFile(hs.m.open.Path)
	hs.Press("ctrl+s")
	after, _ := os.ReadFile(hs.m.open.Path)
	if string(before) != string(after) || !strings.Contains(statusText(hs), "not saved") || !strings.Contains(statusText(hs), "raw JSON") {
		t.Fatalf("saved while the raw JSON does not parse; status %q", statusText(hs))
	}
	hs.Press("esc", "ctrl+s")
	after, _ = os.ReadFile(hs.m.open.Path)
	if string(before) == string(after) {
		t.Fatalf("esc dropped the text, yet the draft was not saved: %q", statusText(hs))
	}
}

// The same for a profile's raw JSON.
func TestProfileSaveRefusedWhileRawJSONDoesNotParse(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("m", "enter", "ctrl+end", "backspace")
	hs.Press("ctrl+s")
	if !strings.Contains(statusText(hs), "not saved") {
		t.Fatalf("status %q", statusText(hs))
	}
}
