package common

import (
	"strings"
	"sync"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
)

// Guard is implemented by a panel that can hold unsaved work. The root
// asks every panel before it quits: when one is dirty, `q` and `ctrl+c`
// open a confirmation naming what would be lost instead of quitting.
type Guard interface {
	// Unsaved describes the work that quitting would discard ("the draft
	// of project:review") and whether there is any.
	Unsaved() (what string, dirty bool)
}

// Answer is how a key left a Confirm.
type Answer int

// The answers of a Confirm.
const (
	// Pending: the key did not answer; the question stays open.
	Pending Answer = iota
	// Yes: the user confirmed.
	Yes
	// No: the user declined or dismissed the question.
	No
)

// Confirm is a yes/no question shown in a dialog over the screen. Its
// keys are bindings, so the hint under the question is generated from
// them and follows user rebinding.
type Confirm struct {
	Title string
	Body  string
	Yes   key.Binding
	No    key.Binding
}

// Answer reads one key: Yes or No when it matches those bindings, else
// Pending (every other key is swallowed while the question is open).
func (c *Confirm) Answer(msg tea.KeyPressMsg) Answer {
	switch {
	case key.Matches(msg, c.Yes):
		return Yes
	case key.Matches(msg, c.No):
		return No
	}
	return Pending
}

// View is the dialog box for a screen of width cells (not placed: see
// Overlay). The body wraps at spaces and its own newlines (WrapWhole):
// an id or a command on a line of its own stays whole.
func (c *Confirm) View(st *themes.Styles, width, height int) string {
	return DialogBox(st, width, height, c.Title, WrapWhole(c.Body, DialogInner(width)), KeyHint([]key.Binding{c.Yes, c.No}))
}

// DialogInner is the text width of a dialog on a screen of width cells
// (what its body lines may use).
func DialogInner(width int) int { return min(max(30, width-8), 72) - 4 }

// DialogBox draws a titled dialog with body lines and a key hint, at most
// width×height cells: the frame every modal of the workbench shares.
// Nothing in a dialog is cut (it may be an id to copy): the key hint
// wraps at spaces (WrapWhole), so no key is lost or split from its verb,
// and a body line wider than the dialog wraps at its words with its
// styling kept (Wrap). Wrap plain body text with WrapWhole first so an id
// is broken only where it must be.
func DialogBox(st *themes.Styles, width, height int, title string, body []string, hint string) string {
	inner := DialogInner(width)
	lines := []string{st.Dialog.Title.Render(title), ""}
	lines = append(lines, body...)
	if hint != "" {
		lines = append(lines, "")
		for _, l := range WrapWhole(hint, inner) {
			lines = append(lines, st.Text.Muted.Render(l))
		}
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if ansi.StringWidth(l) <= inner {
			out = append(out, l)
			continue
		}
		out = append(out, Wrap(l, inner)...)
	}
	return st.Dialog.Box.Width(inner + 4).MaxWidth(max(0, width)).MaxHeight(max(0, height)).Render(strings.Join(out, "\n"))
}

// KeyHint is a dialog's key line generated from the bindings that answer
// it ("y quit · n/esc keep working").
func KeyHint(bs []key.Binding) string {
	parts := make([]string, 0, len(bs))
	for _, b := range bs {
		if b.Enabled() {
			parts = append(parts, b.Help().Key+" "+HelpDesc(b))
		}
	}
	return strings.Join(parts, " · ")
}

// Overlay draws box centred over screen (width×height cells), clamped to
// it, with the screen dimmed underneath: the user keeps their bearings
// (what they were looking at stays in place) while the dialog is
// unmistakably on top. The result is exactly width×height cells.
func Overlay(screen, box string, width, height int) string {
	return OverlayAt(screen, box, width, height, -1, -1)
}

// OverlayAt is Overlay with the box's top-left corner at (x, y); -1 centres
// it on that axis. The box is clamped to the screen.
//
// Only the rows the box covers are composed on a canvas (the box over
// the dimmed screen); a row above or below it is the dimmed row as is,
// filled to the width, which is what the canvas gave for it. The dimmed
// rows of the last screen are kept (dimmedRows), so typing into the
// palette, which draws the same screen under a new box at every key,
// dims it once. Composing the whole screen cell by cell cost most of a
// frame with the palette or the help open; overlayRef in the tests is
// that composition, which the result is held to byte for byte.
func OverlayAt(screen, box string, width, height, x, y int) string {
	if width <= 0 || height <= 0 {
		return screen
	}
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	if bw > width || bh > height {
		box = lipgloss.NewStyle().MaxWidth(width).MaxHeight(height).Render(box)
		bw, bh = lipgloss.Width(box), lipgloss.Height(box)
	}
	if x < 0 {
		x = (width - bw) / 2
	}
	if y < 0 {
		y = (height - bh) / 2
	}
	x, y = Clamp(x, 0, max(0, width-bw)), Clamp(y, 0, max(0, height-bh))
	rows := dimmedRows(screen, width)
	under := make([]string, 0, bh) // the dimmed rows the box covers
	for i := y; i < y+bh; i++ {
		if i < len(rows) {
			under = append(under, rows[i].dimmed)
		} else {
			under = append(under, "")
		}
	}
	canvas := lipgloss.NewCanvas(width, bh)
	canvas.Compose(lipgloss.NewCompositor(lipgloss.NewLayer(strings.Join(under, "\n")), lipgloss.NewLayer(box).X(x).Z(1)))
	covered := strings.Split(canvas.Render(), "\n")
	blank := strings.Repeat(" ", width)
	out := make([]string, height)
	for i := range out {
		switch {
		case i >= y && i < y+bh && i-y < len(covered):
			out[i] = FitLine(covered[i-y], width)
		case i >= y && i < y+bh, i >= len(rows):
			out[i] = blank
		default:
			out[i] = rows[i].filled
		}
	}
	return strings.Join(out, "\n")
}

