// Package requestdiff is the two-pane view of one request diff: the block
// list (status, token deltas, the cache boundary as a rule, totals) and
// the line diff of the selected block (unified or split, three context
// modes, wrap), both from ui/components/diffview. It owns the panes'
// keys, the focus between them and the line diffs, which it computes in
// commands and keeps per block. The Payloads panel and the Presets
// panel's draft diff both show their diffs through it.
package requestdiff

import (
	"fmt"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// SideBySideWidth is the width from which the two panes sit side by side
// instead of one above the other.
const SideBySideWidth = 120

// Pane is one of the view's two panes.
type Pane int

// The panes, in focus order.
const (
	Blocks Pane = iota
	Lines
)

// ids tell the line-diff results of several views apart: the root hands
// every command result to every panel.
var ids atomic.Int64

// Model is one request diff on screen.
type Model struct {
	id            int64
	gen           int
	diff          diffview.Diff
	blocks        diffview.BlockList
	lines         diffview.LineView
	focus         Pane
	width, height int
	lineDiffs     map[int]*diffview.LineDiff
	pending       map[int]bool
}

// New returns an empty view with the block list focused.
func New() *Model {
	m := &Model{id: ids.Add(1), blocks: diffview.NewBlockList(), lines: diffview.NewLineView()}
	m.SetDiff(diffview.Diff{Boundary: diffview.NoBoundary})
	return m
}

// lineDiffMsg delivers the line diff of one block.
type lineDiffMsg struct {
	id       int64
	gen, row int
	diff     *diffview.LineDiff
}

// SetDiff shows another diff, its cursor on the first changed block, and
// returns the command that computes that block's line diff.
func (m *Model) SetDiff(d diffview.Diff) tea.Cmd {
	m.gen++
	m.diff = d
	m.lineDiffs = map[int]*diffview.LineDiff{}
	m.pending = map[int]bool{}
	m.lines.SetDiff(nil)
	m.blocks.SetDiff(d)
	m.blocks.Select(0)
	if len(d.Blocks) > 0 && d.Blocks[0].Status == diffview.StatusSame {
		m.blocks.NextChange()
	}
	return m.ensureLineDiff()
}

// Refresh shows a recomputed diff of the same pair: the cursor stays on
// its block when the new diff has it.
func (m *Model) Refresh(d diffview.Diff) tea.Cmd {
	m.gen++
	m.diff = d
	m.lineDiffs = map[int]*diffview.LineDiff{}
	m.pending = map[int]bool{}
	m.lines.SetDiff(nil)
	m.blocks.SetDiff(d)
	return m.ensureLineDiff()
}

// Diff is the diff on show.
func (m *Model) Diff() diffview.Diff { return m.diff }

// Selected is the block under the cursor and its row.
func (m *Model) Selected() (diffview.Block, int, bool) {
	b, ok := m.blocks.Selected()
	return b, m.blocks.Cursor(), ok
}

// Select moves the cursor to row and returns the command for its line diff.
func (m *Model) Select(row int) tea.Cmd {
	m.blocks.Select(row)
	return m.ensureLineDiff()
}

// Focus is the focused pane.
func (m *Model) Focus() Pane { return m.focus }

// SetFocus focuses a pane.
func (m *Model) SetFocus(p Pane) {
	m.focus = p
	m.blocks.SetFocused(p == Blocks)
}

// ToggleFocus moves the focus to the other pane.
func (m *Model) ToggleFocus() { m.SetFocus(1 - m.focus) }

// LineView is the line diff pane's state (caption, layout, context).
func (m *Model) LineView() *diffview.LineView { return &m.lines }

// side reports whether the panes sit side by side.
func (m *Model) side() bool { return m.width >= SideBySideWidth }

// geometry splits the area: side by side (two fifths for the blocks) or
// stacked (half the height for the blocks).
func (m *Model) geometry() (bw, bh, lw, lh int) {
	if m.side() {
		bw = max(40, m.width*2/5)
		return bw, m.height, m.width - bw, m.height
	}
	bh = max(6, m.height/2)
	if m.height < 8 {
		bh = m.height
	}
	return m.width, bh, m.width, max(0, m.height-bh)
}

// SetSize gives the view its area in cells.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(0, w), max(0, h)
	bw, bh, lw, lh := m.geometry()
	m.blocks.SetSize(max(0, bw-4), max(0, bh-2))
	m.lines.SetSize(max(0, lw-4), max(0, lh-2))
}

// ensureLineDiff shows the selected block's line diff, computing it in a
// command the first time.
func (m *Model) ensureLineDiff() tea.Cmd {
	row := m.blocks.Cursor()
	if row < 0 || row >= len(m.diff.Blocks) {
		m.lines.SetDiff(nil)
		return nil
	}
	if d, ok := m.lineDiffs[row]; ok {
		if m.lines.Diff() != d {
			m.lines.SetDiff(d)
		}
		return nil
	}
	if m.pending[row] {
		return nil
	}
	m.pending[row] = true
	b := m.diff.Blocks[row]
	id, gen := m.id, m.gen
	return func() tea.Msg {
		return lineDiffMsg{id: id, gen: gen, row: row, diff: diffview.NewLineDiff(b.Before, b.After)}
	}
}

