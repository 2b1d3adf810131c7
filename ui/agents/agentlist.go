package agents

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// agentList is the dashboard's tree list: the agents its filters keep
// (open or closed, hidden or not), the totals of those listed and the run
// time each row showed first. It owns its rows and filters; the panel
// hands it the loaded tree.
type agentList struct {
	rows *common.List[agentRow]
	// showClosed lists closed agents instead of open (and closing) ones;
	// showHidden adds agents registered on abandoned branches.
	showClosed bool
	showHidden bool
	// totals sum the listed agents (built with the rows).
	totals subagent.Totals
	// runtime holds each agent's run time as the list first showed it:
	// README §25.10 keeps the list's run time fixed until the panel is
	// opened again (here: another root session or r), while the detail's
	// moves live.
	runtime map[string]float64
}

func newAgentList() *agentList {
	l := common.NewList(renderRow)
	l.SetIdentity(func(r agentRow) string { return r.path })
	return &agentList{rows: l, runtime: map[string]float64{}}
}

// clear empties the list and forgets the sampled run times (another root
// session).
func (l *agentList) clear() {
	clear(l.runtime)
	l.rows.SetItems(nil)
}

// resample forgets the sampled run times: the next rebuild samples anew.
func (l *agentList) resample() { clear(l.runtime) }

// rebuild applies the filters to t (nothing listed without a tree); moved
// reports that the cursor is on another agent than before.
func (l *agentList) rebuild(t *subagent.Tree, now time.Time) (moved bool) {
	if t == nil {
		l.rows.SetItems(nil)
		return false
	}
	before, _ := l.rows.Selected()
	rows := buildRows(t, l.showClosed, l.showHidden, func(a *subagent.Agent) string { return l.sampledRuntime(a, now) })
	l.rows.SetItems(rows)
	after, _ := l.rows.Selected()
	agents := make([]*subagent.Agent, 0, len(rows))
	runtime := 0.0
	for _, r := range rows {
		if a, ok := t.Agent(r.path); ok {
			agents = append(agents, a)
			runtime += l.runtime[r.path]
		}
	}
	l.totals = subagent.TotalsOf(agents)
	l.totals.RuntimeMs = runtime // the sum of the run times the list shows
	return after.path != before.path
}

// sampledRuntime is the run time the list shows for a: sampled the first
// time the list shows the agent (README §25.10), unknown as -1.
func (l *agentList) sampledRuntime(a *subagent.Agent, now time.Time) string {
	ms, ok := l.runtime[a.Path]
	if !ok {
		ms = -1
		if v, _, known := a.RuntimeAt(now); known {
			ms = v
		}
		l.runtime[a.Path] = ms
	}
	if ms < 0 {
		return i18n.T("unknown")
	}
	return subagent.FormatDuration(ms)
}

// filterKey answers the filter keys (open/closed, hidden) and rebuilds
// the rows; ok is false for any other key.
func (l *agentList) filterKey(msg tea.KeyPressMsg, k *keymap.Agents, t *subagent.Tree, now time.Time) (moved, ok bool) {
	switch {
	case key.Matches(msg, k.Lifecycle):
		l.showClosed = !l.showClosed
	case key.Matches(msg, k.Hidden):
		l.showHidden = !l.showHidden
	default:
		return false, false
	}
	return l.rebuild(t, now), true
}

// showLifecycle lists closed agents (or open ones) and rebuilds the rows
// when that changes; moved as for rebuild.
func (l *agentList) showLifecycle(closed bool, t *subagent.Tree, now time.Time) (moved bool) {
	if l.showClosed == closed {
		return false
	}
	l.showClosed = closed
	return l.rebuild(t, now)
}

// selected is the agent of t under the cursor (nil when none).
func (l *agentList) selected(t *subagent.Tree) *subagent.Agent {
	row, ok := l.rows.Selected()
	if !ok || t == nil {
		return nil
	}
	a, _ := t.Agent(row.path)
	return a
}

// View draws the list of t in a w×h frame with its column header, status
// standing in for the totals when set.
func (l *agentList) View(st *themes.Styles, k *keymap.Agents, t *subagent.Tree, status string, w, h int, focused bool) string {
	inner := w - 4
	lines := []string{st.Text.Muted.Render(header(inner))}
	lines = append(lines, l.rows.View(st, inner, h-3, focused)...)
	if l.rows.Len() == 0 {
		text := i18n.T("no open agents (%s switches open/closed)", k.Lifecycle.Help().Key)
		if l.showClosed {
			text = i18n.T("no closed agents (%s switches open/closed)", k.Lifecycle.Help().Key)
		}
		lines = append(lines, st.Pane.Placeholder.Render(text))
	}
	return common.Frame(*st, w, h, l.title(t), l.info(t, status), focused, lines)
}

// title names the tree, the filter and the run slots.
func (l *agentList) title(t *subagent.Tree) string {
	id := t.ID
	if len(id) > 8 {
		id = id[:8]
	}
	format := i18n.Mark("Agents · tree %s · open · %d/%d")
	switch {
	case l.showClosed && l.showHidden:
		format = i18n.Mark("Agents · tree %s · closed + hidden · %d/%d")
	case l.showClosed:
		format = i18n.Mark("Agents · tree %s · closed · %d/%d")
	case l.showHidden:
		format = i18n.Mark("Agents · tree %s · open + hidden · %d/%d")
	}
	title := i18n.T(format, sanitize.Fold(id), l.rows.Len(), len(t.Agents))
	if t.Layout != subagent.LayoutV5 {
		title += " · pi-subagent " + t.Layout //i18n:raw product name and its layout name
	}
	return title
}

// info is the bottom border: totals of the listed agents, run slots, and
// the status or a diagnostics count.
func (l *agentList) info(t *subagent.Tree, status string) string {
	if status != "" {
		return sanitize.Fold(status)
	}
	tot := l.totals
	cost := fmt.Sprintf("$%.4f", tot.Cost)
	if !tot.CostComplete {
		cost += "+"
	}
	info := i18n.T("%s · %d req · %d tool calls · run %s · %d/%s active", cost, tot.Requests, tot.ToolCalls,
		subagent.FormatDuration(tot.RuntimeMs), t.ActiveRuns(), sanitize.Fold(fmt.Sprint(t.MaxConcurrentAgents)))
	if n := countSevere(t.Diagnostics); n > 0 {
		info += i18n.T(" · %d warning(s)", n)
	}
	return info
}

// ShortHelp is the list's keys; open says what enter does here.
func (l *agentList) ShortHelp(k *keymap.Agents, com *common.Common, open key.Binding) []key.Binding {
	return []key.Binding{open, k.Transcript, com.Keys.View, k.Lifecycle, k.Hidden, k.Up, k.Down}
}
