package common

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// Viewer is the "view whole" overlay (v in every panel): one Whole's text,
// sanitised and wrapped to the width — long words broken, nothing cut —
// in a focused frame drawn over the body, scrolled with the navigation
// keys. The root owns it while it is open: y copies the text, o opens it
// in $PAGER, esc (or v, q) closes it. A text up to syncLayoutMax is laid
// out when drawn; a larger one (a long branch's request) in a command
// (Layout), so no frame waits for it.
type Viewer struct {
	whole Whole
	// laidOut is the text wrapped for one inner width; pending is the
	// width a Layout command is working on (0: none).
	laidOut viewerLayout
	pending int
	// offset is the first line shown and height the last height drawn
	// (for paging).
	height int
	offset int
}

// viewerLayout is a Whole's note and text, sanitised and wrapped for an
// inner width; the first noteLines lines are the note.
type viewerLayout struct {
	width     int
	lines     []string
	noteLines int
}

// syncLayoutMax is the largest text (with its note, in bytes) the viewer
// lays out while drawing.
const syncLayoutMax = 64 << 10

// NewViewer opens w, whose text is at hand (ShowWhole loaded it).
func NewViewer(w Whole) *Viewer { return &Viewer{whole: w} }

// ViewerLaidOutMsg carries a layout made by Layout's command.
type ViewerLaidOutMsg struct {
	viewer *Viewer
	layout viewerLayout
}

// Layout lays the text out for a screen width in a command when it is too
// big to do while drawing (nil otherwise, or when that width is laid out
// or on its way). Pass the result to Apply.
func (v *Viewer) Layout(width int) tea.Cmd {
	inner := max(1, width-4)
	if len(v.whole.Text)+len(v.whole.Note) <= syncLayoutMax || v.laidOut.width == inner || v.pending == inner {
		return nil
	}
	v.pending = inner
	w := v.whole
	return func() tea.Msg { return ViewerLaidOutMsg{viewer: v, layout: layoutWhole(w, inner)} }
}

// Apply takes a layout Layout made for this viewer (false: another's).
func (v *Viewer) Apply(msg ViewerLaidOutMsg) bool {
	if msg.viewer != v {
		return false
	}
	if v.pending == msg.layout.width {
		v.pending = 0
	}
	v.laidOut = msg.layout
	return true
}

// layoutWhole sanitises and wraps w's note and text for an inner width.
func layoutWhole(w Whole, inner int) viewerLayout {
	l := viewerLayout{width: inner, lines: wrapWhole(sanitize.Text(strings.TrimRight(w.Text, "\n")), inner)}
	if note := sanitize.Text(strings.TrimSpace(w.Note)); note != "" {
		lines := wrapWhole(note, inner)
		l.noteLines = len(lines)
		l.lines = append(append(lines, ""), l.lines...)
	}
	return l
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
		v.offset = len(v.laidOut.lines) // clamped when drawn
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
	title := i18n.T("View · %s", sanitize.Fold(v.whole.Title))
	if v.laidOut.width != inner && len(v.whole.Text)+len(v.whole.Note) <= syncLayoutMax {
		v.laidOut = layoutWhole(v.whole, inner)
	}
	l := &v.laidOut // another width's lines until Layout's arrive (cut by the frame)
	if l.lines == nil {
		return Frame(*st, width, height, title, "", true, []string{st.Text.Muted.Render(i18n.T("laying the text out…"))})
	}
	rows := max(0, height-2)
	v.height = rows
	v.offset = Clamp(v.offset, 0, max(0, len(l.lines)-rows))
	end := min(len(l.lines), v.offset+rows)
	shown := make([]string, 0, end-v.offset)
	for i, line := range l.lines[v.offset:end] {
		style := st.Text.Normal
		if v.offset+i < l.noteLines {
			style = st.Text.Warning // the pane's status, above the text
		}
		shown = append(shown, style.Render(line))
	}
	info := i18n.T("all %d lines", len(l.lines))
	if len(l.lines) > rows {
		info = i18n.T("lines %d–%d of %d", v.offset+1, end, len(l.lines))
	}
	return Frame(*st, width, height, title, info, true, shown)
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
