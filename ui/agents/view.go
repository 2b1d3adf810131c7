package agents

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// View implements common.Panel.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := m.com.Styles
	switch {
	case m.screen == screenTranscript:
		return m.transcriptView()
	case m.live.tree == nil:
		text := m.live.problem.text()
		switch {
		case m.live.loading:
			text = i18n.T("reading the agent tree…")
		case m.live.rootFile == "":
			text = i18n.T(noSelection)
		}
		lines := wrap(st.Pane.Placeholder.Render(text), m.width-4)
		if !m.live.loading {
			lines = append(append(lines, ""), m.rootsLines(m.width-4, m.height-2-len(lines)-1)...)
		}
		return common.Frame(st, m.width, m.height, i18n.T("Agents"), "", true, lines)
	case m.screen == screenTimeline:
		return m.timelineView()
	case m.screen == screenDetail:
		return m.detailPane(m.width, true)
	case !m.wide():
		return m.listPane(m.width, true)
	}
	detailW := m.detailWidth()
	left := strings.Split(m.listPane(m.width-detailW, m.focus == paneList), "\n")
	right := strings.Split(m.detailPane(detailW, m.focus == paneDetail), "\n")
	for i := range left {
		if i < len(right) {
			left[i] += right[i]
		}
	}
	return strings.Join(left, "\n")
}

// layoutParts lays out what View draws at the size it draws it: the
// selected agent's detail and its scroll, the timeline's window, the
// transcript's marked hit. Update calls it after every message, SetSize
// after a resize and the focus keys after a move, so View only draws.
func (m *Model) layoutParts() {
	if m.width <= 0 || m.height <= 0 {
		return
	}
	switch {
	case m.screen == screenTranscript:
		m.tr.layout(m.transcriptHeight(), m.com.Styles.List.Match)
	case m.live.tree == nil:
	case m.screen == screenTimeline:
		m.timeline.layout(m.timelineRows())
	default:
		m.layoutDetail()
	}
}

// listPane draws the agent tree with its column header.
func (m *Model) listPane(w int, focused bool) string {
	return m.agents.View(&m.com.Styles, &m.keys, m.live.tree, m.status, w, m.height, focused)
}

func countSevere(ds []subagent.Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Severity != subagent.SevInfo {
			n++
		}
	}
	return n
}

// detailPane draws the selected agent's details, usage and activity,
// from the scroll (their end while it is past them).
func (m *Model) detailPane(w int, focused bool) string {
	st := m.com.Styles
	a := m.selected()
	if a == nil {
		return common.Frame(st, w, m.height, i18n.T("Details"), "", focused, nil)
	}
	lines := m.detailLines(a, w-4)
	h := m.height - 2
	off := min(m.detail.offset, max(0, len(lines)-h))
	info := ""
	if len(lines) > h {
		info = fmt.Sprintf("%d/%d", off+1, len(lines)-h+1)
	}
	return common.Frame(st, w, m.height, i18n.T("Details · %s", sanitize.Clip(a.Path, 60)), info, focused, lines[off:])
}

// detailPaneWidth is the width of the detail pane View draws (0: none).
func (m *Model) detailPaneWidth() int {
	switch {
	case m.live.tree == nil || m.screen == screenTranscript || m.screen == screenTimeline:
		return 0
	case m.screen == screenDetail:
		return m.width
	case m.wide():
		return m.detailWidth()
	}
	return 0
}

// layoutDetail lays out the selected agent's detail for the pane View
// draws it in (the memo of detailLines) and the last offset it allows.
func (m *Model) layoutDetail() {
	w := m.detailPaneWidth()
	a := m.selected()
	if w == 0 || a == nil {
		return
	}
	key := m.detailCacheKey(a, w-4)
	if key != m.detail.cacheKey {
		m.detail.cacheKey, m.detail.lines = key, m.buildDetailOf(a, w-4)
	}
	m.detail.maxOffset = max(0, len(m.detail.lines)-(m.height-2))
}

// detailLines is the detail of a for a width: the lines layoutDetail
// laid out when they are of the same agent, width, theme and state, else
// built anew (View never keeps them).
func (m *Model) detailLines(a *subagent.Agent, w int) []string {
	if m.detailCacheKey(a, w) == m.detail.cacheKey {
		return m.detail.lines
	}
	return m.buildDetailOf(a, w)
}

// detailCacheKey names what the detail of a at width w is built from: the
// load the tree came from, the agent's activity (the result itself, so a
// new reading of the same length is another key), the width, the theme,
// whether the task shows whole and the run time.
func (m *Model) detailCacheKey(a *subagent.Agent, w int) string {
	act, haveAct := m.activity[activityKey(a)]
	return fmt.Sprintf("%d|%s|%d|%s|%v|%v|%d|%p|%v|%s", m.live.treeGen, activityKey(a), w, common.ThemeKey(&m.com.Styles), m.detail.taskExpanded,
		haveAct, len(act.items), act.items, act.err, m.runtimeText(a))
}

// runtimeText is a's run time now (Model.now), or "unknown".
func (m *Model) runtimeText(a *subagent.Agent) string {
	if ms, _, ok := a.RuntimeAt(m.now); ok {
		return subagent.FormatDuration(ms)
	}
	return i18n.T("unknown")
}

// buildDetailOf lays out the detail of a at width w as it is now.
func (m *Model) buildDetailOf(a *subagent.Agent, w int) []string {
	act, haveAct := m.activity[activityKey(a)]
	return m.buildDetail(a, w, m.detail.taskExpanded, act, haveAct, m.runtimeText(a))
}

