package common

import tea "charm.land/bubbletea/v2"

// Rect is an area of the screen in cells: X, Y of its top-left corner and
// its width and height. Panels keep the rectangles of their panes from the
// layout so a mouse event can be matched to the pane under the pointer.
type Rect struct{ X, Y, W, H int }

// Contains reports whether the cell (x, y) lies inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Empty reports whether r has no cells (a pane hidden at this size).
func (r Rect) Empty() bool { return r.W <= 0 || r.H <= 0 }

// Inner is the content row of a framed pane (Frame) under screen row y:
// 0 for the first line inside the top border; ok is false on the border.
func (r Rect) Inner(y int) (line int, ok bool) {
	line = y - r.Y - 1
	return line, line >= 0 && line < r.H-2
}

// HitMap names the rectangles of a layout, in drawing order.
type HitMap[K comparable] struct {
	keys  []K
	rects []Rect
}

// Add records that key is drawn in r (empty rectangles are ignored).
func (h *HitMap[K]) Add(key K, r Rect) {
	if r.Empty() {
		return
	}
	h.keys = append(h.keys, key)
	h.rects = append(h.rects, r)
}

// At is the key whose rectangle holds (x, y), the last added winning
// where rectangles overlap; ok is false when none does.
func (h *HitMap[K]) At(x, y int) (key K, r Rect, ok bool) {
	for i := len(h.rects) - 1; i >= 0; i-- {
		if h.rects[i].Contains(x, y) {
			return h.keys[i], h.rects[i], true
		}
	}
	return key, Rect{}, false
}

// Rect is the rectangle recorded for key; ok is false when it is not
// shown.
func (h *HitMap[K]) Rect(key K) (Rect, bool) {
	for i, k := range h.keys {
		if k == key {
			return h.rects[i], true
		}
	}
	return Rect{}, false
}

// Offset moves a mouse event by (-dx, -dy): the root hands panels events
// in their own coordinates (the body's top-left cell is 0, 0).
func Offset(msg tea.MouseMsg, dx, dy int) tea.MouseMsg {
	switch m := msg.(type) {
	case tea.MouseClickMsg:
		m.X, m.Y = m.X-dx, m.Y-dy
		return m
	case tea.MouseReleaseMsg:
		m.X, m.Y = m.X-dx, m.Y-dy
		return m
	case tea.MouseWheelMsg:
		m.X, m.Y = m.X-dx, m.Y-dy
		return m
	case tea.MouseMotionMsg:
		m.X, m.Y = m.X-dx, m.Y-dy
		return m
	}
	return msg
}

// WheelDelta is how many rows a wheel event scrolls: 3 down or 3 up, 0
// for a sideways wheel.
func WheelDelta(msg tea.MouseWheelMsg) int {
	switch msg.Button {
	case tea.MouseWheelUp:
		return -3
	case tea.MouseWheelDown:
		return 3
	}
	return 0
}
