package payloads

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
)

// The picker's reference box edits with the keymap's text keys (a
// rebinding of form.text.word-left reaches it) and has the theme's cursor.
func TestPickerInputFollowsTheTextKeysAndTheme(t *testing.T) {
	hs := newHarness(t, 120, 40, false, "c0430f5a")
	if err := keymap.Apply(hs.com.Keys, map[string][]string{"form.text.word-left": {"ctrl+g"}}); err != nil {
		t.Fatal(err)
	}
	hs.Press("]", "G", "enter")
	m := hs.m
	if m.picker == nil || !m.picker.typing {
		t.Fatal("the type row opens no input")
	}
	m.picker.input.SetValue("")
	hs.Type("one two")
	hs.Press("ctrl+g")
	hs.Type("x")
	if got := m.picker.input.Value(); got != "one xtwo" {
		t.Fatalf("after ctrl+g (word left) and x: %q", got)
	}
	cur := m.picker.input.Styles().Cursor
	gr, gg, gb, _ := cur.Color.RGBA()
	wr, wg, wb, _ := hs.com.Styles.Text.Normal.GetForeground().RGBA()
	if cur.Blink || gr != wr || gg != wg || gb != wb {
		t.Errorf("cursor %v blink %v, want the theme's %v", cur.Color, cur.Blink, hs.com.Styles.Text.Normal.GetForeground())
	}
}
