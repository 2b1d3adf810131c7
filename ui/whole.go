package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// The "view whole" overlay (common.Viewer): a panel asks for it with
// common.ShowWhole (v on its focused thing); the root draws it over the
// body, gives it every key until it closes, and carries out its copy and
// pager requests. What the pager and a failed load say goes to the root's
// footer.

// wholeMsg handles the kit's messages to the root: show a Whole, a pager
// that ended. ok is false for any other message.
func (m *Model) wholeMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case common.ViewWholeMsg:
		if msg.Err != nil {
			return m.status.Error(m.com, msg.Err.Error()), true
		}
		m.whole = common.NewViewer(msg.Whole)
		return m.whole.Layout(m.width), true
	case common.ViewerLaidOutMsg:
		if m.whole != nil {
			m.whole.Apply(msg)
		}
		return nil, true
	case common.PagerDoneMsg:
		if msg.Err != nil {
			return m.status.Error(m.com, msg.Err.Error()), true
		}
		return nil, true
	}
	return nil, false
}

// wholeKey gives a key to the open viewer.
func (m *Model) wholeKey(msg tea.KeyPressMsg) tea.Cmd {
	w := m.whole.Whole()
	switch m.whole.HandleKey(&m.keys, msg) {
	case common.ViewerClose:
		m.whole = nil
	case common.ViewerCopy:
		return tea.Batch(common.Clipboard(w.Text), m.status.Info(m.com, common.CopiedNote(w.Title, w.Text)))
	case common.ViewerPage:
		return m.com.Page(w)
	}
	return nil
}

// wholeMouse scrolls the open viewer with the wheel.
func (m *Model) wholeMouse(msg tea.MouseMsg) tea.Cmd {
	if wheel, ok := msg.(tea.MouseWheelMsg); ok {
		m.whole.Scroll(common.WheelDelta(wheel))
	}
	return nil
}
