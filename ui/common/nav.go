package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
)

// NavMove applies the shared navigation keys to a position (a cursor or
// a scroll offset) in [0, last]: up and down move one, page up and down
// move page, top and bottom go to the ends. It returns the new position,
// clamped, and whether msg was a navigation key; every pane that moves or
// scrolls uses it, so the keys mean the same everywhere.
func NavMove(msg tea.KeyPressMsg, nav keymap.Nav, pos, page, last int) (int, bool) {
	switch {
	case key.Matches(msg, nav.Up):
		pos--
	case key.Matches(msg, nav.Down):
		pos++
	case key.Matches(msg, nav.PageUp):
		pos -= page
	case key.Matches(msg, nav.PageDown):
		pos += page
	case key.Matches(msg, nav.Top):
		pos = 0
	case key.Matches(msg, nav.Bottom):
		pos = last
	default:
		return pos, false
	}
	return Clamp(pos, 0, max(0, last)), true
}
