package palette

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

type pickMsg struct{}

func openPalette(t *testing.T, keys keymap.Set) *uitest.Harness[Model] {
	t.Helper()
	h := uitest.New(t, New(keys.CommandPalette, keys.Forms.Text), func(m Model, msg tea.Msg) (Model, tea.Cmd) { return m.Update(msg) })
	h.Run(h.Model.Open([]Action{{Title: "Search all sessions", Msg: pickMsg{}}}))
	return h
}

// A user's rebinding of form.text.word-left moves the palette's cursor:
// the palette's input edits with the workbench's text keys.
func TestPaletteInputFollowsTheTextKeys(t *testing.T) {
	keys := keymap.DefaultSet()
	if err := keymap.Apply(&keys, map[string][]string{"form.text.word-left": {"ctrl+o"}}); err != nil {
		t.Fatal(err)
	}
	h := openPalette(t, keys)
	h.Type("all sessions")
	h.Press("ctrl+o")
	h.Type("x")
	if got := h.Model.input.Value(); got != "all xsessions" {
		t.Fatalf("after ctrl+o (word left) and x: %q", got)
	}
	h.Press("ctrl+w") // default delete-word-before
	if got := h.Model.input.Value(); got != "all sessions" {
		t.Fatalf("after ctrl+w: %q", got)
	}
}

// The palette's cursor has the theme's colour (bubbles' grey vanishes on
// a light terminal), follows a theme switch and does not blink.
func TestPaletteCursorTakesTheThemesColour(t *testing.T) {
	h := openPalette(t, keymap.DefaultSet())
	for _, mode := range []themes.Mode{themes.Light, themes.Dark} {
		st := themes.For(mode, true, false)
		cur := h.Model.themedInput(st).Styles().Cursor
		if cur.Blink {
			t.Error("the cursor blinks")
		}
		gr, gg, gb, _ := cur.Color.RGBA()
		wr, wg, wb, _ := st.Text.Normal.GetForeground().RGBA()
		if gr != wr || gg != wg || gb != wb {
			t.Errorf("%v: cursor colour %v, want %v", mode, cur.Color, st.Text.Normal.GetForeground())
		}
	}
}
