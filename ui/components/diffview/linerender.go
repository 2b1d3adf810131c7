package diffview

import (
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/themes"
)

// noNewlineNote is git's marker under a last line without a newline.
const noNewlineNote = `\ No newline at end of file` //i18n:raw git's marker in a unified diff

// crMark stands for a carriage return the other side does not have.
const crMark = "␍"

// View draws the visible part of the diff: exactly the view's height in
// lines, each exactly its width in cells. Cells are always counted on plain
// text before a style adds escape codes, so no styled string is ever cut.
func (v LineView) View(st *themes.Styles) string { return strings.Join(v.ViewLines(st), "\n") }

// ViewLines is View split into lines, for a frame that places them itself.
func (v LineView) ViewLines(st *themes.Styles) []string {
	out := make([]string, 0, v.height)
	if v.width <= 0 {
		for range v.height {
			out = append(out, "")
		}
		return out
	}
	rows := v.rows()
	g := v.geometry()
	sub := v.sub
	for i := v.top; i < len(rows) && len(out) < v.height; i++ {
		vis := v.drawRow(st, g, rows[i], v.wrapRow(rows, i))
		vis = vis[min(sub, len(vis)):]
		sub = 0
		out = append(out, vis[:min(len(vis), v.height-len(out))]...)
	}
	blank := strings.Repeat(" ", v.width)
	for len(out) < v.height {
		out = append(out, blank)
	}
	return out
}

// side is the column plan of one text column: line numbers, sign, text.
type side struct{ width, numW, signW, textW int }

// geometry is the column plan of a frame.
type geometry struct {
	split       bool
	nw          int // digits of a line number
	left, right side
}

// makeSide plans a column of width cells whose numbers take numW cells:
// the sign always gets its cell, numbers only while at least eight cells
// of text remain.
func makeSide(width, numW int) side {
	s := side{width: width, signW: min(width, 2)}
	if width-s.signW-numW >= 8 {
		s.numW = numW
	}
	s.textW = max(0, width-s.signW-s.numW)
	return s
}

func (v LineView) geometry() geometry {
	g := geometry{split: v.EffectiveLayout() == Split, nw: v.lineDiff().numberWidth}
	if g.split {
		lw := (v.width - 1) / 2
		g.left = makeSide(lw, g.nw+1)
		g.right = makeSide(v.width-1-lw, g.nw+1)
	} else {
		g.left = makeSide(v.width, 2*g.nw+2)
	}
	return g
}

// wrapMemo caches the wrapped text of rows for one geometry; copies of a
// LineView share it, and a change of width, layout, context or wrapping
// starts a new generation.
type wrapMemo struct {
	key  memoKey
	rows map[int]wrapped
}

type memoKey struct {
	split bool
	ctx   ContextMode
	width int
	wrap  bool
}

// wrapped is the text pieces of a row's sides (unified rows use left).
type wrapped struct{ left, right []string }

// memoLimit bounds the cache; past it the generation starts over.
const memoLimit = 4096

// wrapRow returns the wrapped text of rows[i], from the memo when it can.
func (v LineView) wrapRow(rows []row, i int) wrapped {
	g := v.geometry()
	key := memoKey{split: g.split, ctx: v.context, width: v.width, wrap: v.wrap}
	m := v.memo
	if m == nil {
		m = &wrapMemo{}
	}
	if m.key != key || m.rows == nil || len(m.rows) > memoLimit {
		m.key, m.rows = key, make(map[int]wrapped)
	}
	if w, ok := m.rows[i]; ok {
		return w
	}
	r := rows[i]
	var w wrapped
	switch {
	case r.kind == rowHunk || r.kind == rowMessage:
		w.left = []string{r.note}
	case !g.split:
		w.left = v.pieces(r.left, r.kind == rowNoNL, g.left.textW)
	default:
		w.left = v.pieces(r.left, r.marks&markLeft != 0, g.left.textW)
		w.right = v.pieces(r.right, r.marks&markRight != 0, g.right.textW)
	}
	m.rows[i] = w
	return w
}

// pieces wraps line idx (or its no-newline marker) to width cells.
func (v LineView) pieces(idx int32, marker bool, width int) []string {
	switch {
	case idx < 0:
		return nil
	case marker:
		return wrapText(noNewlineNote, width, false)
	}
	l := v.lineDiff().lines[idx]
	text := screenText(l.Text)
	if l.CR {
		text += crMark
	}
	return wrapText(text, width, v.wrap)
}

// rowHeight is how many screen lines rows[i] takes.
func (v LineView) rowHeight(rows []row, i int) int {
	w := v.wrapRow(rows, i)
	return max(len(w.left), len(w.right), 1)
}

// drawRow renders every screen line of one row at full width.
func (v LineView) drawRow(st *themes.Styles, g geometry, r row, w wrapped) []string {
	switch r.kind {
	case rowHunk:
		return []string{st.Diff.Hunk.Render(fit(r.note, v.width))}
	case rowMessage:
		return []string{st.Text.Muted.Render(fit(r.note, v.width))}
	}
	h := max(len(w.left), len(w.right), 1)
	out := make([]string, h)
	if !g.split {
		for k := range out {
			out[k] = v.drawSide(st, g.left, r.left, r.kind == rowNoNL, w.left, k, unifiedNumbers)
		}
		return out
	}
	divider := st.Diff.LineNo.Render("│")
	for k := range out {
		out[k] = v.drawSide(st, g.left, r.left, r.marks&markLeft != 0, w.left, k, oldNumber) +
			divider + v.drawSide(st, g.right, r.right, r.marks&markRight != 0, w.right, k, newNumber)
	}
	return out
}

// numbering says which line numbers a column's gutter shows.
type numbering uint8

const (
	unifiedNumbers numbering = iota // old and new
	oldNumber
	newNumber
)

// drawSide renders screen line k of one column: gutter, sign and text,
// padded so added and removed lines carry their background across.
func (v LineView) drawSide(st *themes.Styles, s side, idx int32, marker bool, pieces []string, k int, nums numbering) string {
	if idx < 0 {
		return strings.Repeat(" ", s.width)
	}
	l := v.lineDiff().lines[idx]
	var gutter string
	if s.numW > 0 {
		if k == 0 && !marker {
			gutter = st.Diff.LineNo.Render(v.numbers(l, s.numW, nums))
		} else {
			gutter = strings.Repeat(" ", s.numW)
		}
	}
	piece := ""
	if k < len(pieces) {
		piece = pieces[k]
	}
	if marker {
		return gutter + strings.Repeat(" ", s.signW) + st.Text.Muted.Render(fit(piece, s.textW))
	}
	sign, style := " ", st.Diff.Context
	switch l.Kind {
	case LineDelete:
		sign, style = "-", st.Diff.DelLine
	case LineInsert:
		sign, style = "+", st.Diff.AddLine
	}
	if k > 0 {
		sign = " "
	}
	return gutter + style.Render(fit(sign, s.signW)+fit(piece, s.textW))
}

// numbers formats a line's gutter: "old new " (unified) or "no " (split).
func (v LineView) numbers(l Line, width int, nums numbering) string {
	nw := v.lineDiff().numberWidth
	num := func(n int) string {
		if n == 0 {
			return strings.Repeat(" ", nw)
		}
		return padLeft(strconv.Itoa(n), nw)
	}
	var s string
	switch nums {
	case unifiedNumbers:
		s = num(l.OldNo) + " " + num(l.NewNo) + " "
	case oldNumber:
		s = num(l.OldNo) + " "
	default:
		s = num(l.NewNo) + " "
	}
	return fit(s, width)
}
