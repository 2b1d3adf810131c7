package requestdiff

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// MousePanes are the view's two panes for common.RouteMouse, drawn with
// their top-left cell at (x, y) of the panel: the block list scrolls and
// selects (its line diff follows; a click on the selected block opens its
// lines, as enter does), the line diff scrolls.
func (m *Model) MousePanes(x, y int) []common.MousePane {
	bw, bh, lw, lh := m.geometry()
	lines := common.Rect{X: x, Y: y + bh, W: lw, H: lh}
	if m.side() {
		lines = common.Rect{X: x + bw, Y: y, W: lw, H: lh}
	}
	return []common.MousePane{
		{Rect: common.Rect{X: x, Y: y, W: bw, H: bh}, List: blockRows{&m.blocks},
			Focus: func() { m.SetFocus(Blocks) }, Moved: m.ensureLineDiff,
			Activate: func() tea.Cmd { m.SetFocus(Lines); return nil }},
		{Rect: lines, Focus: func() { m.SetFocus(Lines) },
			Scroll: func(delta int) tea.Cmd { m.lines.ScrollBy(delta); return nil }},
	}
}

// blockRows is the block list as common.Rows.
type blockRows struct{ l *diffview.BlockList }

func (r blockRows) RowAt(line int) (int, bool) { return r.l.BlockAt(line) }
func (r blockRows) Cursor() int                { return r.l.Cursor() }
func (r blockRows) SetCursor(i int)            { r.l.Select(i) }
func (r blockRows) Scroll(delta int)           { r.l.ScrollBy(delta) }
