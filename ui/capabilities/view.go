package capabilities

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// wideWidth is the width from which the library and the right column
// show side by side.
const wideWidth = 120

// rect is a pane's outer size; a zero rect hides the pane.
type rect struct{ w, h int }

type layout struct {
	wide                     bool
	library, detail, session rect
}

// layout places the panes in the body (the last row is the status line).
func (m *Model) layout() layout {
	w, h := max(0, m.width), max(0, m.height-1)
	if w >= wideWidth {
		leftW := min(max(w*3/8, 36), 64)
		detailH := min(max(h*9/20, 6), h)
		return layout{wide: true, library: rect{leftW, h}, detail: rect{w - leftW, detailH}, session: rect{w - leftW, h - detailH}}
	}
	switch m.focus {
	case paneLibrary:
		libH := min(max(h/2, 5), h)
		return layout{library: rect{w, libH}, detail: rect{w, h - libH}}
	case paneDetail:
		return layout{detail: rect{w, h}}
	}
	return layout{session: rect{w, h}}
}

// layoutParts lays out what View draws at the size it draws it: the
// editor's fields or the bindings form (sizeBindings) or the scroll of
// the capability's text in the detail pane, the session view's lines and
// scroll, and the open dialog. Update calls it after every message,
// SetSize after a resize and the focus keys after a move (the narrow
// layout shows the focused pane), so View only draws.
func (m *Model) layoutParts() {
	if m.width <= 0 || m.height <= 1 {
		return
	}
	l := m.layout()
	if l.detail.h > 0 {
		switch {
		case m.edit != nil:
			m.edit.layout(l.detail)
		case m.mode == modeCapability:
			m.detail.layout(l.detail, m.selectedCapability())
		}
	}
	m.sizeBindings()
	if l.session.h > 0 {
		m.view.layout(l.session, m.focus == paneSession)
	}
	m.layoutDialog()
}

// detailInner is the detail pane's inner height and width (the wide
// layout's when it is hidden, so renders are ready when it shows).
func (m *Model) detailInner() (int, int) {
	d := m.layout().detail
	if d.w == 0 {
		d = rect{m.width, m.height - 1}
	}
	return max(0, d.h-2), max(0, d.w-4)
}

// View implements common.Panel: exactly width×height cells.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	if m.height == 1 { // only the status line fits
		return m.statusLine()
	}
	l := m.layout()
	var left, right []string
	if l.library.h > 0 {
		left = append(left, m.libraryList.View(l.library, m.focus == paneLibrary))
	}
	if l.detail.h > 0 {
		right = append(right, m.detailView(l.detail))
	}
	if l.session.h > 0 {
		right = append(right, m.view.View(l.session, m.focus == paneSession))
	}
	if !l.wide {
		left, right = append(left, right...), nil
	}
	body := joinColumns(strings.Split(strings.Join(left, "\n"), "\n"), strings.Split(strings.Join(right, "\n"), "\n"), m.width, m.height-1)
	screen := body + "\n" + m.statusLine()
	if m.dialogs.Open() {
		// The compositor trims trailing blanks; keep every row full width.
		rows := strings.Split(m.dialogs.View(screen, m.width, m.height), "\n")
		for i, r := range rows {
			rows[i] = common.PadRight(r, m.width)
		}
		return strings.Join(rows, "\n")
	}
	return screen
}

// statusLine is the panel's last row: the last message, else the keys
// that act from any pane and the footer does not list (idleHints; whole
// hints that fit), after a warning when the project is not trusted.
func (m *Model) statusLine() string {
	st := &m.com.Styles
	prefix := ""
	if !m.com.Workspace.Trust.Trusted {
		prefix = st.Text.Warning.Render(i18n.T("project not trusted: read-only") + " · ")
	}
	var line string
	switch {
	case m.status == "":
		line, _ = common.FitHints(st, common.Ranked(0, m.idleHints()...), max(0, m.width-ansi.StringWidth(prefix)))
	case m.statusErr:
		line = st.Text.Danger.Render(sanitize.Fold(m.status))
	default:
		line = st.Text.Info.Render(sanitize.Fold(m.status))
	}
	return common.PadRight(ansi.Truncate(prefix+line, m.width, "…"), m.width)
}

// detailView draws the detail pane r: the editor while one is open, else
// the bindings view or the capability under the library's cursor.
func (m *Model) detailView(r rect) string {
	focused := m.focus == paneDetail
	switch {
	case m.edit != nil:
		return m.edit.View(r, focused)
	case m.mode == modeBindings:
		return m.bindings.View(r, focused)
	}
	return m.detail.View(r, m.selectedCapability(), focused)
}

// joinColumns places two columns of exact-width lines side by side and
// pads the result to height lines of width cells.
func joinColumns(left, right []string, width, height int) string {
	var b strings.Builder
	for i := 0; i < height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if i < len(left) {
			line = left[i]
		}
		if i < len(right) {
			line += right[i]
		}
		b.WriteString(common.PadRight(ansi.Truncate(line, width, ""), width))
	}
	return b.String()
}

// idleHints are the keys that act whatever pane has focus (the session
// actions, the bindings view) and that the footer, which lists the
// focused pane's keys (ShortHelp), does not show already.
func (m *Model) idleHints() []key.Binding {
	k := &m.keys
	shown := map[string]bool{}
	for _, b := range m.ShortHelp() {
		shown[b.Help().Key] = true
	}
	var hints []key.Binding
	for _, b := range []key.Binding{k.EnableBound, k.Add, k.Reset, k.Bindings} {
		if b.Enabled() && !shown[b.Help().Key] {
			hints = append(hints, b)
		}
	}
	return hints
}
