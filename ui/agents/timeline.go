package agents

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/chart"
)

// timelineState is the timeline screen (T): every agent of the tree the
// hidden filter keeps, open and closed, as a bar on one time axis. It owns
// its bars and cursor, has its own Update, View and ShortHelp, and asks
// the panel (intents.go) to go back, reload or open an agent.
type timelineState struct {
	bars   []timelineBar
	lo, hi float64 // the axis, Unix ms
	cursor int
	offset int
}

// timelineBar is one agent's row: its life (created to finished, or to now
// while it runs) and the runs in it; the gaps between runs are its waits.
type timelineBar struct {
	path    string
	parent  string
	name    string
	status  string
	closed  bool
	life    chart.Interval
	runs    []chart.Interval
	known   bool // the agent has a time to draw
	runtime string
	// critical marks the chain the tree's end waited on: the agent that
	// finished last, then its child that finished last, and so on.
	critical bool
}

// buildTimeline lays the tree's agents out in tree order; now ends the
// life of a running agent.
func buildTimeline(t *subagent.Tree, showHidden bool, now time.Time) timelineState {
	var tl timelineState
	tl.lo, tl.hi = math.Inf(1), math.Inf(-1)
	nowMs := float64(now.UnixMilli())
	for _, a := range t.Agents {
		if !a.Visible && !showHidden {
			continue
		}
		b := timelineBar{path: a.Path, parent: a.Parent, status: sanitize.Fold(a.Status), closed: a.Lifecycle == subagent.LifecycleClosed, runtime: a.RuntimeText()}
		b.name = sanitize.Fold(a.Name)
		if a.Path == subagent.RootPath {
			b.name = "root"
		} else if a.Depth > 1 {
			b.name = strings.Repeat("  ", a.Depth-1) + b.name
		}
		var runs []subagent.Interval
		switch {
		case a.Telemetry != nil && len(a.Telemetry.Runs) > 0:
			runs = a.Telemetry.Runs
		case a.Summary != nil:
			runs = a.Summary.Runs
		}
		running := a.Status == subagent.StatusRunning || a.Status == subagent.StatusPendingInit
		start, end := math.NaN(), math.NaN()
		if ts, ok := a.Created(); ok {
			start = float64(ts.UnixMilli())
		}
		for _, r := range runs {
			if math.IsNaN(r.Start) {
				continue
			}
			stop := r.End
			if math.IsNaN(stop) && running {
				stop = nowMs
			}
			b.runs = append(b.runs, chart.Interval{From: r.Start, To: stop})
			start = nanMin(start, r.Start)
			end = nanMax(end, stop)
		}
		if a.Summary != nil && !math.IsNaN(a.Summary.LastActivityMs) {
			end = nanMax(end, a.Summary.LastActivityMs)
		}
		if running {
			end = nanMax(end, nowMs)
		}
		if !math.IsNaN(start) {
			b.known = true
			if math.IsNaN(end) || end < start {
				end = start
			}
			b.life = chart.Interval{From: start, To: end}
			tl.lo, tl.hi = math.Min(tl.lo, start), math.Max(tl.hi, end)
		}
		tl.bars = append(tl.bars, b)
	}
	if math.IsInf(tl.lo, 1) {
		tl.lo, tl.hi = 0, 0
	}
	markCritical(tl.bars)
	return tl
}

// markCritical marks the critical path: from the top of the tree down,
// the agent of each level that finished last (the one its parent, or the
// tree, waited for longest).
func markCritical(bars []timelineBar) {
	listed := make(map[string]bool, len(bars))
	for i := range bars {
		listed[bars[i].path] = true
	}
	under := "" // the parent whose children are looked at; "" the top
	for {
		last := -1
		for i := range bars {
			b := &bars[i]
			top := !listed[b.parent]
			if !b.known || (under == "" && !top) || (under != "" && b.parent != under) {
				continue
			}
			if last < 0 || b.life.To > bars[last].life.To {
				last = i
			}
		}
		if last < 0 {
			return
		}
		bars[last].critical = true
		under = bars[last].path
	}
}

func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

