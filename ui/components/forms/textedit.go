package forms

import (
	"fmt"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// textEditor is the multi-line editor of the raw JSON view: the text as
// lines of runes, a cursor, and a window that follows it. bubbles'
// textarea renders every line of its value on each key and each frame, so
// a key in a 200-item Preset (1,400 lines of JSON) cost a quarter of a
// second; this editor touches only the lines on screen. Lines do not wrap:
// a long one scrolls sideways with the cursor, as in a code editor.
type textEditor struct {
	keys  *keymap.TextEditor
	lines [][]rune
	// row and col are the cursor (col counts runes, 0..len(line)); want is
	// the column up/down aim for.
	row, col, want int
	// top is the first line shown, left the first cell of the cursor's
	// line on screen.
	top, left int
	// width and height are the window's cells (setSize): the paging
	// keys move by its height, and the window follows the cursor (follow).
	width, height int
}

// newTextEditor edits text with the cursor at its start.
func newTextEditor(keys *keymap.TextEditor, text string) *textEditor {
	e := &textEditor{keys: keys, height: 1}
	e.setValue(text)
	return e
}

func (e *textEditor) setValue(text string) {
	parts := strings.Split(text, "\n")
	e.lines = make([][]rune, len(parts))
	for i, p := range parts {
		e.lines[i] = []rune(p)
	}
	e.row, e.col, e.want, e.top, e.left = 0, 0, 0, 0, 0
}

// Value is the text being edited.
func (e *textEditor) Value() string {
	var b strings.Builder
	for i, l := range e.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

// update handles a key or a paste; changed reports whether the text changed.
func (e *textEditor) update(msg tea.Msg) (changed bool) {
	defer e.follow()
	switch msg := msg.(type) {
	case tea.PasteMsg:
		e.insert(msg.Content)
		return msg.Content != ""
	case tea.KeyPressMsg:
		return e.key(msg)
	}
	return false
}

// setSize lays the window out for width×height cells and keeps the
// cursor in it.
func (e *textEditor) setSize(width, height int) {
	e.width, e.height = width, max(1, height)
	e.follow()
}

func (e *textEditor) key(kp tea.KeyPressMsg) bool {
	k := e.keys
	line := e.lines[e.row]
	switch {
	case key.Matches(kp, k.Left):
		if e.col > 0 {
			e.col--
		} else if e.row > 0 {
			e.row--
			e.col = len(e.lines[e.row])
		}
	case key.Matches(kp, k.Right):
		if e.col < len(line) {
			e.col++
		} else if e.row < len(e.lines)-1 {
			e.row, e.col = e.row+1, 0
		}
	case key.Matches(kp, k.Up):
		e.moveRows(-1)
		return false
	case key.Matches(kp, k.Down):
		e.moveRows(1)
		return false
	case key.Matches(kp, k.PageUp):
		e.moveRows(-max(1, e.height))
		return false
	case key.Matches(kp, k.PageDown):
		e.moveRows(max(1, e.height))
		return false
	case key.Matches(kp, k.LineStart):
		e.col = 0
	case key.Matches(kp, k.LineEnd):
		e.col = len(line)
	case key.Matches(kp, k.DocStart):
		e.row, e.col = 0, 0
	case key.Matches(kp, k.DocEnd):
		e.row = len(e.lines) - 1
		e.col = len(e.lines[e.row])
	case key.Matches(kp, k.Newline):
		e.insert("\n")
		return true
	case key.Matches(kp, k.Indent):
		e.insert("  ")
		return true
	case key.Matches(kp, k.DeleteBefore):
		return e.deleteBefore()
	case key.Matches(kp, k.DeleteAfter):
		return e.deleteAfter()
	case key.Matches(kp, k.KillToEnd):
		if e.col == len(line) {
			return e.deleteAfter() // at the end: join the next line
		}
		e.lines[e.row] = line[:e.col]
		return true
	case key.Matches(kp, k.KillToStart):
		if e.col == 0 {
			return false
		}
		e.lines[e.row] = append([]rune{}, line[e.col:]...)
		e.col = 0
		return true
	case key.Matches(kp, k.WordLeft):
		e.row, e.col = e.wordBefore()
	case key.Matches(kp, k.WordRight):
		e.row, e.col = e.wordAfter()
	case key.Matches(kp, k.DeleteWordBefore):
		row, col := e.wordBefore()
		return e.deleteRange(row, col, e.row, e.col)
	case key.Matches(kp, k.DeleteWordAfter):
		row, col := e.wordAfter()
		return e.deleteRange(e.row, e.col, row, col)
	case kp.Text != "" && kp.Mod&(tea.ModCtrl|tea.ModAlt) == 0:
		e.insert(kp.Text)
		return true
	default:
		return false
	}
	e.want = e.col
	return false
}

// wordBefore is where a word back from the cursor starts: spaces, then
// non-spaces, are skipped; at a line start it is the previous line's end.
func (e *textEditor) wordBefore() (row, col int) {
	if e.col == 0 {
		if e.row == 0 {
			return 0, 0
		}
		return e.row - 1, len(e.lines[e.row-1])
	}
	line, col := e.lines[e.row], e.col
	for col > 0 && unicode.IsSpace(line[col-1]) {
		col--
	}
	for col > 0 && !unicode.IsSpace(line[col-1]) {
		col--
	}
	return e.row, col
}

// wordAfter is where a word forward from the cursor ends: spaces, then
// non-spaces, are skipped; at a line end it is the next line's start.
func (e *textEditor) wordAfter() (row, col int) {
	line, col := e.lines[e.row], e.col
	if col == len(line) {
		if e.row == len(e.lines)-1 {
			return e.row, col
		}
		return e.row + 1, 0
	}
	for col < len(line) && unicode.IsSpace(line[col]) {
		col++
	}
	for col < len(line) && !unicode.IsSpace(line[col]) {
		col++
	}
	return e.row, col
}

// deleteRange deletes the text from (r0, c0) up to (r1, c1), which come in
// order, and leaves the cursor at its start.
func (e *textEditor) deleteRange(r0, c0, r1, c1 int) bool {
	if r0 == r1 && c0 == c1 {
		return false
	}
	head := e.lines[r0][:c0:c0]
	joined := append(head, e.lines[r1][c1:]...)
	e.lines = append(e.lines[:r0], append([][]rune{joined}, e.lines[r1+1:]...)...)
	e.row, e.col, e.want = r0, c0, c0
	return true
}

// moveRows moves the cursor n lines, aiming at the remembered column.
func (e *textEditor) moveRows(n int) {
	e.row = max(0, min(len(e.lines)-1, e.row+n))
	e.col = min(e.want, len(e.lines[e.row]))
}

// insert types text at the cursor (newlines split the line).
func (e *textEditor) insert(text string) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	parts := strings.Split(text, "\n")
	line := e.lines[e.row]
	head := append([]rune{}, line[:e.col]...)
	tail := append([]rune{}, line[e.col:]...)
	if len(parts) == 1 {
		ins := []rune(parts[0])
		e.lines[e.row] = append(append(head, ins...), tail...)
		e.col += len(ins)
		e.want = e.col
		return
	}
	added := make([][]rune, len(parts))
	added[0] = append(head, []rune(parts[0])...)
	for i := 1; i < len(parts)-1; i++ {
		added[i] = []rune(parts[i])
	}
	last := []rune(parts[len(parts)-1])
	added[len(parts)-1] = append(append([]rune{}, last...), tail...)
	e.lines = append(e.lines[:e.row], append(added, e.lines[e.row+1:]...)...)
	e.row += len(parts) - 1
	e.col = len(last)
	e.want = e.col
}

func (e *textEditor) deleteBefore() bool {
	switch {
	case e.col > 0:
		line := e.lines[e.row]
		e.lines[e.row] = append(line[:e.col-1:e.col-1], line[e.col:]...)
		e.col--
	case e.row > 0:
		prev := e.lines[e.row-1]
		e.col = len(prev)
		e.lines[e.row-1] = append(prev[:len(prev):len(prev)], e.lines[e.row]...)
		e.lines = append(e.lines[:e.row], e.lines[e.row+1:]...)
		e.row--
	default:
		return false
	}
	e.want = e.col
	return true
}

func (e *textEditor) deleteAfter() bool {
	line := e.lines[e.row]
	switch {
	case e.col < len(line):
		e.lines[e.row] = append(line[:e.col:e.col], line[e.col+1:]...)
	case e.row < len(e.lines)-1:
		e.lines[e.row] = append(line[:len(line):len(line)], e.lines[e.row+1]...)
		e.lines = append(e.lines[:e.row+1], e.lines[e.row+2:]...)
	default:
		return false
	}
	return true
}

// gutter is the width of the line-number gutter and the cells left for
// the text in a window width cells wide.
func (e *textEditor) gutter(width int) (gutter, textW int) {
	gutter = len(fmt.Sprint(len(e.lines))) + 1
	return gutter, max(1, width-gutter-1)
}

// follow scrolls the window (setSize) to keep the cursor in view: down
// through the lines, and sideways on the cursor's line only (view).
func (e *textEditor) follow() {
	if e.row < e.top {
		e.top = e.row
	}
	if e.row >= e.top+e.height {
		e.top = e.row - e.height + 1
	}
	_, textW := e.gutter(e.width)
	// the cursor's cells in its line (a tab or a wide rune takes several),
	// kept inside the window sideways
	cur := cellsOf(e.lines[e.row][:e.col])
	atW := 1
	if e.col < len(e.lines[e.row]) {
		atW = max(1, cellsOf(e.lines[e.row][e.col:e.col+1]))
	}
	if cur < e.left {
		e.left = cur
	}
	if cur+atW > e.left+textW {
		e.left = max(0, cur+atW-textW)
	}
}

// view draws the lines on screen in width×height cells: a line-number
// gutter, then each line, the cursor reversed. The window scrolls to keep
// the cursor in view: down through the lines, and sideways on the
// cursor's line only (as nano does) — the other lines keep their start on
// screen, a line longer than the window ending in "…", so moving along a
// long line never blanks the short ones around it (issue 21).
func (e *textEditor) view(st *themes.Styles, width, height int) []string {
	height = max(1, height)
	gutter, textW := e.gutter(width)
	cur := cellsOf(e.lines[e.row][:e.col])
	out := make([]string, 0, height)
	for r := e.top; r < min(len(e.lines), e.top+height); r++ {
		num := st.Text.Muted.Render(fmt.Sprintf("%*d ", gutter, r+1))
		text := sanitize.Line(string(e.lines[r]))
		if r != e.row {
			out = append(out, num+ansi.Truncate(text, textW, "…"))
			continue
		}
		before := sanitize.Line(string(e.lines[r][:e.col]))
		at, after := " ", ""
		if e.col < len(e.lines[r]) {
			at = sanitize.Line(string(e.lines[r][e.col]))
			after = sanitize.Line(string(e.lines[r][e.col+1:]))
		}
		at = ansi.Cut(at, 0, textW) // a glyph wider than the whole window is cut
		line := ansi.Cut(before, e.left, e.left+textW) + st.Text.Normal.Reverse(true).Render(at) +
			ansi.Cut(after, 0, max(0, e.left+textW-cur-ansi.StringWidth(at)))
		out = append(out, num+line)
	}
	return out
}

// cellsOf is the display width of runes as the screen shows them.
func cellsOf(rs []rune) int { return ansi.StringWidth(sanitize.Line(string(rs))) }
