package sessions

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// wideWidth is the width from which all four panes show at once.
const wideWidth = 120

// rect is a pane's outer size.
type rect struct{ w, h int }

// layout is where each pane goes; a zero rect hides the pane.
type layout struct {
	wide                           bool
	picker, tree, timeline, detail rect
}

func (m *Model) layout() layout {
	w, h := max(0, m.width), max(0, m.height)
	if w >= wideWidth {
		leftW := clamp(w*2/5, 40, 64)
		rightW := w - leftW
		pickerH := clamp(h/3, 5, 14)
		tlH := clamp(h*45/100, 5, h)
		return layout{wide: true,
			picker: rect{leftW, pickerH}, tree: rect{leftW, h - pickerH},
			timeline: rect{rightW, tlH}, detail: rect{rightW, h - tlH}}
	}
	switch m.focus {
	case panePicker:
		// The picker needs only as many rows as there are sessions; the
		// rest previews the open session's timeline.
		pickH := clamp(m.picker.list.Len()+3, min(h, 5), h)
		if m.ls == nil || h-pickH < 5 {
			return layout{picker: rect{w, h}}
		}
		pickH = min(pickH, h/2)
		return layout{picker: rect{w, pickH}, timeline: rect{w, h - pickH}}
	case paneTree:
		return layout{tree: rect{w, h}}
	case paneTimeline:
		tlH := clamp(h*3/5, min(h, 5), h)
		return layout{timeline: rect{w, tlH}, detail: rect{w, h - tlH}}
	default:
		tlH := min(h, 7)
		return layout{timeline: rect{w, tlH}, detail: rect{w, h - tlH}}
	}
}

// detailSize is the detail pane's inner height and width (0 when hidden
// at this size; the wide layout's size is used then so renders are
// ready when it shows).
func (m *Model) detailSize() (int, int) {
	l := m.layout()
	d := l.detail
	if d.w == 0 {
		d = rect{m.width, max(0, m.height-7)}
	}
	return max(0, d.h-2), max(0, d.w-4)
}

// listHeight is the inner height of the focused pane (for paging).
func (m *Model) listHeight() int {
	l := m.layout()
	switch m.focus {
	case panePicker:
		return l.picker.h - 2
	case paneTree:
		return l.tree.h - 2
	case paneTimeline:
		return l.timeline.h - 2
	}
	return l.detail.h - 2
}

// View implements common.Panel: exactly width×height cells.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	l := m.layout()
	var left, right []string
	if l.picker.h > 0 {
		left = append(left, pickerPart{m}.View(l.picker))
	}
	if l.tree.h > 0 {
		left = append(left, treePart{m}.View(l.tree))
	}
	if l.timeline.h > 0 {
		right = append(right, timelinePart{m}.View(l.timeline))
	}
	if l.detail.h > 0 {
		right = append(right, detailPart{m}.View(l.detail))
	}
	// Every pane is drawn at its exact size by frame, so the columns are
	// joined line by line instead of measuring the whole screen again.
	if !l.wide { // one column: the panes stack
		left, right = append(left, right...), nil
	}
	screen := joinColumns(strings.Split(strings.Join(left, "\n"), "\n"), strings.Split(strings.Join(right, "\n"), "\n"), m.width, m.height)
	return m.dialogs.View(screen, m.width, m.height) // the fork dialog over the panes
}

// joinColumns places two columns of exact-width lines side by side and
// pads the result to height lines of width cells.
func joinColumns(left, right []string, width, height int) string {
	var b strings.Builder
	blank := strings.Repeat(" ", width)
	for i := 0; i < height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i >= len(left) {
			b.WriteString(blank)
			continue
		}
		b.WriteString(left[i])
		if i < len(right) {
			b.WriteString(right[i])
		}
	}
	return b.String()
}

// frame draws pane r with the shared pane chrome (common.Frame).
func (m *Model) frame(r rect, title, info string, focused bool, lines []string) string {
	return common.Frame(m.com.Styles, r.w, r.h, title, info, focused, lines)
}