// statusMark is the rune and style of a status's runs: shapes that tell
// the statuses apart without colour.
func statusMark(status string, st *themes.Styles) (rune, lipgloss.Style) {
	switch status {
	case subagent.StatusCompleted:
		return '█', st.Text.Success
	case subagent.StatusRunning, subagent.StatusPendingInit:
		return '▓', st.Text.Info
	case subagent.StatusInterrupted:
		return '▒', st.Text.Warning
	case subagent.StatusErrored:
		return '░', st.Text.Danger
	}
	return '▚', st.Text.Subtle
}

// openTimeline shows the timeline, its cursor on the agent the list has.
func (m *Model) openTimeline() {
	m.screen = screenTimeline
	m.refreshTimeline()
	if row, ok := m.agents.rows.Selected(); ok {
		m.timeline.point(row.path)
	}
}

// refreshTimeline lays the loaded tree out again (a reload, a filter).
func (m *Model) refreshTimeline() { m.timeline.refresh(m.live.tree, m.agents.showHidden, m.now) }

// timelineKey hands a key to the timeline and acts on what it asks.
func (m *Model) timelineKey(msg tea.KeyPressMsg) tea.Cmd {
	switch in := m.timeline.Update(msg, &m.keys, m.timelineRows()).(type) {
	case backIntent:
		m.screen = screenDashboard
	case reloadIntent:
		return m.reloadByUser()
	case openAgentIntent:
		return m.openFromTimeline(in)
	}
	return nil
}

// openFromTimeline opens the agent the timeline asks for as the list opens
// one: its detail (full width on a narrow screen), the list switched to
// open or closed agents as the agent is.
func (m *Model) openFromTimeline(in openAgentIntent) tea.Cmd {
	if m.agents.showLifecycle(in.closed, m.live.tree, m.now) {
		m.detail.reset()
	}
	if !m.agents.rows.Select(func(r agentRow) bool { return r.path == in.path }) {
		return nil
	}
	m.detail.reset()
	m.screen = screenDashboard
	if m.wide() {
		m.focus = paneDetail
	} else {
		m.screen = screenDetail
	}
	return m.requestActivity()
}

// timelineRows is how many agents the timeline shows at once.
func (m *Model) timelineRows() int { return max(1, m.height-2-3) }

// timelineView draws the visible rows of the timeline.
func (m *Model) timelineView() string {
	return m.timeline.View(&m.com.Styles, m.live.tree, m.status, m.width, m.height, m.timelineRows())
}

// point puts the cursor on the agent at path, when it has a bar.
func (tl *timelineState) point(path string) {
	for i, b := range tl.bars {
		if b.path == path {
			tl.cursor = i
		}
	}
}

// refresh lays t out again, the cursor and the scroll kept where they
// still fit (nothing without a tree).
func (tl *timelineState) refresh(t *subagent.Tree, showHidden bool, now time.Time) {
	if t == nil {
		*tl = timelineState{}
		return
	}
	cursor, offset := tl.cursor, tl.offset
	*tl = buildTimeline(t, showHidden, now)
	tl.cursor = min(cursor, max(0, len(tl.bars)-1))
	tl.offset = offset
}

// Update moves the timeline's cursor (rows agents on screen); back, reload
// and enter on a bar are asked of the panel.
func (tl *timelineState) Update(msg tea.KeyPressMsg, k *keymap.Agents, rows int) intent {
	page := max(1, rows-1)
	switch {
	case key.Matches(msg, k.Back, k.Timeline):
		return backIntent{}
	case key.Matches(msg, k.Reload):
		return reloadIntent{}
	case key.Matches(msg, k.Open):
		if tl.cursor >= len(tl.bars) {
			return nil
		}
		b := tl.bars[tl.cursor]
		return openAgentIntent{path: b.path, closed: b.closed}
	default:
		tl.cursor, _ = common.NavMove(msg, k.Nav, tl.cursor, page, len(tl.bars)-1)
	}
	return nil
}

// window is the first row shown with rows on screen: the scroll moved the
// least that keeps the cursor in view.
func (tl *timelineState) window(rows int) int {
	offset := min(max(tl.offset, tl.cursor-rows+1), tl.cursor)
	return max(0, min(offset, len(tl.bars)-rows))
}

// layout keeps the scroll on the cursor with rows on screen; the panel
// calls it after every Update and resize (layoutParts), so each key moves
// the window from where the last one left it, drawn or not.
func (tl *timelineState) layout(rows int) { tl.offset = tl.window(rows) }

