package common_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/themes"
	. "github.com/forgebench/forgebench/ui/common"
)

// twoPanes is a framed list of 20 one-letter rows under a column header
// on the left (10×8: 5 rows visible) and a scrolling detail on the right.
type twoPanes struct {
	list                  *List[string]
	focus                 string
	moved, activated      int
	detailOffset, scrolls int
}

func newTwoPanes() *twoPanes {
	p := &twoPanes{list: NewList(func(it string, _ RowState) string { return it })}
	items := make([]string, 20)
	for i := range items {
		items[i] = string(rune('a' + i))
	}
	p.list.SetItems(items)
	st := themes.For(themes.Dark, true, false)
	p.list.View(&st, 8, 5, true) // what View draws inside the frame, under the header
	return p
}

func (p *twoPanes) panes() []MousePane {
	return []MousePane{
		{Rect: Rect{X: 0, Y: 0, W: 10, H: 8}, Skip: 1, List: p.list,
			Focus:    func() { p.focus = "list" },
			Moved:    func() tea.Cmd { p.moved++; return nil },
			Activate: func() tea.Cmd { p.activated++; return nil }},
		{Rect: Rect{X: 10, Y: 0, W: 10, H: 8},
			Focus:  func() { p.focus = "detail" },
			Scroll: func(d int) tea.Cmd { p.detailOffset += d; p.scrolls++; return nil }},
	}
}

func TestRouteMouseClickSelectsAndActivates(t *testing.T) {
	p := newTwoPanes()
	p.focus = "detail"
	// Line 0 inside the border is the header; line 3 shows row 2 ("c").
	RouteMouse(tea.MouseClickMsg{X: 3, Y: 4, Button: tea.MouseLeft}, p.panes()...)
	if p.focus != "list" || p.list.Cursor() != 2 || p.moved != 1 || p.activated != 0 {
		t.Fatalf("click on row c: focus %q cursor %d moved %d activated %d", p.focus, p.list.Cursor(), p.moved, p.activated)
	}
	RouteMouse(tea.MouseClickMsg{X: 3, Y: 4, Button: tea.MouseLeft}, p.panes()...)
	if p.activated != 1 || p.moved != 1 {
		t.Fatalf("a click on the cursor row activates it: moved %d activated %d", p.moved, p.activated)
	}
	// The header, the border and a right click select nothing.
	for _, y := range []int{0, 1, 7} {
		RouteMouse(tea.MouseClickMsg{X: 3, Y: y, Button: tea.MouseLeft}, p.panes()...)
	}
	RouteMouse(tea.MouseClickMsg{X: 3, Y: 5, Button: tea.MouseRight}, p.panes()...)
	if p.list.Cursor() != 2 || p.moved != 1 || p.activated != 1 {
		t.Fatalf("header/border/right click changed the list: cursor %d moved %d activated %d", p.list.Cursor(), p.moved, p.activated)
	}
	RouteMouse(tea.MouseClickMsg{X: 12, Y: 3, Button: tea.MouseLeft}, p.panes()...)
	if p.focus != "detail" {
		t.Fatalf("a click in the detail focuses it, focus %q", p.focus)
	}
}

func TestRouteMouseWheelScrollsThePaneUnderThePointer(t *testing.T) {
	p := newTwoPanes()
	p.focus = "detail" // the wheel does not care about focus
	RouteMouse(tea.MouseWheelMsg{X: 3, Y: 3, Button: tea.MouseWheelDown}, p.panes()...)
	if p.list.Cursor() != 3 || p.moved != 1 || p.scrolls != 0 {
		t.Fatalf("wheel over the list scrolls it and drags the cursor: cursor %d moved %d detail scrolls %d", p.list.Cursor(), p.moved, p.scrolls)
	}
	RouteMouse(tea.MouseWheelMsg{X: 15, Y: 3, Button: tea.MouseWheelDown}, p.panes()...)
	RouteMouse(tea.MouseWheelMsg{X: 15, Y: 3, Button: tea.MouseWheelUp}, p.panes()...)
	RouteMouse(tea.MouseWheelMsg{X: 15, Y: 3, Button: tea.MouseWheelUp}, p.panes()...)
	if p.detailOffset != -3 || p.scrolls != 3 || p.list.Cursor() != 3 {
		t.Fatalf("wheel over the detail: offset %d after %d scrolls, list cursor %d", p.detailOffset, p.scrolls, p.list.Cursor())
	}
	RouteMouse(tea.MouseWheelMsg{X: 30, Y: 3, Button: tea.MouseWheelDown}, p.panes()...)
	RouteMouse(tea.MouseWheelMsg{X: 3, Y: 3, Button: tea.MouseWheelLeft}, p.panes()...)
	if p.scrolls != 3 || p.moved != 1 {
		t.Fatal("the wheel outside every pane, or sideways, scrolls nothing")
	}
}
