package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// hitMap is where each pane is drawn at the current size and focus (the
// panel's own coordinates: the root hands it mouse events offset by the
// chrome above the body).
func (m *Model) hitMap() common.HitMap[pane] {
	l := m.layout()
	var hm common.HitMap[pane]
	if l.wide {
		hm.Add(panePicker, common.Rect{X: 0, Y: 0, W: l.picker.w, H: l.picker.h})
		hm.Add(paneTree, common.Rect{X: 0, Y: l.picker.h, W: l.tree.w, H: l.tree.h})
		hm.Add(paneTimeline, common.Rect{X: l.picker.w, Y: 0, W: l.timeline.w, H: l.timeline.h})
		hm.Add(paneDetail, common.Rect{X: l.picker.w, Y: l.timeline.h, W: l.detail.w, H: l.detail.h})
		return hm
	}
	y := 0 // one column: the shown panes stack in pane order
	for p, r := range []rect{l.picker, l.tree, l.timeline, l.detail} {
		hm.Add(pane(p), common.Rect{X: 0, Y: y, W: r.w, H: r.h})
		y += r.h
	}
	return hm
}

// handleWheel scrolls the pane under the pointer (focused or not); a list
// whose cursor has to move to stay visible moves the selection too.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	hm := m.hitMap()
	p, _, ok := hm.At(msg.X, msg.Y)
	delta := common.WheelDelta(msg)
	if !ok || delta == 0 {
		return nil
	}
	switch p {
	case panePicker:
		m.picker.list.Scroll(delta)
	case paneTree:
		if m.ls == nil {
			return nil
		}
		before := m.tree.current()
		m.tree.list.Scroll(delta)
		if m.tree.current() != before {
			return m.treeMoved()
		}
	case paneTimeline:
		if m.ls == nil {
			return nil
		}
		before := m.tl.current()
		m.tl.list.Scroll(delta)
		if m.tl.current() != before {
			return m.timelineMoved()
		}
	default:
		m.scrollDetail(delta)
	}
	return nil
}

// handleClick focuses the pane under the pointer and puts its cursor on
// the clicked row; clicking the row already under the cursor opens it,
// as enter does.
func (m *Model) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	if msg.Button != tea.MouseLeft || m.CapturesInput() {
		return nil
	}
	hm := m.hitMap()
	p, r, ok := hm.At(msg.X, msg.Y)
	if !ok {
		return nil
	}
	m.focus = p
	line, inside := r.Inner(msg.Y)
	if !inside {
		return nil
	}
	switch p {
	case panePicker:
		if row, ok := m.picker.list.RowAt(line); ok {
			if row == m.picker.list.Cursor() {
				return m.openPicked()
			}
			m.picker.list.SetCursor(row)
		}
	case paneTree:
		if m.ls == nil {
			return nil
		}
		if m.showsSearchLine() {
			line--
		}
		if row, ok := m.tree.list.RowAt(line); ok {
			if row == m.tree.list.Cursor() {
				cmd := m.selectEntry(m.tree.current())
				m.focus = paneTimeline
				return cmd
			}
			m.tree.list.SetCursor(row)
			return m.treeMoved()
		}
	case paneTimeline:
		if m.ls == nil {
			return nil
		}
		if row, ok := m.tl.list.RowAt(line); ok {
			if row == m.tl.list.Cursor() {
				m.focus = paneDetail
				return nil
			}
			m.tl.list.SetCursor(row)
			return m.timelineMoved()
		}
	}
	return nil
}