// View draws the visible rows (rows of them) of the timeline of t in a
// w×h frame, status standing in for the position when set.
func (tl *timelineState) View(st *themes.Styles, t *subagent.Tree, status string, w, h, rows int) string {
	inner := w - 4
	offset := tl.window(rows) // as layout keeps it
	nameW := min(28, max(8, inner/4))
	const runW = 8 // " 56.6s" and room
	trackW := max(1, inner-3-nameW-1-runW)
	lines := []string{timelineLegend(st), timelineAxis(tl.lo, tl.hi, nameW+4, trackW, st)}
	lines = append(lines, "")
	for i := offset; i < len(tl.bars) && i < offset+rows; i++ {
		lines = append(lines, timelineRow(&tl.bars[i], tl.lo, tl.hi, nameW, trackW, runW, i == tl.cursor, st))
	}
	if len(tl.bars) == 0 {
		lines = append(lines, st.Pane.Placeholder.Render(i18n.T("no agents")))
	}
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], inner, "…")
	}
	var title string
	if t != nil {
		id := t.ID
		if len(id) > 8 {
			id = id[:8]
		}
		title = i18n.T("Agents · timeline · tree %s · %d agent(s)", sanitize.Fold(id), len(tl.bars))
	} else {
		title = i18n.T("Agents · timeline")
	}
	info := ""
	if len(tl.bars) > 0 {
		info = fmt.Sprintf("%d/%d", tl.cursor+1, len(tl.bars))
	}
	if status != "" {
		info = sanitize.Fold(status)
	}
	return common.Frame(*st, w, h, title, info, true, lines)
}

// ShortHelp is the timeline's keys.
func (tl *timelineState) ShortHelp(k *keymap.Agents) []key.Binding {
	return []key.Binding{keymap.WithHelp(k.Open, i18n.Mark("open agent")), k.Back, k.Reload, k.Up, k.Down}
}

// timelineLegend names the runes.
func timelineLegend(st *themes.Styles) string {
	var parts []string
	for _, s := range []string{subagent.StatusCompleted, subagent.StatusRunning, subagent.StatusInterrupted, subagent.StatusErrored} {
		r, style := statusMark(s, st)
		parts = append(parts, style.Render(string(r))+" "+s)
	}
	parts = append(parts, st.Text.Muted.Render("─")+" "+i18n.T("waiting"), st.Text.Strong.Render("◆")+" "+i18n.T("critical path"))
	return strings.Join(parts, "  ")
}

// timelineAxis is the row of clock times over the tracks: the start at
// the left, the end at the right, and the span between.
func timelineAxis(lo, hi float64, indent, width int, st *themes.Styles) string {
	if hi <= lo && lo == 0 {
		return ""
	}
	clock := func(ms float64) string { return time.UnixMilli(int64(ms)).In(time.Local).Format("15:04:05") }
	left, right := clock(lo), clock(hi)
	mid := "← " + subagent.FormatDuration(hi-lo) + " →"
	gap := width - len(left) - len(right) - ansi.StringWidth(mid)
	axis := left + " " + right
	if gap >= 2 {
		axis = left + strings.Repeat(" ", gap/2) + mid + strings.Repeat(" ", gap-gap/2) + right
	} else if width < len(left)+len(right)+1 {
		axis = left
	}
	return strings.Repeat(" ", indent) + st.Text.Muted.Render(axis)
}

// timelineRow is one agent: the cursor, its name, its track, its run time.
func timelineRow(b *timelineBar, lo, hi float64, nameW, trackW, runW int, selected bool, st *themes.Styles) string {
	cursor, mark := " ", " "
	nameStyle := st.List.Item
	if selected {
		cursor, nameStyle = "▶", st.List.Selected
	}
	if b.critical {
		mark = st.Text.Strong.Render("◆")
	}
	cursor += mark + " "
	name := ansi.Truncate(b.name, nameW, "…")
	name += strings.Repeat(" ", nameW-ansi.StringWidth(name))
	track := strings.Repeat(" ", trackW)
	if b.known {
		r, style := statusMark(b.status, st)
		track = chart.Track(b.life, b.runs, lo, hi, trackW, r, style, '─', st.Text.Muted)
	}
	return cursor + nameStyle.Render(name) + " " + track + st.Text.Subtle.Render(fmt.Sprintf(" %*s", runW-1, b.runtime))
}
