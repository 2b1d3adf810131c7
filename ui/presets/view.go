package presets

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
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
		leftW := clamp(w*2/5, 30, 56)
		return layout{wide: w >= wideWidth, list: rect{leftW, h}, editor: rect{w - leftW, h}}
	}
	split := func(r rect) (rect, rect) {
		if !m.showPreview || m.d == nil {
			return r, rect{}
		}
		edH := clamp(r.h*45/100, min(r.h, 6), r.h)
		if w < wideWidth && m.focus == panePreview {
			edH = min(r.h, 5) // a narrow screen gives the focused dock the room
		}
		return rect{r.w, edH}, rect{r.w, r.h - edH}
	}
	if w >= wideWidth {
		listW := clamp(w*22/100, 28, 44)
		itemsW := clamp(w*28/100, 34, 56)
		ed, pv := split(rect{w - listW - itemsW, h})
		return layout{wide: true, list: rect{listW, h}, items: rect{itemsW, h}, editor: ed, preview: pv}
	}
	leftW := clamp(w*2/5, 26, 40)
	listH := clamp(h/3, min(h, 5), h)
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

// previewWidth is the inner width of the preview dock.
func (m *Model) previewWidth() int { return max(0, m.layout().preview.w-4) }

// View implements common.Panel: exactly width×height cells, with nothing
// but styling and text (sanitize.Screen).
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	return sanitize.Screen(m.view())
}

func (m *Model) view() string {
	if m.dlg != nil {
		return m.dialogView()
	}
	l := m.layout()
	var body string
	if m.showProfile {
		body = joinH(m.profileListView(l.list), m.profileDetailView(l.editor))
	} else {
		right := m.editorView(l.editor)
		if l.preview.h > 0 {
			right += "\n" + m.previewView(l.preview)
		}
		if l.wide {
			body = joinH(m.listView(l.list), m.itemsView(l.items), right)
		} else {
			body = joinH(m.listView(l.list)+"\n"+m.itemsView(l.items), right)
		}
	}
	return body + "\n" + m.statusLine()
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
			text = "loading the preset library…"
		case m.d != nil && m.open != nil:
			text = m.open.Key() + " · " + m.open.FileName()
			if m.d.dirty {
				text += " · unsaved changes (ctrl+s saves, u undoes)"
			}
			style = st.Text.Muted
		}
	}
	line := style.Render(ansi.Truncate(text, max(0, m.width-2), "…"))
	return " " + line + strings.Repeat(" ", max(0, m.width-1-ansi.StringWidth(line)))
}

// frame draws pane r with the shared pane chrome (common.Frame).
func (m *Model) frame(r rect, title, info string, focused bool, lines []string) string {
	return common.Frame(m.com.Styles, r.w, r.h, sanitize.Line(title), sanitize.Line(info), focused, lines)
}

// window returns the slice of n rows to show for cursor in height rows,
// updating offset so the cursor stays visible.
func window(cursor, n, height int, offset *int) (int, int) {
	if height <= 0 || n == 0 {
		return 0, 0
	}
	if cursor < *offset {
		*offset = cursor
	}
	if cursor >= *offset+height {
		*offset = cursor - height + 1
	}
	*offset = max(0, min(*offset, max(0, n-height)))
	return *offset, min(n, *offset+height)
}

// selectRow styles the row under the cursor.
func (m *Model) selectRow(plain string, width int, focused bool) string {
	st := m.com.Styles
	plain = ansi.Truncate(ansi.Strip(plain), width, "…")
	if rest, ok := strings.CutPrefix(plain, " "); ok {
		plain = "▸" + rest
	}
	plain += strings.Repeat(" ", max(0, width-ansi.StringWidth(plain)))
	if focused {
		return st.List.Selected.Render(plain)
	}
	return st.List.SelectedBlurred.Render(plain)
}

// scopeBadge is the short scope marker of a Preset.
func (m *Model) scopeBadge(p *resources.Preset) string {
	st := m.com.Styles
	switch {
	case p.Legacy:
		return st.Badge.Project.Render("L")
	case p.Scope == preset.ScopeGlobal:
		return st.Badge.Global.Render("G")
	}
	return st.Badge.Project.Render("P")
}

// countBadges renders error and warning counts ("" when both are zero).
func (m *Model) countBadges(errs, warns int) string {
	st := m.com.Styles
	var parts []string
	if errs > 0 {
		parts = append(parts, st.Badge.Error.Render(fmt.Sprintf("✗%d", errs)))
	}
	if warns > 0 {
		parts = append(parts, st.Badge.Warning.Render(fmt.Sprintf("!%d", warns)))
	}
	return strings.Join(parts, " ")
}

// leftRight puts right at the end of a row of width cells.
func leftRight(left, right string, width int) string {
	rw := ansi.StringWidth(right)
	if rw > 0 {
		rw++
	}
	left = ansi.Truncate(left, max(0, width-rw), "…")
	pad := strings.Repeat(" ", max(0, width-rw-ansi.StringWidth(left)))
	if right == "" {
		return left + pad
	}
	return left + pad + " " + right
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
