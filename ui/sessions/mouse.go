package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// mousePanes are the panes where View draws them at the current size and
// focus (the panel's own coordinates: the root hands it mouse events
// offset by the chrome above the body), with what the wheel and a click
// do in each (common.RouteMouse).
func (m *Model) mousePanes() []common.MousePane {
	l := m.layout()
	var at [paneCount]common.Rect
	if l.wide {
		at[panePicker] = common.Rect{X: 0, Y: 0, W: l.picker.w, H: l.picker.h}
		at[paneTree] = common.Rect{X: 0, Y: l.picker.h, W: l.tree.w, H: l.tree.h}
		at[paneTimeline] = common.Rect{X: l.picker.w, Y: 0, W: l.timeline.w, H: l.timeline.h}
		at[paneDetail] = common.Rect{X: l.picker.w, Y: l.timeline.h, W: l.detail.w, H: l.detail.h}
	} else {
		y := 0 // one column: the shown panes stack in pane order
		for p, r := range []rect{l.picker, l.tree, l.timeline, l.detail} {
			at[p] = common.Rect{X: 0, Y: y, W: r.w, H: r.h}
			y += r.h
		}
	}
	focus := func(p pane) func() { return func() { m.focus = p } }
	panes := []common.MousePane{
		{Rect: at[panePicker], List: m.picker.list, Focus: focus(panePicker), Activate: m.openPicked},
		{Rect: at[paneTree], Focus: focus(paneTree)},
		{Rect: at[paneTimeline], Focus: focus(paneTimeline)},
		{Rect: at[paneDetail], Focus: focus(paneDetail),
			Scroll: func(delta int) tea.Cmd { m.scrollDetail(delta); return nil }},
	}
	if m.ls != nil { // the tree and the timeline list the open session
		tree := &panes[paneTree]
		tree.List, tree.Moved = m.tree.list, m.treeMoved
		if m.showsSearchLine(paneTree) {
			tree.Skip = 1
		}
		tree.Activate = func() tea.Cmd { // enter: select, then read it
			m.selectEntry(m.tree.current())
			m.focus = paneTimeline
			return nil
		}
		tl := &panes[paneTimeline]
		tl.List, tl.Moved = m.tl.list, m.timelineMoved
		if m.timelineSearchLine() {
			tl.Skip = 1
		}
		tl.Activate = func() tea.Cmd { m.focus = paneDetail; return nil }
	}
	return panes
}

// handleMouse routes the wheel and clicks (common.RouteMouse): the wheel
// scrolls the pane under the pointer, focused or not, and a list whose
// cursor has to move to stay visible moves the selection too; a click
// focuses a pane and puts its cursor on the clicked row, and clicking the
// row already under the cursor opens it, as enter does. While a text input
// has the keyboard a click does nothing.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if _, click := msg.(tea.MouseClickMsg); click && m.CapturesInput() {
		return nil
	}
	return common.RouteMouse(msg, m.mousePanes()...)
}
