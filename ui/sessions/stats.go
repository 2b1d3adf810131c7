package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/cachemiss"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// statsState is the stats view: the whole session and the shown branch.
type statsState struct {
	pending bool
	leaf    int // the branch the stats were computed for
	session *stats.Stats
	branch  *stats.Stats
	offset  int
	// chart is the branch's requests, where the cache broke
	// (session/cachemiss) and the chart drawn from them.
	chart *statsChart
}

// statsMsg delivers computed stats.
type statsMsg struct {
	gen      int
	session  stats.Stats
	branch   stats.Stats
	requests []stats.Request
	breaks   []int
}

// statsCmd computes session and branch stats, pricing usage without a
// stored cost from the model catalog (with the user's models.json; the root
// reports its problems).
func statsCmd(gen int, ls *loadedSession, svc *services.Services, leaf int) tea.Cmd {
	return func() tea.Msg {
		cat, _ := svc.Catalog()
		msg := statsMsg{gen: gen, session: stats.SessionStats(ls.sess, cat), branch: stats.BranchStats(ls.sess, leaf, cat)}
		if leaf >= 0 && leaf < len(ls.sess.Entries) {
			path := ls.sess.PathTo(leaf)
			msg.requests = stats.Requests(ls.sess, path, cat)
			for _, miss := range cachemiss.Detect(ls.sess, path, cat).Misses {
				msg.breaks = append(msg.breaks, miss.Index)
			}
		}
		return msg
	}
}

func (m *Model) openStats() tea.Cmd {
	if m.ls == nil {
		return nil
	}
	if m.focus == paneTree {
		m.showEntry(m.tree.current())
	}
	m.mode = modeStats
	m.focus = paneDetail
	m.stats.offset = 0
	if (m.stats.session != nil && m.stats.leaf == m.tl.leaf) || m.stats.pending {
		return nil
	}
	m.stats = statsState{pending: true, leaf: m.tl.leaf}
	return statsCmd(m.gen, m.ls, m.com.Services(), m.tl.leaf)
}

func (m *Model) applyStats(msg statsMsg) {
	if m.ls == nil || msg.gen != m.gen {
		return
	}
	m.stats.pending = false
	m.stats.session, m.stats.branch = &msg.session, &msg.branch
	m.stats.chart = &statsChart{requests: msg.requests, broke: brokeAt(msg.requests, msg.breaks)}
}

// renderStats lays out the branch's charts (chartWidth wide, chartRows
// high) and both scopes for a width.
func renderStats(ss statsState, ls *loadedSession, width, chartWidth, chartRows int, st themes.Styles) []string {
	var out []string
	add := func(s string) { out = append(out, ansi.Truncate(s, width, "…")) }
	section := func(title string, s *stats.Stats) {
		add(st.Text.Strong.Render(title))
		kv := func(k, v string) {
			add(st.Text.Muted.Render("  "+common.PadCell(i18n.T(k), 11)+" ") + st.Text.Normal.Render(v))
		}
		roles := make([]string, 0, len(s.RoleCounts))
		for _, rc := range s.RoleCounts {
			roles = append(roles, fmt.Sprintf("%s %d", sanitize.Fold(rc.Role), rc.Count))
		}
		kv(i18n.Mark("entries"), fmt.Sprintf("%d", s.Entries))
		kv(i18n.Mark("messages"), fmt.Sprintf("%d (%s)", s.TotalMessages, strings.Join(roles, " · ")))
		kv(i18n.Mark("tool calls"), i18n.T("%d · results %d", s.ToolCalls, s.ToolResults))
		t := s.Tokens
		kv(i18n.Mark("tokens"), i18n.T("%s total · in %s · out %s · cache read %s · write %s",
			transcript.OrZero(common.FormatTokens(int(t.Total))), transcript.OrZero(common.FormatTokens(int(t.Input))), transcript.OrZero(common.FormatTokens(int(t.Output))),
			transcript.OrZero(common.FormatTokens(int(t.CacheRead))), transcript.OrZero(common.FormatTokens(int(t.CacheWrite)))))
		cost := fmt.Sprintf("$%.4f", s.Cost)
		if n := len(s.Recomputed); n > 0 {
			cost += " " + i18n.T("(%d usage record(s) priced from the catalog)", n)
		}
		if n := len(s.Unpriced); n > 0 {
			cost += " " + i18n.T("(%d unpriced)", n)
		}
		kv(i18n.Mark("cost"), cost)
		if c := s.Context; c != nil {
			use := i18n.T("unknown until the next answer")
			if c.Known {
				use = fmt.Sprintf("%s / %s (%.1f%%)", common.FormatTokens(int(c.Tokens)), common.FormatTokens(int(c.ContextWindow)), c.Percent)
			}
			kv(i18n.Mark("context"), use+" · "+sanitize.Fold(c.Provider+"/"+c.ModelID))
		}
		for _, b := range s.ByModel {
			add(st.Text.Muted.Render("  · ") + st.Text.Info.Render(fmt.Sprintf("%-30s", sanitize.Fold(b.Key))) +
				st.Text.Normal.Render(i18n.T(" $%.4f  %s tok", b.Cost, transcript.OrZero(common.FormatTokens(int(b.Tokens))))))
		}
	}
	switch {
	case ss.pending || ss.session == nil:
		return []string{st.Pane.Placeholder.Render(i18n.T("computing stats…"))}
	}
	if chart := ss.chart.draw(min(width, chartWidth), chartRows, st); len(chart) > 0 {
		for _, line := range chart {
			add(line)
		}
		out = append(out, "")
	}
	section(i18n.T("Session · all branches"), ss.session)
	out = append(out, "")
	leafID := "—"
	if ss.branch.LeafIndex >= 0 && ss.branch.LeafIndex < len(ls.rows) {
		leafID = ls.entryID(ss.branch.LeafIndex)
	}
	section(i18n.T("Branch · root → %s", leafID), ss.branch)
	return out
}
