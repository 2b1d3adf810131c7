package presets

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// whatIfTitle finds the dock title's what-if: "Δ <delta> tok · ~<n> cached".
var whatIfTitle = regexp.MustCompile(`Δ ([+-]\d+) tok · ~(\d+) cached`)

// TestItemToggleShowsTheTokenDeltaAndTheCachedPrefix: switching an item
// off in a clean draft shows, before anything is saved, what it saves and
// how much of the request stays cached (issue 26's what-if); a save makes
// the draft the new baseline, and an edit undone shows nothing.
func TestItemToggleShowsTheTokenDeltaAndTheCachedPrefix(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	if view := ansi.Strip(hs.m.View()); whatIfTitle.MatchString(view) {
		t.Fatalf("a clean draft shows a what-if:\n%s", view)
	}
	hs.Press("space") // the first item, Persona, off
	m := whatIfTitle.FindStringSubmatch(ansi.Strip(hs.m.View()))
	if m == nil {
		t.Fatalf("no what-if after switching Persona off:\n%s", ansi.Strip(hs.m.View()))
	}
	if !strings.HasPrefix(m[1], "-") || m[2] != "0" {
		t.Errorf("switching the first system item off: delta %s, cached %s; want fewer tokens and nothing cached", m[1], m[2])
	}
	hs.Press("space") // on again: the same request as saved
	if view := ansi.Strip(hs.m.View()); whatIfTitle.MatchString(view) {
		t.Errorf("the undone edit still shows a what-if:\n%s", view)
	}
	hs.Press("space")
	hs.Press("ctrl+s")
	if hs.m.d.Dirty() {
		t.Fatalf("not saved: %q", statusText(hs))
	}
	if view := ansi.Strip(hs.m.View()); whatIfTitle.MatchString(view) {
		t.Errorf("a saved draft still compares with the Preset before the save:\n%s", view)
	}
}
