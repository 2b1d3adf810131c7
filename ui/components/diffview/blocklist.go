package diffview

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/themes"
)

// BlockList is the state of a diff's block list on screen: the diff, the
// selected block and the scroll window. Its methods change the state; View
// is a pure function of that state and the styles and draws only the
// visible rows, with a column header on top and the totals pinned at the
// bottom. It carries no key bindings: a panel maps its keymap bindings to
// the methods. The zero value is an empty, unfocused list.
type BlockList struct {
	diff          Diff
	cursor        int
	offset        int // first visible body row (blocks and the rule)
	width, height int
	focused       bool
}

// NewBlockList is an empty, focused list; give it a diff with SetDiff and a
// size with SetSize.
func NewBlockList() BlockList { return BlockList{focused: true} }

// SetDiff shows another diff. The cursor stays on the block with the same
// key when the new diff has one (a reload, a new pair of requests with the
// same system prompt), otherwise on the same index, clamped.
func (l *BlockList) SetDiff(d Diff) {
	key := ""
	if b, ok := l.Selected(); ok {
		key = b.Key
	}
	l.diff = d
	if key != "" {
		for i, b := range d.Blocks {
			if b.Key == key {
				l.cursor = i
				break
			}
		}
	}
	l.cursor = max(0, min(l.cursor, len(d.Blocks)-1))
	l.follow()
}

// Diff is the diff on show.
func (l BlockList) Diff() Diff { return l.diff }

// SetSize sets the list's size in cells.
func (l *BlockList) SetSize(width, height int) {
	l.width, l.height = max(0, width), max(0, height)
	l.follow()
}

// SetFocused draws the cursor as focused (true) or blurred.
func (l *BlockList) SetFocused(focused bool) { l.focused = focused }

// MoveBy moves the cursor n blocks down (negative: up), clamped.
func (l *BlockList) MoveBy(n int) { l.Select(l.cursor + n) }

// PageDown moves the cursor down by one screen of rows.
func (l *BlockList) PageDown() { l.MoveBy(max(1, l.bodyHeight())) }

// PageUp moves the cursor up by one screen of rows.
func (l *BlockList) PageUp() { l.MoveBy(-max(1, l.bodyHeight())) }

// Select puts the cursor on block i, clamped to the list.
func (l *BlockList) Select(i int) {
	l.cursor = max(0, min(i, len(l.diff.Blocks)-1))
	l.follow()
}

// NextChange moves the cursor to the next block that is not same; it stays
// when there is none.
func (l *BlockList) NextChange() {
	for i := l.cursor + 1; i < len(l.diff.Blocks); i++ {
		if l.diff.Blocks[i].Status != StatusSame {
			l.Select(i)
			return
		}
	}
}

// PrevChange moves the cursor to the previous block that is not same.
func (l *BlockList) PrevChange() {
	for i := l.cursor - 1; i >= 0; i-- {
		if l.diff.Blocks[i].Status != StatusSame {
			l.Select(i)
			return
		}
	}
}

// Cursor is the index of the selected block (0 when the list is empty).
func (l BlockList) Cursor() int { return l.cursor }

// Selected is the selected block; false when the list is empty.
func (l BlockList) Selected() (Block, bool) {
	if l.cursor < 0 || l.cursor >= len(l.diff.Blocks) {
		return Block{}, false
	}
	return l.diff.Blocks[l.cursor], true
}

// hasRule reports whether the boundary rule is drawn.
func (l BlockList) hasRule() bool {
	return l.diff.Boundary >= 0 && l.diff.Boundary <= len(l.diff.Blocks)
}

// bodyRows counts the scrolling rows: blocks plus the rule.
func (l BlockList) bodyRows() int {
	n := len(l.diff.Blocks)
	if l.hasRule() {
		n++
	}
	return max(n, 1) // an empty list shows one "no blocks" row
}

// rowOf is the body row of block i.
func (l BlockList) rowOf(i int) int {
	if l.hasRule() && i >= l.diff.Boundary {
		return i + 1
	}
	return i
}

// chrome says which pinned rows fit: the header needs four rows in all,
// the totals two.
func (l BlockList) chrome() (header, totals bool) { return l.height >= 4, l.height >= 2 }

func (l BlockList) bodyHeight() int {
	h := l.height
	header, totals := l.chrome()
	if header {
		h--
	}
	if totals {
		h--
	}
	return max(h, 0)
}

// follow scrolls so the cursor is visible, with the rule above it when the
// cursor is the first block after the cached prefix.
func (l *BlockList) follow() {
	body := l.bodyHeight()
	r := l.rowOf(l.cursor)
	top := r
	if l.hasRule() && l.cursor == l.diff.Boundary && body > 1 {
		top-- // show the rule with the block under it
	}
	if top < l.offset {
		l.offset = top
	}
	if r >= l.offset+body {
		l.offset = r - body + 1
	}
	l.offset = max(0, min(l.offset, l.bodyRows()-body))
}

// View draws the list: exactly its height in lines, each exactly its width
// in cells.
func (l BlockList) View(st *themes.Styles) string { return strings.Join(l.ViewLines(st), "\n") }

// ViewLines is View split into lines, for a frame that places them itself.
func (l BlockList) ViewLines(st *themes.Styles) []string {
	out := make([]string, 0, l.height)
	if l.height == 0 {
		return out
	}
	cols := planColumns(l.width)
	header, totals := l.chrome()
	if header {
		out = append(out, st.Text.Subtle.Render(fit(cols.header(), l.width)))
	}
	body := l.bodyHeight()
	for r := l.offset; r < l.offset+body; r++ {
		out = append(out, l.bodyLine(st, cols, r))
	}
	if totals {
		out = append(out, l.totalsLine(st))
	}
	return out
}

