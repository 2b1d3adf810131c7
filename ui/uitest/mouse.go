package uitest

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// Click draws a frame of the panel (a click reads what the last frame
// drew: the list rows under each line) and sends a left click at (x, y)
// of its own coordinates.
func Click(h *Harness[common.Panel], x, y int) {
	h.Model.View()
	h.Send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// Wheel draws a frame of the panel and turns the wheel once at (x, y):
// down, else up.
func Wheel(h *Harness[common.Panel], x, y int, down bool) {
	h.Model.View()
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	h.Send(tea.MouseWheelMsg{X: x, Y: y, Button: b})
}
