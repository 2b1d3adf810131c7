package presets

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// Opening a Preset parses its file bytes: that runs in a command, and
// Update only installs the parsed draft it brings back.
func TestOpeningParsesTheFileInACommand(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	before := hs.m.d
	hs.m.focus = paneList
	hs.m.presets.SetCursor(1) // beta
	_, cmd := hs.m.Update(uitest.Key("enter"))
	if hs.m.d != before || hs.m.open.Key() != "project:alpha" {
		t.Fatal("Update replaced the draft itself: the file was parsed on the UI goroutine")
	}
	if cmd == nil {
		t.Fatal("opening returns no command")
	}
	hs.Run(cmd)
	if hs.m.open.Key() != "project:beta" || hs.m.d == before || hs.m.d.ID() != "beta" {
		t.Fatalf("the command's result opens beta, open %s", hs.m.open.Key())
	}
	// A result that arrives after a newer request is dropped.
	hs.m.focus = paneList
	_, first := hs.m.Update(uitest.Key("enter")) // beta again
	hs.m.presets.SetCursor(0)
	_, second := hs.m.Update(uitest.Key("enter")) // alpha
	hs.Run(second)
	hs.Run(first)
	if hs.m.open.Key() != "project:alpha" {
		t.Fatalf("an older open overrode a newer one: open %s", hs.m.open.Key())
	}
}

// The rows are cached under the theme, so a theme switch draws every row
// anew: the screen after a switch is the screen a panel started in the
// new theme draws.
func TestThemeSwitchRedrawsTheRows(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.openByID("project:beta")
	dark := hs.m.View()
	light := themes.For(themes.Light, false, false)
	hs.com.Styles = light
	hs.Send(common.ThemeChangedMsg{Styles: light})
	switched := hs.m.View()
	if switched == dark {
		t.Fatal("the view did not change with the theme")
	}
	fresh := newHarnessOpts(t, 160, 48, true, nil)
	fresh.com.Styles = light
	fresh.openByID("project:beta")
	if want := fresh.m.View(); switched != want {
		t.Fatalf("rows kept colours of the old theme:\n--- after the switch\n%q\n--- started light\n%q", firstDiff(switched, want), firstDiff(want, switched))
	}
	uitest.GoldenANSI(t, "items_light_160x48", switched)
}

// firstDiff is the first line of a that differs from b.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return al[i]
		}
	}
	return ""
}

// An older session entry records the active Preset by its bare id; pi-forge
// resolves it like a selector, and so does the marker.
func TestActiveMarkerResolvesABareID(t *testing.T) {
	ws, sess := testWorkspace(t)
	data, err := os.ReadFile(sess)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sess, []byte(strings.Replace(string(data), `"activeStackId":"project:alpha"`, `"activeStackId":"alpha"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys, Workspace: ws,
		Selection: common.Selection{SessionFile: sess, EntryID: "e0000004"}}
	m := New(com)
	m.SetSize(160, 48)
	hs := uitest.ForPanel(t, m, com)
	hs.Run(m.Init())
	if m.active == nil || m.active.Key() != "project:alpha" {
		t.Fatalf("the bare id alpha resolves to project:alpha, got %v", m.active)
	}
	if view := ansi.Strip(m.View()); !strings.Contains(view, "▶P alpha") {
		t.Fatalf("active marker missing for a bare id:\n%s", view)
	}
	if m.open.Key() != "project:alpha" {
		t.Fatalf("the session's active Preset opens first, open %s", m.open.Key())
	}
}

// Quitting asks while the draft is unsaved, typing in a block included
// (the text is in the draft at once), and while a form field holds text.
func TestUnsavedNamesWhatQuitWouldDiscard(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	if _, dirty := hs.m.Unsaved(); dirty {
		t.Fatal("a fresh draft has nothing to lose")
	}
	hs.Press("enter")
	hs.Type("x")
	if what, dirty := hs.m.Unsaved(); !dirty || what != "the unsaved changes to project:alpha" {
		t.Fatalf("typing in a block: %q %v", what, dirty)
	}
	hs.Press("backspace", "esc")
	if _, dirty := hs.m.Unsaved(); dirty {
		t.Fatal("text typed back to the file's is nothing to lose")
	}
	openSettingsForm(hs, formContext)
	hs.Press("down", "down", "enter") // the separator field: a text input
	if what, dirty := hs.m.Unsaved(); !dirty || !strings.Contains(what, "Context options") {
		t.Fatalf("a form field being edited: %q %v", what, dirty)
	}
}
