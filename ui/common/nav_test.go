package common

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
)

// TestNavMove: each navigation key moves the position as the panes need,
// clamped to [0, last]; another key leaves it and says it was not one.
func TestNavMove(t *testing.T) {
	nav := keymap.DefaultNav()
	press := func(code rune, text string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code, Text: text} }
	cases := []struct {
		name           string
		msg            tea.KeyPressMsg
		pos, want      int
		wantNavigation bool
	}{
		{"down", press('j', "j"), 3, 4, true},
		{"up", press('k', "k"), 3, 2, true},
		{"up at the top", press('k', "k"), 0, 0, true},
		{"page down", press(tea.KeyPgDown, ""), 3, 8, true},
		{"page down past the end", press(tea.KeyPgDown, ""), 8, 9, true},
		{"page up", press(tea.KeyPgUp, ""), 3, 0, true},
		{"top", press('g', "g"), 7, 0, true},
		{"bottom", press('G', "G"), 2, 9, true},
		{"not a navigation key", press('x', "x"), 5, 5, false},
	}
	for _, c := range cases {
		got, ok := NavMove(c.msg, nav, c.pos, 5, 9)
		if got != c.want || ok != c.wantNavigation {
			t.Errorf("%s: NavMove(%d) = %d, %v; want %d, %v", c.name, c.pos, got, ok, c.want, c.wantNavigation)
		}
	}
	if got, _ := NavMove(press('G', "G"), nav, 0, 5, -1); got != 0 {
		t.Errorf("bottom of nothing = %d, want 0", got)
	}
}