// View draws the pane at its outer size r.
func (pp pickerPart) View(r rect) string {
	m := pp.m
	st := &m.com.Styles
	p := &m.picker
	focused := m.focus == panePicker
	lines := p.list.View(st, r.w-4, r.h-2, focused)
	switch {
	case m.loading == "sessions" && p.list.Total() == 0:
		lines = append(lines, st.Pane.Placeholder.Render(i18n.T("discovering sessions…")))
	case p.err != nil && p.list.Total() == 0:
		lines = append(lines, st.Text.Danger.Render(sanitize.Fold(p.err.Error())))
	case p.list.Total() == 0:
		lines = append(lines, st.Pane.Placeholder.Render(i18n.T("no sessions for this directory — %s lists all projects", m.keys.Scope.Help().Key)))
	case p.list.Len() == 0:
		lines = append(lines, st.Pane.Placeholder.Render(i18n.T("no session matches")))
	}
	title := i18n.T("Sessions (%d)", p.list.Total())
	if p.all {
		title += " · " + i18n.T("all projects")
	}
	if p.live > 0 {
		title += " · " + i18n.T("%d live", p.live)
	}
	return m.frame(r, title, joinInfo(p.list.Position(), m.statusView(panePicker)), focused, lines)
}

// View draws the pane at its outer size r.
func (p treePart) View(r rect) string {
	m := p.m
	focused := m.focus == paneTree
	if m.ls == nil {
		return m.frame(r, i18n.T("Tree"), "", focused, []string{m.placeholder()})
	}
	tv := &m.tree
	var top []string
	switch {
	case m.gotoID != nil && focused:
		top = append(top, m.promptLine())
	case m.showsSearchLine(paneTree):
		top = append(top, m.search.Line(&m.com.Styles))
	}
	lines := append(top, tv.list.View(&m.com.Styles, r.w-4, r.h-2-len(top), focused)...)
	if tv.pending {
		lines = append(top, m.com.Styles.Pane.Placeholder.Render(i18n.T("building the tree…")))
	}
	info := tv.list.Position()
	if sel := m.currentEntry(); sel >= 0 && !tv.pending && tv.current() != sel {
		// The selected entry has no row (the filter or a fold hides it):
		// the cursor is on the row that holds it, and says so.
		info = joinInfo(i18n.T("→ %s hidden", m.ls.entryID(sel)), info)
	}
	if tv.filter != treeDefault {
		info = joinInfo(i18n.T(tv.filter.String()), info)
	}
	if n := len(tv.folded); n > 0 {
		info = joinInfo(i18n.T("%d folded", n), info)
	}
	info = joinInfo(info, m.statusView(paneTree))
	return m.frame(r, i18n.T("Tree · %s", m.ls.title), info, focused, lines)
}

// View draws the pane at its outer size r.
func (p timelinePart) View(r rect) string {
	m := p.m
	st := &m.com.Styles
	focused := m.focus == paneTimeline
	if m.ls == nil {
		return m.frame(r, i18n.T("Timeline"), "", focused, []string{m.placeholder()})
	}
	t := &m.tl
	var top []string
	switch {
	case m.gotoID != nil && focused:
		top = append(top, m.promptLine())
	case m.timelineSearchLine():
		top = append(top, m.search.Line(st))
	}
	lines := append(top, t.list.View(st, r.w-4, r.h-2-len(top), focused)...)
	if t.list.Len() == 0 {
		lines = append(lines, st.Pane.Placeholder.Render(i18n.T("no entry matches")))
	}
	leafID := "—"
	if t.leaf >= 0 && t.leaf < len(m.ls.rows) {
		leafID = m.ls.entryID(t.leaf)
	}
	var title string
	if t.leaf == m.ls.leaf {
		title = i18n.T("Timeline · branch → %s (active)", leafID)
	} else {
		title = i18n.T("Timeline · branch → %s", leafID)
	}
	if m.ls.sess.Truncated() {
		// The file was cut under the panel: what lay past the cut reads
		// as zeros until it is read again.
		title = i18n.T("Timeline · file truncated — reload (%s)", m.com.Keys.Session.Reload.Help().Key)
	}
	info := t.list.Position()
	if t.list.Query() != "" {
		info = joinInfo(i18n.T("%d of %d", t.list.Len(), t.list.Total()), info)
	}
	info = joinInfo(m.followLabel(), m.markLabel(), info)
	info = joinInfo(m.skippedMark(), info, m.statusView(paneTimeline))
	if m.loading != "" && m.loading != "sessions" {
		spin := ""
		if m.spinning {
			spin = m.spin.View() + " "
		}
		info = joinInfo(spin+i18n.T("opening %s…", baseName(m.loading)), info)
	}
	return m.frame(r, title, info, focused, lines)
}

