package sessions

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/chart"
)

// spendState is the picker's cost view (s in the picker): what the
// listed sessions cost per day and which cost most, as session list
// --stats prints it.
type spendState struct {
	seq     int // the request whose answer is awaited or shown
	pending bool
	all     bool // computed over every project's sessions
	value   *stats.ProjectSpend
	offset  int

	// the lines last drawn, for a width and theme
	width int
	theme string
	lines []string
}

// spendMsg delivers the cost of the listed sessions.
type spendMsg struct {
	seq   int
	spend stats.ProjectSpend
}

// spendCmd reads every listed session (stats.SpendOf) off Update.
func spendCmd(seq int, items []session.ListItem, svc *services.Services, loc *time.Location) tea.Cmd {
	return func() tea.Msg {
		cat, _ := svc.Catalog()
		return spendMsg{seq: seq, spend: stats.SpendOf(items, cat, loc)}
	}
}

// openSpend shows the cost view in the detail pane, computed again for
// the sessions the picker lists now.
func (m *Model) openSpend() tea.Cmd {
	m.mode, m.focus = modeSpend, paneDetail
	if m.spend.pending && m.spend.all == m.picker.all {
		return nil // the same sessions are being read: their answer is shown
	}
	m.spend.seq++
	m.spend.pending, m.spend.all, m.spend.offset = true, m.picker.all, 0
	items := append([]session.ListItem(nil), m.picker.raw...)
	return spendCmd(m.spend.seq, items, m.com.Services(), time.Local)
}

func (m *Model) applySpend(msg spendMsg) {
	if msg.seq != m.spend.seq {
		return
	}
	m.spend.pending, m.spend.value, m.spend.lines = false, &msg.spend, nil
}

// spendView draws the cost view in the detail pane's rect.
func (m *Model) spendView(r rect) string {
	h, w := r.h-2, r.w-4
	sp := &m.spend
	lines := m.laidLines(w, h)
	title := i18n.T("Cost · this project")
	if sp.all {
		title = i18n.T("Cost · all projects")
	}
	return m.frame(r, title, joinInfo(scrollInfo(sp.offset, h, len(lines)), m.statusView(paneDetail)), m.focus == paneDetail, window(lines, sp.offset, h))
}

// wholeChartWidth is the width charts are laid out at for v, y and o on
// a screen width wide: bars need a width, and one that fits the overlay
// keeps its rows from wrapping.
func wholeChartWidth(width int) int { return max(40, width-8) }

// spendGutter is the width of a day's label ("2026-11-27 ").
const spendGutter = 11

// renderSpend lays out the cost view for a width: a bar of each day's cost
// against the costliest day and one of its tokens against the largest
// day's, then the sessions that cost most. Lines are at most width wide.
func renderSpend(sp *stats.ProjectSpend, width int, st themes.Styles) []string {
	var out []string
	add := func(s string) { out = append(out, ansi.Truncate(s, width, "…")) }
	head := " · " + i18n.T("%d session(s) · $%.4f · %s tokens", len(sp.Sessions), sp.Cost, common.FormatTokens(int(sp.Tokens)))
	if sp.Unpriced > 0 {
		head += " · " + i18n.T("%d usage(s) unpriced", sp.Unpriced)
	}
	add(st.Text.Strong.Render(i18n.T("Cost and tokens per day")) + st.Text.Muted.Render(head))
	if len(sp.Days) == 0 {
		add(st.Pane.Placeholder.Render(i18n.T("no usage recorded")))
	} else {
		var topCost, topTokens float64
		for _, d := range sp.Days {
			topCost, topTokens = max(topCost, d.Cost), max(topTokens, d.Tokens)
		}
		// the day, a cost bar and its figure, a token bar and its figure
		const figures = 10 + 8 // " $12.3456 " and " 123.4k "
		bars := max(2, width-spendGutter-figures)
		costBar, tokenBar := bars*3/5, bars-bars*3/5
		cost := i18n.T("cost")
		add(strings.Repeat(" ", spendGutter) + st.Text.Warning.Render("█") + " " + cost + strings.Repeat(" ", max(1, costBar+10-2-ansi.StringWidth(cost))) +
			st.Text.Info.Render("▒") + " " + i18n.T("tokens"))
		for _, d := range sp.Days {
			add(st.Text.Muted.Render(d.Day+" ") + chart.HBar(d.Cost, topCost, costBar, st.Text.Warning) +
				st.Text.Normal.Render(fmt.Sprintf(" %-9s", fmt.Sprintf("$%.4f", d.Cost))) +
				chart.Span(0, d.Tokens, topTokens, tokenBar, '▒', st.Text.Info) + st.Text.Normal.Render(" "+common.FormatTokens(int(d.Tokens))))
		}
	}
	out = append(out, "")
	add(st.Text.Strong.Render(i18n.T("Sessions that cost most")))
	for i, s := range sp.Sessions {
		if i == 20 {
			add(st.Text.Muted.Render("  " + i18n.T("… %d more", len(sp.Sessions)-20)))
			break
		}
		add(st.Text.Normal.Render(fmt.Sprintf("  %9s %7s  ", fmt.Sprintf("$%.4f", s.Cost), common.FormatTokens(int(s.Tokens)))) +
			st.Text.Info.Render(sanitize.Fold(s.Title)))
	}
	for _, p := range sp.Problems {
		add(st.Text.Danger.Render("  " + sanitize.Fold(baseName(p.Path)+": "+p.Error)))
	}
	return out
}