// dimmedRow is one row of a screen under a dialog: dimmed (Dim) and, as
// a screen row outside the dialog, filled to the width.
type dimmedRow struct{ dimmed, filled string }

// dimmed keeps the dimmed rows of the last screen OverlayAt drew over
// (View runs on one goroutine; the lock serves tests running in
// parallel).
var dimmed struct {
	sync.Mutex
	screen string
	width  int
	rows   []dimmedRow
}

// dimmedRows is screen dimmed row by row for a width, from the last call
// when the screen is the same. The canvas fills a row with blanks and
// clips one wider than the screen; a row that fits is padded here, a
// wider one goes through a one-row canvas.
func dimmedRows(screen string, width int) []dimmedRow {
	dimmed.Lock()
	defer dimmed.Unlock()
	if dimmed.rows != nil && dimmed.screen == screen && dimmed.width == width {
		return dimmed.rows
	}
	lines := strings.Split(Dim(screen), "\n")
	rows := make([]dimmedRow, len(lines))
	for i, l := range lines {
		rows[i].dimmed = l
		if Width(l) <= width {
			rows[i].filled = FitLine(l, width)
			continue
		}
		row := lipgloss.NewCanvas(width, 1)
		row.Compose(lipgloss.NewCompositor(lipgloss.NewLayer(l)))
		rows[i].filled = FitLine(row.Render(), width)
	}
	dimmed.screen, dimmed.width, dimmed.rows = screen, width, rows
	return rows
}

// dimStyle draws what lies under a dialog: faint and without its colours,
// which reads as "in the background" in every theme and under NO_COLOR.
var dimStyle = lipgloss.NewStyle().Faint(true)

// Dim returns screen with its styling replaced by faint text, line by
// line (the width of every line is kept).
func Dim(screen string) string {
	lines := strings.Split(ansi.Strip(screen), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = dimStyle.Render(l)
		}
	}
	return strings.Join(lines, "\n")
}

// WrapWhole breaks plain text into lines of at most width cells at
// spaces and at its own newlines only: a hyphenated word (a UUID, a tool
// patch "-edit", a path) stays whole on a line where it fits, and only a
// word longer than a line is split, at the width. A line's leading
// spaces are kept (a command's continuation). What a dialog says a user
// may copy is never cut, nor broken where it need not be. Text with
// double-width characters also breaks between them (wrapWide), never
// before closing or after opening punctuation.
func WrapWhole(text string, width int) []string {
	if width <= 0 {
		return nil
	}
	if hasWide(text) {
		return wrapWide(text, width, wideBreak)
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := para[:len(para)-len(strings.TrimLeft(para, " "))]
		if ansi.StringWidth(line) >= width {
			line = ""
		}
		for _, word := range strings.Fields(para) {
			for ansi.StringWidth(word) > width { // longer than a line: split it
				if strings.TrimSpace(line) != "" {
					out = append(out, line)
				}
				line = ""
				head := splitWord(word, width)
				out, word = append(out, head), word[len(head):]
			}
			switch {
			case word == "":
			case strings.TrimSpace(line) == "" && ansi.StringWidth(line)+ansi.StringWidth(word) <= width:
				line += word
			case strings.TrimSpace(line) == "":
				line = word // the indent leaves no room for it
			case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
				line += " " + word
			default:
				out, line = append(out, line), word
			}
		}
		out = append(out, line)
	}
	return out
}

// splitWord is the longest start of a plain word that fits in width cells,
// whole characters only, and at least one character: a double-width
// character on a line of one cell stands alone rather than be cut in half
// (ansi.Cut there gave the whole word back, and WrapWhole never ended).
func splitWord(word string, width int) string {
	if head := ansi.Truncate(word, width, ""); head != "" {
		return head
	}
	_, size := utf8.DecodeRuneInString(word)
	if head := ansi.Truncate(word, ansi.StringWidth(word[:size]), ""); len(head) > size {
		return head // the first character with its combining marks
	}
	return word[:size]
}

// Wrap breaks text into lines of at most width cells at word boundaries
// (spaces and hyphens), and inside a word longer than the width, so
// nothing is cut; ANSI styling is kept across the breaks. It is for
// prose; text a user may copy (an id, a command, a key hint) is wrapped
// with WrapWhole, which breaks only at spaces. Text with double-width
// characters breaks between them too, never before closing or after
// opening punctuation (wrapWide).
func Wrap(text string, width int) []string {
	if width <= 0 {
		return nil
	}
	if hasWide(text) {
		return wrapWide(text, width, anyBreak)
	}
	return strings.Split(ansi.Wrap(text, width, ""), "\n")
}