// View draws the pane at its outer size r.
func (p detailPart) View(r rect) string {
	m := p.m
	st := m.com.Styles
	focused := m.focus == paneDetail
	if m.mode == modeSpend {
		return m.spendView(r)
	}
	if m.ls == nil {
		return m.frame(r, i18n.T("Detail"), "", focused, []string{m.placeholder()})
	}
	h, w := r.h-2, r.w-4
	switch m.mode {
	case modeContext:
		return m.contextView(r, focused)
	case modeCompare:
		return m.compareView(r, focused)
	case modeComposition:
		return m.compositionView(r, focused)
	case modeSkipped:
		lines := m.laidLines(w, h)
		return m.frame(r, i18n.T("Skipped lines · %s", m.ls.title), joinInfo(scrollInfo(m.views.skippedOffset, h, len(lines)), m.statusView(paneDetail)), focused, window(lines, m.views.skippedOffset, h))
	case modeStats:
		lines := m.laidLines(w, h)
		return m.frame(r, i18n.T("Stats · %s", m.ls.title), joinInfo(scrollInfo(m.stats.offset, h, len(lines)), m.statusView(paneDetail)), focused, window(lines, m.stats.offset, h))
	}
	idx := m.currentEntry()
	if idx < 0 {
		return m.frame(r, i18n.T("Detail"), "", focused, []string{st.Pane.Placeholder.Render(i18n.T("no entry"))})
	}
	// The entry the cursor rests on renders in a moment: the last
	// rendering stays until it arrives, so keys do not blink the pane.
	key, lines, ok := m.shownDetail()
	if !ok {
		return m.frame(r, i18n.T("Detail · %s", m.ls.entryID(idx)), "", focused, []string{st.Pane.Placeholder.Render(i18n.T("rendering…"))})
	}
	idx = key.idx
	title := i18n.T("Detail · %s", m.ls.entryID(idx))
	info := scrollInfo(m.detail.offset, h, len(lines))
	if m.detail.thinking {
		info = joinInfo(i18n.T("thinking shown"), info)
	}
	info = joinInfo(info, m.statusView(paneDetail))
	return m.frame(r, title, info, focused, m.highlightedWindow(key, lines, m.detail.offset, h))
}

// statusView is pane p's message for its border ("" when none).
func (m *Model) statusView(p pane) string { return m.status[p].View(&m.com.Styles) }

// joinInfo joins border notes, skipping empty ones.
func joinInfo(parts ...string) string {
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}

func scrollInfo(offset, h, n int) string {
	if n <= h {
		return ""
	}
	return i18n.T("%d–%d of %d lines", offset+1, min(n, offset+h), n)
}

func window(lines []string, off, h int) []string {
	if off >= len(lines) {
		return nil
	}
	return lines[off:min(len(lines), off+max(0, h))]
}

// placeholder says why a pane is empty: loading, an error or no session.
func (m *Model) placeholder() string {
	st := m.com.Styles
	switch {
	case m.loading != "" && m.loading != "sessions":
		spin := ""
		if m.spinning {
			spin = m.spin.View() + " "
		}
		return spin + st.Pane.Placeholder.Render(i18n.T("opening %s…", baseName(m.loading)))
	case m.loadError() != "":
		return st.Text.Danger.Render(m.loadError())
	case m.loading == "sessions":
		return st.Pane.Placeholder.Render(i18n.T("discovering sessions…"))
	}
	return st.Pane.Placeholder.Render(i18n.T("no session open — pick one in Sessions"))
}

// baseName is the last path element, sanitised (file names can hold
// control characters too).
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	return sanitize.Fold(p)
}

// shortKind abbreviates long entry types for the fixed kind column. The
// kind is the entry's type as the session file names it (data, so it
// stays as it is in every language).
func shortKind(kind string) string {
	switch kind {
	case session.TypeThinkingLevelChange:
		return "thinking"
	case session.TypeModelChange:
		return "model"
	case session.TypeBranchSummary:
		return "branch sum" //i18n:raw a type name of the session file, abbreviated
	case session.TypeCustomMessage:
		return "custom msg" //i18n:raw a type name of the session file, abbreviated
	case session.TypeSessionInfo:
		return "info"
	case session.TypeContextEdit:
		return "ctx edit" //i18n:raw a type name of the session file, abbreviated
	case session.RoleBashExecution:
		return "bash"
	case session.RoleCompactionSummary:
		return "compaction"
	case session.RoleBranchSummary:
		return "branch sum" //i18n:raw a type name of the session file, abbreviated
	}
	return kind
}

// roleStyle colours a kind by role.
func roleStyle(st themes.Styles, kind string) lipgloss.Style {
	switch kind {
	case session.RoleUser:
		return st.Role.User
	case session.RoleAssistant:
		return st.Role.Assistant
	case session.RoleToolResult, session.RoleBashExecution:
		return st.Role.Tool
	case session.RoleSystem:
		return st.Role.System
	case session.TypeCompaction, session.TypeBranchSummary, session.RoleCompactionSummary, session.RoleBranchSummary:
		return st.Text.Warning
	}
	return st.Text.Subtle
}
