package payloads

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// mousePanes are the panes of what the panel shows (common.RouteMouse):
// the reference picker and the branch's requests scroll and select, a
// click on the selected row doing what enter does; the diff's block list
// and line diff under the A/B header are the requestdiff view's.
func (m *Model) mousePanes() []common.MousePane {
	whole := common.Rect{W: m.width, H: m.height}
	switch {
	case m.picker != nil:
		p := m.picker
		if p.typing || p.loading {
			return nil
		}
		pane := common.MousePane{Rect: whole, List: p.list, Activate: m.choosePicked}
		if p.err != "" { // the error line sits above the list
			pane.Skip = 1
		}
		return []common.MousePane{pane}
	case m.mode == modeBreaks:
		if m.brk.pending {
			return nil
		}
		skip := 1 // the report's summary, and the ref line when filtered
		if m.brk.only != "" {
			skip = 2
		}
		return []common.MousePane{{Rect: whole, Skip: skip, List: m.brk.list, Activate: m.activateBreak}}
	case m.mode == modeRequests:
		if m.reqs.pending {
			return nil
		}
		// The branch summary is the first line inside the frame.
		return []common.MousePane{{Rect: whole, Skip: 1, List: m.reqs.list,
			Moved: m.nextPredictions, Activate: m.activateRequest}}
	}
	return m.view.MousePanes(0, headerLines)
}

// handleMouse routes the wheel and clicks; nothing while a text input has
// the keyboard.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if _, click := msg.(tea.MouseClickMsg); click && m.CapturesInput() {
		return nil
	}
	return common.RouteMouse(msg, m.mousePanes()...)
}
