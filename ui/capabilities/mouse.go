package capabilities

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// mousePanes are the panes View draws at the current size and focus (the
// status line below them takes no clicks), with what the wheel and a click
// do in each (common.RouteMouse): the library scrolls and selects (a click
// on the selected capability opens its editor, as enter does), the detail
// scrolls its text, the session view scrolls and selects a card (a click on
// the selected card expands or folds it).
func (m *Model) mousePanes() []common.MousePane {
	l := m.layout()
	var at [paneCount]common.Rect
	if l.wide {
		at[paneLibrary] = common.Rect{W: l.library.w, H: l.library.h}
		at[paneDetail] = common.Rect{X: l.library.w, W: l.detail.w, H: l.detail.h}
		at[paneSession] = common.Rect{X: l.library.w, Y: l.detail.h, W: l.session.w, H: l.session.h}
	} else {
		y := 0 // one column: the shown panes stack in pane order
		for p, r := range []rect{l.library, l.detail, l.session} {
			at[p] = common.Rect{Y: y, W: r.w, H: r.h}
			y += r.h
		}
	}
	focus := func(p pane) func() { return func() { m.focus = p } }
	library := common.MousePane{Rect: at[paneLibrary], Focus: focus(paneLibrary)}
	if m.lib != nil && m.libErr == "" && m.list.Total() > 0 { // the list is what the pane shows
		library.List = m.list
		library.Moved = func() tea.Cmd { m.detail.offset = 0; return m.requestDetail() }
		library.Activate = m.openEditor
	}
	detail := common.MousePane{Rect: at[paneDetail], Focus: focus(paneDetail)}
	if m.edit == nil && m.mode == modeCapability {
		detail.Scroll = func(delta int) tea.Cmd {
			m.detail.scroll(delta)
			return nil
		}
	}
	cards := cardRows{v: &m.view}
	sessionPane := common.MousePane{Rect: at[paneSession], Focus: focus(paneSession), List: cards,
		Activate: func() tea.Cmd { cards.toggle(); return nil }}
	return []common.MousePane{library, detail, sessionPane}
}

// handleMouse routes the wheel and clicks; nothing while a dialog is open
// or a text input has the keyboard.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if m.dialogs.Open() {
		return nil
	}
	if _, click := msg.(tea.MouseClickMsg); click && m.CapturesInput() {
		return nil
	}
	return common.RouteMouse(msg, m.mousePanes()...)
}

// cardRows is the session view's active-capability cards as the mouse
// sees them (common.Rows): a row is a card, several lines tall, drawn
// from the line it starts at as laid out (sessionView.layout).
type cardRows struct{ v *sessionView }

// end is the line after card k.
func (r cardRows) end(k int) int {
	if k+1 < len(r.v.starts) {
		return r.v.starts[k+1]
	}
	return r.v.lineCount
}

// RowAt is the card drawn on line (of the pane's inner lines).
func (r cardRows) RowAt(line int) (int, bool) {
	at := line + r.v.offset
	if line < 0 || line >= r.v.height {
		return -1, false
	}
	for k := len(r.v.starts) - 1; k >= 0; k-- {
		if r.v.starts[k] <= at {
			return k, at < r.end(k)
		}
	}
	return -1, false
}

// Cursor is the selected card.
func (r cardRows) Cursor() int { return r.v.cursor }

// SetCursor selects card i.
func (r cardRows) SetCursor(i int) { r.v.cursor = common.Clamp(i, 0, max(0, len(r.v.starts)-1)) }

// Scroll moves the view by delta lines; when the selected card leaves it,
// the selection moves to the first card wholly in view (scrolling down) or
// the last (up), since the view keeps the selected card on screen.
func (r cardRows) Scroll(delta int) {
	v := r.v
	v.offset = common.Clamp(v.offset+delta, 0, max(0, v.lineCount-v.height))
	top, bottom := v.offset, v.offset+v.height
	inView := func(k int) bool { return v.starts[k] >= top && r.end(k) <= bottom }
	if len(v.starts) == 0 || v.cursor < len(v.starts) && inView(v.cursor) {
		return
	}
	pick := -1
	for k := range v.starts {
		if inView(k) && (pick < 0 || delta < 0) {
			pick = k
		}
	}
	if pick < 0 { // no card fits: the one under the top line
		pick, _ = r.RowAt(0)
	}
	if pick >= 0 {
		v.cursor = pick
	}
}

// toggle expands or folds the selected card's frozen text.
func (r cardRows) toggle() {
	if a, ok := r.v.selectedActive(); ok {
		r.v.expanded[a.Snapshot.ActivationID] = !r.v.expanded[a.Snapshot.ActivationID]
	}
}
