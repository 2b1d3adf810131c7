package presets

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// wideWidth is the width from which the list, the items and the editor
// stand side by side.
const wideWidth = 120

// rect is a pane's outer size.
type rect struct{ w, h int }

// layout is where each pane goes; a zero rect hides the pane.
type layout struct {
	wide                         bool
	list, items, editor, preview rect
}

func (m *Model) layout() layout {
	w, h := max(0, m.width), max(0, m.height-1) // the last row is the status line
	if m.showProfile {
		leftW := common.Clamp(w*2/5, 30, 56)
		return layout{wide: w >= wideWidth, list: rect{leftW, h}, editor: rect{w - leftW, h}}
	}
	split := func(r rect) (rect, rect) {
		if !m.showPreview || m.d == nil {
			return r, rect{}
		}
		edH := common.Clamp(r.h*45/100, min(r.h, 6), r.h)
		if w < wideWidth && m.focus == panePreview {
			edH = min(r.h, 5) // a narrow screen gives the focused dock the room
		}
		return rect{r.w, edH}, rect{r.w, r.h - edH}
	}
	if w >= wideWidth {
		listW := common.Clamp(w*22/100, 28, 44)
		itemsW := common.Clamp(w*28/100, 34, 56)
		ed, pv := split(rect{w - listW - itemsW, h})
		return layout{wide: true, list: rect{listW, h}, items: rect{itemsW, h}, editor: ed, preview: pv}
	}
	leftW := common.Clamp(w*2/5, 26, 40)
	listH := common.Clamp(h/3, min(h, 5), h)
	ed, pv := split(rect{w - leftW, h})
	return layout{list: rect{leftW, listH}, items: rect{leftW, h - listH}, editor: ed, preview: pv}
}

// paneRows is the inner height of a pane (for paging).
func (m *Model) paneRows(p pane) int {
	l := m.layout()
	switch p {
	case paneList:
		return l.list.h - 2
	case paneItems:
		return l.items.h - 2
	case panePreview:
		return l.preview.h - 2
	}
	return l.editor.h - 2
}

// dock is the preview dock sized to the layout now (which the focus
// changes on a narrow screen).
func (m *Model) dock() *previewDock {
	m.previewDock.size = m.layout().preview
	return &m.previewDock
}

// View implements common.Panel: exactly width×height cells, with nothing
// but styling and text (sanitize.Screen).
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return sanitize.Screen(m.view())
}

func (m *Model) view() string {
	if m.diff != nil {
		return m.draftDiffView()
	}
	l := m.layout()
	var body string
	if m.showProfile {
		body = m.profilesView.View(l)
	} else {
		list := m.libraryList.View(l.list, m.focus == paneList, m.presetsOff())
		items, right := m.draftEditor.View(l, m.focus, m.compiled(), m.lib != nil && len(m.lib.Presets) == 0)
		if l.preview.h > 0 {
			right += "\n" + m.dock().View(m.focus == panePreview, m.d.Version())
		}
		if l.wide {
			body = joinH(list, items, right)
		} else {
			body = joinH(list+"\n"+items, right)
		}
	}
	screen := body + "\n" + m.statusLine()
	return m.dialogs.View(screen, m.width, m.height)
}

// joinH puts blocks of equal height side by side.
func joinH(blocks ...string) string {
	split := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	var b strings.Builder
	for row := range n {
		if row > 0 {
			b.WriteByte('\n')
		}
		for _, lines := range split {
			if row < len(lines) {
				b.WriteString(lines[row])
			}
		}
	}
	return b.String()
}

// statusLine is the last row: the latest message, else the draft state.
func (m *Model) statusLine() string {
	st := m.com.Styles
	text := sanitize.Line(m.status) // errors may quote file text
	style := st.App.Status
	if m.statusErr {
		style = st.App.Error
	}
	if text == "" {
		switch {
		case m.lib == nil && m.libErr == nil:
			text = i18n.T("loading the preset library…")
		case m.d != nil && m.open != nil:
			text = m.open.Key() + " · " + m.open.FileName()
			switch {
			case m.conflict == conflictOnDisk:
				text += " · " + m.diskChangeText()
			case m.d.Dirty():
				text += " · " + i18n.T("unsaved changes (ctrl+s saves, u undoes)")
			}
			style = st.Text.Muted
		}
	}
	line := style.Render(ansi.Truncate(text, max(0, m.width-2), "…"))
	return " " + line + strings.Repeat(" ", max(0, m.width-1-ansi.StringWidth(line)))
}

// frame draws pane r with the shared pane chrome (common.Frame).
func (m *Model) frame(r rect, title, info string, focused bool, lines []string) string {
	return frame(m.com, r, title, info, focused, lines)
}

// frame draws pane r with the shared pane chrome (common.Frame).
func frame(com *common.Common, r rect, title, info string, focused bool, lines []string) string {
	return common.Frame(com.Styles, r.w, r.h, sanitize.Line(title), sanitize.Line(info), focused, lines)
}