// buildDetail lays out the detail of a for a width: the whole task when
// expanded (else its first two lines), the activity act when read.
func (m *Model) buildDetail(a *subagent.Agent, w int, expanded bool, act activityResult, haveAct bool, runtime string) []string {
	st := &m.com.Styles
	var out []string
	add := func(lines ...string) { out = append(out, lines...) }
	kv := func(k, v string) {
		add(ansi.Truncate(st.Text.Muted.Render(common.PadRight(i18n.T(k), 9))+" "+st.Text.Normal.Render(v), w, "…"))
	}
	section := func(title string) {
		title = i18n.T(title)
		rule := w - common.Width(title) - 4
		if w >= unlimited { // the whole text (whole.go): a short rule
			rule = 2
		}
		add("", st.Text.Subtle.Render("── "+title+" "+strings.Repeat("─", max(0, rule))))
	}
	add(st.Text.Strong.Render(ansi.Truncate(sanitize.Fold(a.Path), w, "…")))
	state := sanitize.Fold(a.Descriptor.Role.Name) + " · " + sanitize.Fold(a.Status) + " · " + sanitize.Fold(a.Lifecycle)
	add(ansi.Truncate(state, w, "…"))
	if !a.Visible {
		add(wrap(st.Text.Warning.Render(i18n.T("hidden: %s", sanitize.Fold(a.Hidden))), w)...)
	}
	sel := a.Selected()
	kv(i18n.Mark("selected"), sanitize.Fold(sel.Model.String())+" · "+orDash(sanitize.Fold(sel.Thinking)))
	if lr := a.LastResponse(); lr != nil {
		v := sanitize.Fold(lr.Model.String()) + " · " + orDash(sanitize.Fold(lr.Thinking))
		if a.ModelDiffers() {
			v += i18n.T(" ≠ selected")
		}
		kv(i18n.Mark("answered"), v)
	} else {
		kv(i18n.Mark("answered"), i18n.T("no response yet"))
	}
	if ce := m.live.contexts[a.Path]; ce.Known && ce.Window > 0 {
		kv(i18n.Mark("context"), fmt.Sprintf("%s / %s · %.1f%%", subagent.FormatTokens(ce.Tokens), subagent.FormatTokens(ce.Window), ce.Percent))
	} else if ce.Known {
		kv(i18n.Mark("context"), i18n.T("%s (window unknown)", subagent.FormatTokens(ce.Tokens)))
	} else {
		kv(i18n.Mark("context"), i18n.T("unknown"))
	}
	kv(i18n.Mark("created"), i18n.T("%s · run %s", a.CreatedClock(time.Local), runtime))
	kv(i18n.Mark("slots"), i18n.T("%d/%s active runs in the tree", m.live.tree.ActiveRuns(), sanitize.Fold(fmt.Sprint(m.live.tree.MaxConcurrentAgents))))
	kv(i18n.Mark("mailbox"), i18n.T("%d pending · outbox %d", len(a.Mailbox), len(a.Outbox)))
	if a.Error != "" {
		add(wrap(st.Text.Danger.Render(i18n.T("error: %s", sanitize.Fold(a.Error))), w)...)
	}
	task := sanitize.Text(a.Task())
	if task == "" {
		task = "—"
	}
	taskLines := wrap(task, w-10)
	if !expanded && len(taskLines) > 2 {
		taskLines = append(taskLines[:2], st.Text.Subtle.Render(i18n.T("… %s shows the whole task", m.keys.Open.Help().Key)))
	}
	for i, l := range taskLines {
		k := ""
		if i == 0 {
			k = i18n.T("task")
		}
		add(st.Text.Muted.Render(common.PadRight(k, 9)) + " " + l)
	}
	section(i18n.Mark("usage"))
	kv(i18n.Mark("cost"), i18n.T("%s · req/tools %s", a.CostText(), a.CountsText()))
	if s := a.Summary; s != nil {
		t := s.Stats.Tokens
		kv(i18n.Mark("tokens"), i18n.T("in %s · out %s · cache %s/%s", subagent.FormatTokens(t.Input), subagent.FormatTokens(t.Output),
			subagent.FormatTokens(t.CacheRead), subagent.FormatTokens(t.CacheWrite)))
		if s.InheritedEntries > 0 {
			kv(i18n.Mark("copied"), i18n.T("%d parent entries, not counted", s.InheritedEntries))
		}
	} else if a.SummaryErr != nil {
		add(wrap(st.Text.Danger.Render(sanitize.Fold(a.SummaryErr.Error())), w)...)
	}
	section(i18n.Mark("recent activity"))
	switch {
	case !haveAct:
		add(st.Pane.Placeholder.Render(i18n.T("reading…")))
	case act.err != nil:
		add(wrap(st.Text.Danger.Render(sanitize.Fold(act.err.Error())), w)...)
	case len(act.items) == 0:
		add(st.Pane.Placeholder.Render(i18n.T("nothing yet")))
	}
	for i := len(act.items) - 1; i >= 0; i-- { // newest first
		it := act.items[i]
		title := st.Text.Muted.Render(clock(it.TimeMs)+" ") + st.Role.Tool.Render(fmt.Sprintf("%-7s", it.Kind)) + " " + it.Title
		if it.Error {
			title += st.Text.Danger.Render(" ✗")
		}
		add(ansi.Truncate(title, w, "…"))
		for _, l := range strings.Split(it.Preview, "\n") {
			if l != "" {
				add(ansi.Truncate("  "+st.Text.Subtle.Render(l), w, "…"))
			}
		}
	}
	return out
}

// transcriptView draws the transcript screen.
func (m *Model) transcriptView() string {
	return m.tr.View(&m.com.Styles, &m.keys, m.status, m.tail.Running(), m.width, m.height)
}

// wrap breaks text into lines of at most w cells.
func wrap(text string, w int) []string {
	return strings.Split(ansi.Wrap(text, max(1, w), ""), "\n")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
