package capabilities

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// The new-capability prompt edits with the keymap's text keys (a
// rebinding of form.text.word-left reaches it) and has the theme's cursor.
func TestDialogInputFollowsTheTextKeysAndTheme(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	if err := keymap.Apply(hs.com.Keys, map[string][]string{"form.text.word-left": {"ctrl+g"}}); err != nil {
		t.Fatal(err)
	}
	hs.com.Styles = themes.For(themes.Light, true, false)
	hs.Press("a")
	if hs.prompt() == nil {
		t.Fatal("a opens no prompt")
	}
	hs.Type("web-fetch")
	hs.Press("ctrl+g")
	hs.Type("x")
	if got := hs.prompt().input.Value(); got != "xweb-fetch" {
		t.Fatalf("after ctrl+g (word left) and x: %q", got)
	}
	cur := hs.prompt().input.Styles().Cursor
	gr, gg, gb, _ := cur.Color.RGBA()
	wr, wg, wb, _ := hs.com.Styles.Text.Normal.GetForeground().RGBA()
	if cur.Blink || gr != wr || gg != wg || gb != wb {
		t.Errorf("cursor %v blink %v, want the theme's %v", cur.Color, cur.Blink, hs.com.Styles.Text.Normal.GetForeground())
	}
}
