package common

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// Viewer is the "view whole" overlay (v in every panel): one Whole's text,
// sanitised and wrapped to the width — long words broken, nothing cut —
// in a focused frame drawn over the body, scrolled with the navigation
// keys. The root owns it while it is open: y copies the text, o opens it
// in $PAGER, esc (or v, q) closes it.
type Viewer struct {
	whole Whole
	text  string
	note  string
	// lines are text wrapped for width; offset is the first line shown
	// and height the last height drawn (for paging).
	lines []string
	width int
	// noteLines are the first lines of lines that show the Note.
	noteLines int
	height    int
	offset    int
}

// NewViewer opens w, whose text is at hand (ShowWhole loaded it).
func NewViewer(w Whole) *Viewer {
	return &Viewer{whole: w, text: sanitize.Text(strings.TrimRight(w.Text, "\n")), note: sanitize.Text(strings.TrimSpace(w.Note))}
}

// Whole is what the viewer shows.
func (v *Viewer) Whole() Whole { return v.whole }

// ViewerAction is what a key asked of the viewer's owner.
type ViewerAction int

// The actions a key can leave to the owner.
const (
	// ViewerNone: the key scrolled, or did nothing.
	ViewerNone ViewerAction = iota
	// ViewerClose: close the overlay.
	ViewerClose
	// ViewerCopy: copy the text (Copy).
	ViewerCopy
	// ViewerPage: open the text in the pager (Common.Page).
	ViewerPage
)

// HandleKey reads one key with the global bindings: the navigation keys
// scroll, and the owner carries out what the others ask.
func (v *Viewer) HandleKey(k *keymap.Set, msg tea.KeyPressMsg) ViewerAction {
	page := max(1, v.height-1)
	switch {
	case key.Matches(msg, k.Back, k.View, k.Quit):
		return ViewerClose
	case key.Matches(msg, k.Copy):
		return ViewerCopy
	case key.Matches(msg, k.Pager):
		return ViewerPage
	case key.Matches(msg, k.Up):
		v.Scroll(-1)
	case key.Matches(msg, k.Down):
		v.Scroll(1)
	case key.Matches(msg, k.PageUp):
		v.Scroll(-page)
	case key.Matches(msg, k.PageDown):
		v.Scroll(page)
	case key.Matches(msg, k.Top):
		v.offset = 0
	case key.Matches(msg, k.Bottom):
		v.offset = len(v.lines) // clamped when drawn
	}
	return ViewerNone
}

// Scroll moves the view by delta lines (clamped when drawn).
func (v *Viewer) Scroll(delta int) { v.offset = max(0, v.offset+delta) }

// ViewerHelp are the viewer's keys for the footer.
func ViewerHelp(k *keymap.Set) []key.Binding {
	return []key.Binding{k.Down, k.Up, k.PageDown, k.Copy, k.Pager, k.Back}
}

// View draws the viewer in exactly width×height cells: a focused frame
// titled with what it shows, the text's lines from the offset, and the
// position in the bottom border.
func (v *Viewer) View(st *themes.Styles, width, height int) string {
	inner := max(1, width-4)
	if v.lines == nil || v.width != inner {
		v.lines, v.width, v.noteLines = wrapWhole(v.text, inner), inner, 0
		if v.note != "" {
			note := wrapWhole(v.note, inner)
			v.noteLines = len(note)
			v.lines = append(append(note, ""), v.lines...)
		}
	}
	rows := max(0, height-2)
	v.height = rows
	v.offset = Clamp(v.offset, 0, max(0, len(v.lines)-rows))
	end := min(len(v.lines), v.offset+rows)
	shown := make([]string, 0, end-v.offset)
	for i, l := range v.lines[v.offset:end] {
		style := st.Text.Normal
		if v.offset+i < v.noteLines {
			style = st.Text.Warning // the pane's status, above the text
		}
		shown = append(shown, style.Render(l))
	}
	info := fmt.Sprintf("all %d lines", len(v.lines))
	if len(v.lines) > rows {
		info = fmt.Sprintf("lines %d–%d of %d", v.offset+1, end, len(v.lines))
	}
	return Frame(*st, width, height, "View · "+sanitize.Fold(v.whole.Title), info, true, shown)
}

// wrapWhole breaks text into lines of at most width cells: at spaces
// where it can, inside a word longer than the width where it must, so no
// character is left out.
func wrapWhole(text string, width int) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(line, width, ""), "\n")...)
	}
	return out
}
