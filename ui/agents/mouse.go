package agents

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// detailWidth is the wide dashboard's detail pane width: the list keeps
// what its columns need (wideListWidth) and the detail takes the free
// width, at least detailMin; View and the mouse panes share it.
func (m *Model) detailWidth() int { return max(detailMin, m.width-wideListWidth()) }

// detailMin is the narrowest detail pane of the wide dashboard.
const detailMin = 46

// mousePanes are the panes View draws on the current screen, with what
// the wheel and a click do in each (common.RouteMouse): the list scrolls
// and selects (a click on the selected row does what enter does), the
// detail and the transcript scroll.
func (m *Model) mousePanes() []common.MousePane {
	whole := common.Rect{W: m.width, H: m.height}
	switch {
	case m.screen == screenTranscript:
		return []common.MousePane{{Rect: whole,
			Scroll: func(delta int) tea.Cmd { m.scrollTranscript(delta); return nil }}}
	case m.live.tree == nil:
		return nil
	case m.screen == screenDetail:
		return []common.MousePane{m.detailMousePane(whole)}
	}
	// The list pane draws its column header on the first line inside the
	// border, then the rows.
	list := common.MousePane{Rect: whole, Skip: 1, List: m.agents.rows,
		Focus: func() { m.focus = paneList }, Moved: m.selectionMoved,
		Activate: func() tea.Cmd { return m.openSelected() }}
	if !m.wide() {
		return []common.MousePane{list}
	}
	detailW := m.detailWidth()
	list.Rect.W = m.width - detailW
	return []common.MousePane{list, m.detailMousePane(common.Rect{X: m.width - detailW, W: detailW, H: m.height})}
}

// detailMousePane is the selected agent's detail at r: the wheel scrolls
// it and a click focuses it.
func (m *Model) detailMousePane(r common.Rect) common.MousePane {
	return common.MousePane{Rect: r, Focus: func() { m.focus = paneDetail },
		Scroll: func(delta int) tea.Cmd { m.detail.scroll(delta); return nil }}
}

// handleMouse routes the wheel and clicks to the pane under the pointer.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	return common.RouteMouse(msg, m.mousePanes()...)
}
