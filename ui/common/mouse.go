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

// Rows is what the mouse needs of a pane's list (List satisfies it): the
// row drawn on a line, the cursor, and scrolling the window.
type Rows interface {
	RowAt(line int) (row int, ok bool)
	Cursor() int
	SetCursor(i int)
	Scroll(delta int)
}

// MousePane is one pane of a panel's layout as the mouse sees it. A panel
// declares its panes once, from the same layout its View draws, and hands
// every mouse event to RouteMouse: the wheel scrolls the pane under the
// pointer (focused or not), a left click focuses the pane and puts its
// cursor on the clicked row.
type MousePane struct {
	// Rect is where the pane is drawn; it is framed (Frame), so its
	// lines start inside the top border.
	Rect Rect
	// Skip is how many lines inside the border come before the lines
	// List drew (a column header, a search line drawn by the panel).
	Skip int
	// List is the pane's list (nil for a pane that only scrolls): the
	// wheel scrolls its window and a click selects the clicked row.
	List Rows
	// Focus gives the pane the keyboard (a click anywhere in it).
	Focus func()
	// Moved runs after the wheel or a click moved List's cursor: what
	// the cursor selects follows (a detail, the shared selection).
	Moved func() tea.Cmd
	// Activate runs when a click lands on the row already under the
	// cursor: what enter does there.
	Activate func() tea.Cmd
	// Scroll moves a pane without a list (a detail, a transcript) by
	// delta lines.
	Scroll func(delta int) tea.Cmd
}

// RouteMouse sends a mouse event (in the panel's coordinates) to the pane
// under the pointer; later panes win where rectangles overlap. Wheel and
// left clicks act; other buttons, motion and releases do nothing.
func RouteMouse(msg tea.MouseMsg, panes ...MousePane) tea.Cmd {
	var hm HitMap[int]
	for i, p := range panes {
		hm.Add(i, p.Rect)
	}
	m := msg.Mouse()
	i, r, ok := hm.At(m.X, m.Y)
	if !ok {
		return nil
	}
	p := panes[i]
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		return p.wheel(WheelDelta(msg))
	case tea.MouseClickMsg:
		if msg.Button != tea.MouseLeft {
			return nil
		}
		if p.Focus != nil {
			p.Focus()
		}
		line, inside := r.Inner(msg.Y)
		if !inside {
			return nil
		}
		return p.click(line - p.Skip)
	}
	return nil
}

func (p MousePane) wheel(delta int) tea.Cmd {
	switch {
	case delta == 0:
		return nil
	case p.List != nil:
		before := p.List.Cursor()
		p.List.Scroll(delta)
		if p.List.Cursor() != before && p.Moved != nil {
			return p.Moved()
		}
	case p.Scroll != nil:
		return p.Scroll(delta)
	}
	return nil
}

func (p MousePane) click(line int) tea.Cmd {
	if p.List == nil || line < 0 {
		return nil
	}
	row, ok := p.List.RowAt(line)
	switch {
	case !ok:
		return nil
	case row == p.List.Cursor():
		if p.Activate != nil {
			return p.Activate()
		}
		return nil
	}
	p.List.SetCursor(row)
	if p.Moved != nil {
		return p.Moved()
	}
	return nil
}
