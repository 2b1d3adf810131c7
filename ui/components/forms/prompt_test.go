package forms

import (
	"testing"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// The cursor of a one-line field takes its colour from the theme (bubbles'
// default, light grey, all but vanishes on a light terminal).
func TestPromptCursorFollowsTheTheme(t *testing.T) {
	km := keymap.DefaultTextEditor()
	for _, mode := range []themes.Mode{themes.Dark, themes.Light} {
		st := themes.For(mode, true, false)
		in := newInput(&st, &km, "", "x")
		if got, want := in.Styles().Cursor.Color, st.Text.Normal.GetForeground(); got != want {
			t.Errorf("%v: cursor colour %v, want the theme's text colour %v", mode, got, want)
		}
	}
}
