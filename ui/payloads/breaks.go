package payloads

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/cachemiss"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// The cache view: every lost prompt-cache prefix of the project's
// sessions, as `forgebench cache report` finds them (Pi 1.6.0's count,
// cause and price), costliest first. enter compares the break's two
// requests with the cause marked; / filters (a cause kind, a ref, a
// session); a jump from another panel ("what has this cost") shows only
// the breaks of one ref.

// cacheView is the cache view's state.
type cacheView struct {
	list *common.List[breakRow]
	// all is the report's rows; only, when set, shows those of one ref.
	all     []breakRow
	only    string
	summary string
	pending bool
	gen     int
	// stop ends the report in flight when it is no longer waited for.
	stop *atomic.Bool
	// mark is the cause of the break whose requests are compared, for the
	// comparison's header ("" once another pair is compared).
	mark string
}

func newCacheView() cacheView {
	l := common.NewList(renderBreak)
	l.SetFilter(common.FilterWords(breakRow.text))
	l.SetIdentity(func(r breakRow) string { return r.ref })
	return cacheView{list: l}
}

// breakRow is one break of the report, with what its row shows.
type breakRow struct {
	ref, prevRef string
	cost         string
	tokens       string
	kind         string
	causeRef     string
	// line is the cause's detail with the other kinds that apply.
	line    string
	session string
	when    string
	// mark is the cause as the comparison's header shows it.
	mark string
}

// text is what the filter matches: kind, ref, detail, session and time.
func (r breakRow) text() string {
	return r.kind + " " + r.causeRef + " " + r.line + " " + r.session + " " + r.when
}

// renderBreak draws a break row: cost, missed tokens, cause and ref, the
// detail, the session and time.
func renderBreak(r breakRow, rs common.RowState) string {
	st := rs.Styles
	head := fmt.Sprintf("%-9s %9s tok  %-12s ", r.cost, r.tokens, r.kind)
	tail := r.causeRef
	if tail != "" {
		tail += " · "
	}
	tail += r.line + " · " + r.session + " " + r.when
	line := ansi.Truncate(head+tail, rs.Width, "…")
	if rs.Selected {
		style := st.List.SelectedBlurred
		if rs.Focused {
			style = st.List.Selected
		}
		return style.Render(line + strings.Repeat(" ", max(0, rs.Width-ansi.StringWidth(line))))
	}
	return st.Text.Normal.Render(line)
}

// breaksMsg delivers the project's report.
type breaksMsg struct {
	gen     int
	rows    []breakRow
	summary string
	err     error
}

// breaksCmd reports on the project's sessions (Pi's breaks, their causes
// and prices, costliest first). stop is set when the view no longer waits
// for this report: the report ends between files.
func breaksCmd(e env, gen int, stop *atomic.Bool) tea.Cmd {
	return func() tea.Msg {
		rows, summary, err := projectBreaks(e, stop)
		return breaksMsg{gen: gen, rows: rows, summary: summary, err: err}
	}
}

func projectBreaks(e env, stop *atomic.Bool) ([]breakRow, string, error) {
	loc, err := e.svc.Locations()
	if err != nil {
		return nil, "", fmt.Errorf("session locations: %w", err)
	}
	items, err := session.ListCwd(loc, e.svc.Workspace().Cwd, session.ListOptions{Home: e.svc.Home()})
	if err != nil {
		return nil, "", fmt.Errorf("list sessions: %w", err)
	}
	var files []string
	for _, it := range items {
		if it.Problem == "" {
			files = append(files, it.Path)
		}
	}
	rep, problems := cachemiss.ReportFiles(files, e.requestOptions(), nil, stop.Load)
	if stop.Load() {
		return nil, "", nil
	}
	top := rep.Costliest(-1)
	rows := make([]breakRow, 0, len(top))
	for i := range top {
		rows = append(rows, newBreakRow(&top[i]))
	}
	return rows, reportSummary(rep, len(problems)), nil
}

// newBreakRow is a break as its row shows it.
func newBreakRow(b *cachemiss.Break) breakRow {
	cost := "unpriced"
	if b.CostKnown() {
		cost = fmt.Sprintf("$%.4f", b.Miss.MissedCost)
	}
	r := breakRow{
		ref:      requestRef(b.File, b.Miss.EntryID),
		prevRef:  requestRef(b.File, b.Miss.PreviousEntryID),
		cost:     cost,
		tokens:   count(b.Miss.MissedTokens),
		kind:     b.Cause.Kind,
		causeRef: sanitize.Clip(b.Cause.Ref, 60),
		line:     sanitize.Clip(b.Cause.Line(), 160),
		session:  shortID(b.SessionID),
		when:     sanitize.Clip(b.Timestamp, 24),
	}
	if t, err := time.Parse(time.RFC3339Nano, b.Timestamp); err == nil {
		r.when = t.Local().Format("2006-01-02 15:04")
	}
	r.mark = cost + " · " + r.tokens + " tokens lost · " + r.kind
	if r.causeRef != "" {
		r.mark += " " + r.causeRef
	}
	r.mark += " · " + r.line
	return r
}