// bodyLine draws body row r: a block, the rule, or padding.
func (l BlockList) bodyLine(st *themes.Styles, cols columns, r int) string {
	blank := strings.Repeat(" ", l.width)
	n := len(l.diff.Blocks)
	if n == 0 {
		if r == 0 {
			return st.Text.Muted.Render(fit(i18n.T("no blocks"), l.width))
		}
		return blank
	}
	if l.hasRule() {
		switch {
		case r == l.diff.Boundary:
			return l.ruleLine(st)
		case r > l.diff.Boundary:
			r--
		}
	}
	if r >= n {
		return blank
	}
	return l.blockLine(st, cols, r)
}

// ruleLine draws the cache boundary: everything above it is the cached
// prefix of the request. Narrow views get a shorter label.
func (l BlockList) ruleLine(st *themes.Styles) string {
	t := l.diff.Totals
	tok, ratio := strconv.Itoa(t.PrefixTokens), percent(t.PrefixRatio)
	labels := []string{
		i18n.T(" cache boundary · prefix %s tok (%s) ", tok, ratio),
		i18n.T(" cache · %s tok (%s) ", tok, ratio),
		i18n.T(" cache "),
	}
	label := labels[len(labels)-1]
	for _, c := range labels {
		if ansi.StringWidth(c)+4 <= l.width {
			label = c
			break
		}
	}
	line := "──" + label
	if w := ansi.StringWidth(line); w < l.width {
		line += strings.Repeat("─", l.width-w)
	}
	return st.Diff.Boundary.Render(fit(line, l.width))
}

// statusStyle is the colour of a status; the glyph carries it without.
func statusStyle(st *themes.Styles, s Status) lipgloss.Style {
	switch s {
	case StatusModified:
		return st.Diff.Modified
	case StatusAdded:
		return st.Diff.Add
	case StatusRemoved:
		return st.Diff.Del
	}
	return st.Diff.Same
}

// roleStyle is the colour of a block's role.
func roleStyle(st *themes.Styles, role string) lipgloss.Style {
	switch role {
	case "user":
		return st.Role.User
	case "assistant":
		return st.Role.Assistant
	case "tool", "toolResult", "tool_result":
		return st.Role.Tool
	case "system", "developer":
		return st.Role.System
	}
	return st.Text.Subtle
}

// deltaStyle colours a token delta: growth like an addition, shrinking
// like a removal.
func deltaStyle(st *themes.Styles, n int) lipgloss.Style {
	switch {
	case n > 0:
		return st.Diff.Add
	case n < 0:
		return st.Diff.Del
	}
	return st.Text.Muted
}

// blockLine draws block i as one row.
func (l BlockList) blockLine(st *themes.Styles, cols columns, i int) string {
	b := l.diff.Blocks[i]
	cells := cols.cells(b)
	if i == l.cursor {
		style := st.List.SelectedBlurred
		if l.focused {
			style = st.List.Selected
		}
		cells[colCursor] = "›"
		var sb strings.Builder
		for k, c := range cells {
			sb.WriteString(cols.cell(k, c))
		}
		return style.Render(fit(sb.String(), l.width))
	}
	status := statusStyle(st, b.Status)
	styles := [numColumns]lipgloss.Style{st.Text.Normal, status, status, st.Text.Normal,
		roleStyle(st, b.Role), st.Text.Subtle, deltaStyle(st, b.TokenDelta)}
	var sb strings.Builder
	for k, c := range cells {
		switch {
		case cols.width[k] == 0:
		case k == colName && cols.showKey:
			sb.WriteString(cols.nameWithKey(st, b))
		default:
			sb.WriteString(styles[k].Render(cols.cell(k, c)))
		}
	}
	// Every cell is exactly its column's width, so only views narrower
	// than the fixed columns need measuring.
	if used := cols.total(); used <= l.width {
		return sb.String() + strings.Repeat(" ", l.width-used)
	}
	return fit(sb.String(), l.width)
}

// totalsLine draws the pinned footer: block counts, token delta and the
// cached prefix, in short forms below 60 columns, keeping whole parts
// that fit.
func (l BlockList) totalsLine(st *themes.Styles) string {
	t := l.diff.Totals
	type part struct {
		text  string
		style lipgloss.Style
	}
	counts := part{fmt.Sprintf("=%d ~%d +%d -%d", t.Same, t.Modified, t.Added, t.Removed), st.Text.Subtle}
	delta := deltaStyle(st, t.DeltaTokens)
	prefix := i18n.T("prefix %s tok (%s)", strconv.Itoa(t.PrefixTokens), percent(t.PrefixRatio))
	parts := []part{counts, {"Δ " + signed(t.DeltaTokens) + " tok", delta},
		{fmt.Sprintf("(+%d -%d)", t.AddedTokens, t.RemovedTokens), st.Text.Muted},
		{prefix, st.Diff.Boundary}}
	if l.width < 60 {
		parts = []part{counts, {"Δ" + signed(t.DeltaTokens), delta}, {i18n.T("cache %s (%s)", strconv.Itoa(t.PrefixTokens), percent(t.PrefixRatio)), st.Diff.Boundary}}
	}
	var sb strings.Builder
	used := 0
	for i, p := range parts {
		sep := ""
		if i > 0 {
			sep = " · "
		}
		w := ansi.StringWidth(sep + p.text)
		if i > 0 && used+w > l.width {
			break
		}
		text := p.text
		if used+w > l.width {
			text = ansi.Truncate(text, l.width-used, "…")
		}
		if sep != "" {
			sb.WriteString(st.Text.Muted.Render(sep))
		}
		sb.WriteString(p.style.Render(text))
		used += ansi.StringWidth(sep + text)
	}
	return sb.String() + strings.Repeat(" ", max(0, l.width-used))
}
