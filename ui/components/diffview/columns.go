package diffview

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/themes"
)

// The block list's columns, left to right.
const (
	colCursor = iota // "›" on the selected row
	colGlyph         // status glyph
	colStatus        // status word (wide views)
	colName          // label or key
	colRole          // role (from 56 columns)
	colTokens        // before → after tokens (from 64 columns)
	colDelta         // token delta
	numColumns
)

// columns is the block list's column plan for one width: each column's
// cells, the name taking what the others leave.
type columns struct {
	width   [numColumns]int
	showKey bool // the name column adds the key after a label (wide views)
}

// maxNameWidth keeps the numbers near the names in wide views; the row
// ends early instead of spreading across the screen.
const maxNameWidth = 60

// planColumns decides which columns a width affords. The glyph and the
// name always show; the delta from 24 columns, role from 56, tokens from
// 64, the status word from 72 and the key beside a label from 120.
func planColumns(width int) columns {
	var c columns
	c.width[colCursor], c.width[colGlyph] = 2, 2
	if width >= 24 {
		c.width[colDelta] = 7
	}
	if width >= 56 {
		c.width[colRole] = 11
	}
	if width >= 64 {
		c.width[colTokens] = 15
	}
	if width >= 72 {
		c.width[colStatus] = 9
	}
	c.showKey = width >= 120
	fixed := 0
	for k, w := range c.width {
		if k != colName {
			fixed += w
		}
	}
	c.width[colName] = max(1, min(width-fixed, maxNameWidth))
	return c
}

// total is the cells the columns take together.
func (c columns) total() int {
	n := 0
	for _, w := range c.width {
		n += w
	}
	return n
}

// header is the column titles as one plain line.
func (c columns) header() string {
	titles := [numColumns]string{"", "", i18n.T("status"), i18n.T("block"), i18n.T("role"), i18n.T("before → after"), i18n.T("Δ tok")}
	var b strings.Builder
	for k, t := range titles {
		b.WriteString(c.cell(k, t))
	}
	return b.String()
}

// cells is a block's plain text per column.
func (c columns) cells(b Block) [numColumns]string {
	tokens := func(n int, present bool) string {
		if !present {
			return "–"
		}
		return strconv.Itoa(n)
	}
	name := oneLine(b.Name())
	if c.showKey && b.Label != "" && b.Key != b.Label {
		name += "  " + oneLine(b.Key)
	}
	return [numColumns]string{
		colCursor: "",
		colGlyph:  b.Status.Glyph(),
		colStatus: b.Status.Label(),
		colName:   name,
		colRole:   oneLine(b.Role),
		colTokens: tokens(b.BeforeTokens, b.Status != StatusAdded) + " → " + tokens(b.AfterTokens, b.Status != StatusRemoved),
		colDelta:  signed(b.TokenDelta),
	}
}

// cell lays text out in column k: numbers right-aligned after a space,
// text left-aligned before one; a hidden column is empty.
func (c columns) cell(k int, text string) string {
	w := c.width[k]
	switch {
	case w == 0:
		return ""
	case k == colCursor || k == colGlyph:
		return fit(text, w)
	case k == colTokens || k == colDelta:
		if ansi.StringWidth(text) > w-1 {
			text = ansi.Truncate(text, w-1, "…")
		}
		return " " + padLeft(text, w-1)
	}
	return fit(text, w-1) + " "
}

// nameWithKey draws the name column of a labelled block with its key
// muted after the label.
func (c columns) nameWithKey(st *themes.Styles, b Block) string {
	w := c.width[colName] - 1
	label := oneLine(b.Name())
	lw := ansi.StringWidth(label)
	if b.Label == "" || b.Key == b.Label || lw+3 > w {
		return st.Text.Normal.Render(fit(label, w)) + " "
	}
	return st.Text.Normal.Render(label) + st.Text.Muted.Render(fit("  "+oneLine(b.Key), w-lw)) + " "
}

// oneLine makes file text safe for a single row: cleaned, newlines as
// spaces.
func oneLine(s string) string {
	s = screenText(s)
	if strings.Contains(s, "\n") {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return s
}
