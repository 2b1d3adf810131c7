package presets

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// A Presets dialog's one-line input edits with the keymap's text keys (a
// rebinding of form.text.word-left reaches it) and shows the theme's
// steady cursor.
func TestPresetDialogInputFollowsTheTextKeysAndTheme(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	if err := keymap.Apply(hs.com.Keys, map[string][]string{"form.text.word-left": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	hs.com.Styles = themes.For(themes.Light, true, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("a")
	if hs.m.topDialog() == nil {
		t.Fatal("a does not ask for a name")
	}
	hs.Type("tone guide")
	hs.Press("ctrl+o")
	hs.Type("x")
	if got := hs.m.topDialog().input.Value(); got != "tone xguide" {
		t.Fatalf("after ctrl+o (word left) and x: %q", got)
	}
	hs.Press("ctrl+w")
	if got := hs.m.topDialog().input.Value(); got != "tone guide" {
		t.Fatalf("after ctrl+w (delete word back): %q", got)
	}
	cur := hs.m.topDialog().input.Styles().Cursor
	if cur.Blink {
		t.Error("the cursor blinks")
	}
	gr, gg, gb, _ := cur.Color.RGBA()
	wr, wg, wb, _ := hs.com.Styles.Text.Normal.GetForeground().RGBA()
	if gr != wr || gg != wg || gb != wb {
		t.Errorf("cursor colour %v, want the theme's %v", cur.Color, hs.com.Styles.Text.Normal.GetForeground())
	}
}