// shortID is the first eight characters of a session id, as the Session
// panel's lists show it.
func shortID(id string) string {
	r := []rune(sanitize.Line(id))
	return string(r[:min(8, len(r))])
}

// reportSummary is the report's totals in one line.
func reportSummary(rep *cachemiss.Report, problems int) string {
	hit := "hit n/a"
	if h, ok := rep.HitRate(); ok {
		hit = fmt.Sprintf("hit %.1f%%", 100*h)
	}
	s := fmt.Sprintf("project: %d session(s) · %d request(s) · %s · %d break(s) · $%.4f lost", rep.Sessions, rep.Requests, hit,
		len(rep.Breaks), rep.TotalCost())
	if f, ok := rep.RewriteFactor(); ok {
		s += fmt.Sprintf(" · re-write factor %.2f", f)
	}
	if problems > 0 {
		s += fmt.Sprintf(" · %d file(s) unreadable", problems)
	}
	return s
}

// openBreaks shows the project's breaks, those of only when it is set
// (a cause's ref), computing the report anew.
func (m *Model) openBreaks(only string) tea.Cmd {
	m.mode = modeBreaks
	m.brk.only = only
	if m.brk.stop != nil {
		m.brk.stop.Store(true) // the last report is no longer waited for
	}
	m.brk.stop = new(atomic.Bool)
	m.brk.gen++
	m.brk.pending = true
	return breaksCmd(m.env, m.brk.gen, m.brk.stop)
}

// applyBreaks shows a report's rows (those of brkOnly when set), the
// cursor on the costliest.
func (m *Model) applyBreaks(msg breaksMsg) {
	if msg.gen != m.brk.gen {
		return
	}
	m.brk.pending = false
	m.brk.all, m.brk.summary = msg.rows, msg.summary
	if msg.err != nil {
		m.brk.summary = sanitize.Line(msg.err.Error())
	}
	m.showBreaks()
}

// showBreaks puts the rows of brkOnly (all when empty) in the list.
func (m *Model) showBreaks() {
	rows := m.brk.all
	if m.brk.only != "" {
		rows = nil
		for _, r := range m.brk.all {
			if r.causeRef == m.brk.only || strings.HasPrefix(r.causeRef, m.brk.only+"/") {
				rows = append(rows, r)
			}
		}
	}
	m.brk.list.SetItems(rows)
	m.brk.list.SetCursor(0)
}

// breaksKey handles a key in the cache view.
func (m *Model) breaksKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	if m.brk.list.Filtering() {
		m.brk.list.FilterKey(msg, k.Open, k.Back, common.TextKeys(m.com))
		return nil
	}
	switch {
	case key.Matches(msg, k.Back):
		if m.brk.only != "" {
			m.brk.only = ""
			m.showBreaks()
			return nil
		}
		m.leaveBreaks()
		m.mode = modeDiff
	case key.Matches(msg, k.Requests):
		m.leaveBreaks()
		return m.openRequests()
	case key.Matches(msg, k.Reload):
		m.env.svc.Invalidate() // the library pi-forge's rewrite reads
		return m.openBreaks(m.brk.only)
	case key.Matches(msg, m.com.Keys.Filter):
		m.brk.list.StartFilter()
	case key.Matches(msg, k.Open):
		return m.compareSelectedBreak()
	default:
		m.brk.list.HandleNav(msg, k.Nav)
	}
	return nil
}

// leaveBreaks stops a report still running.
func (m *Model) leaveBreaks() {
	if m.brk.pending && m.brk.stop != nil {
		m.brk.stop.Store(true)
		m.brk.gen++
		m.brk.pending = false
	}
}

// compareSelectedBreak is enter on a break: its previous request against
// its own, the cause marked in the header.
func (m *Model) compareSelectedBreak() tea.Cmd {
	r, ok := m.brk.list.Selected()
	if !ok {
		return nil
	}
	m.mode = modeDiff
	m.auto = false
	m.following.Cancel()
	cmd := m.compare([2]string{r.prevRef, r.ref})
	m.brk.mark = r.mark
	return cmd
}

func (m *Model) breaksView(st *themes.Styles) string {
	var lines []string
	switch {
	case m.brk.pending:
		lines = []string{st.Text.Muted.Render("finding the project's cache breaks…")}
	default:
		lines = append(lines, st.Diff.Boundary.Render(m.brk.summary))
		if m.brk.only != "" {
			lines = append(lines, st.Text.Warning.Render("breaks caused by "+sanitize.Line(m.brk.only))+
				st.Text.Muted.Render(" ("+m.keys.Back.Help().Key+" shows all)"))
		}
		if m.brk.list.Total() == 0 {
			lines = append(lines, st.Text.Muted.Render("no cache breaks (as Pi 1.6.0 counts them)"))
		} else {
			lines = append(lines, m.brk.list.View(st, max(0, m.width-4), max(0, m.height-2-len(lines)), true)...)
		}
	}
	return common.Frame(*st, m.width, m.height, "Cache breaks · project · costliest first ("+m.keys.Requests.Help().Key+": this branch's requests)",
		m.brk.list.Position(), true, lines)
}