// Update handles the view's keys (navigation, next/previous change,
// enter/esc between the panes, layout, context, wrap) and its command
// results. handled is false for anything else, which the caller then
// handles itself.
func (m *Model) Update(msg tea.Msg, k keymap.Payloads) (handled bool, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case lineDiffMsg:
		if msg.id != m.id {
			return false, nil
		}
		if msg.gen == m.gen {
			delete(m.pending, msg.row)
			m.lineDiffs[msg.row] = msg.diff
			if msg.row == m.blocks.Cursor() {
				m.lines.SetDiff(msg.diff)
			}
		}
		return true, nil
	case tea.MouseWheelMsg:
		step := 3
		if msg.Button == tea.MouseWheelUp {
			step = -3
		} else if msg.Button != tea.MouseWheelDown {
			return false, nil
		}
		if m.focus == Lines {
			m.lines.ScrollBy(step)
			return true, nil
		}
		m.blocks.MoveBy(step / 3)
		return true, m.ensureLineDiff()
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Layout):
			m.lines.ToggleLayout()
		case key.Matches(msg, k.Context):
			m.lines.CycleContext()
		case key.Matches(msg, k.Wrap):
			m.lines.SetWrap(!m.lines.Wrap())
		default:
			if m.focus == Lines {
				return m.linesKey(msg, k), nil
			}
			return m.blocksKey(msg, k)
		}
		return true, nil
	}
	return false, nil
}

func (m *Model) blocksKey(msg tea.KeyPressMsg, k keymap.Payloads) (bool, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Up):
		m.blocks.MoveBy(-1)
	case key.Matches(msg, k.Down):
		m.blocks.MoveBy(1)
	case key.Matches(msg, k.PageUp):
		m.blocks.PageUp()
	case key.Matches(msg, k.PageDown):
		m.blocks.PageDown()
	case key.Matches(msg, k.Top):
		m.blocks.Select(0)
	case key.Matches(msg, k.Bottom):
		m.blocks.Select(len(m.diff.Blocks) - 1)
	case key.Matches(msg, k.NextChange):
		m.blocks.NextChange()
	case key.Matches(msg, k.PrevChange):
		m.blocks.PrevChange()
	case key.Matches(msg, k.Open):
		m.SetFocus(Lines)
		return true, nil
	default:
		return false, nil
	}
	return true, m.ensureLineDiff()
}

func (m *Model) linesKey(msg tea.KeyPressMsg, k keymap.Payloads) bool {
	_, h := m.lines.Size()
	switch {
	case key.Matches(msg, k.Up):
		m.lines.ScrollBy(-1)
	case key.Matches(msg, k.Down):
		m.lines.ScrollBy(1)
	case key.Matches(msg, k.PageUp):
		m.lines.ScrollBy(-max(1, h-1))
	case key.Matches(msg, k.PageDown):
		m.lines.ScrollBy(max(1, h-1))
	case key.Matches(msg, k.Top):
		m.lines.Top()
	case key.Matches(msg, k.Bottom):
		m.lines.Bottom()
	case key.Matches(msg, k.NextChange):
		m.lines.NextHunk()
	case key.Matches(msg, k.PrevChange):
		m.lines.PrevHunk()
	case key.Matches(msg, k.Back):
		m.SetFocus(Blocks)
	default:
		return false
	}
	return true
}

// View draws the two framed panes in exactly the view's area.
func (m *Model) View(st *themes.Styles) string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	bw, bh, lw, lh := m.geometry()
	changed := m.diff.Totals.Modified + m.diff.Totals.Added + m.diff.Totals.Removed
	title := i18n.T("Blocks · %d changed", changed)
	info := ""
	if n := len(m.diff.Blocks); n > 0 {
		info = fmt.Sprintf("%d/%d", m.blocks.Cursor()+1, n)
	} else {
		title = i18n.T("Blocks")
	}
	blocks := common.Frame(*st, bw, bh, title, info, m.focus == Blocks, m.blocks.ViewLines(st))
	linesTitle := i18n.T("Lines")
	if b, ok := m.blocks.Selected(); ok {
		linesTitle = i18n.T("Lines · %s", sanitize.Line(b.Name()))
		switch {
		case b.Fields:
			linesTitle += i18n.T(" · same text; its request fields differ")
		case b.Status == diffview.StatusModified && b.Before == b.After:
			linesTitle += i18n.T(" · same text, other request fields differ")
		}
	}
	lines := common.Frame(*st, lw, lh, linesTitle, m.lines.Caption(), m.focus == Lines, m.lines.ViewLines(st))
	if m.side() {
		return joinColumns(blocks, lines)
	}
	if lh == 0 {
		return blocks
	}
	return blocks + "\n" + lines
}

// joinColumns puts two equally tall blocks of lines side by side.
func joinColumns(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	out := make([]string, max(len(al), len(bl)))
	for i := range out {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		out[i] = x + y
	}
	return strings.Join(out, "\n")
}
