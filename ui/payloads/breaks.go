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
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
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

// cacheView is the project-wide cache view: it owns the report's rows,
// the report in flight and its list.
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
}

func newCacheView() *cacheView {
	l := common.NewList(renderBreak)
	l.SetFilter(common.FilterWords(breakRow.text))
	l.SetIdentity(func(r breakRow) string { return r.ref })
	return &cacheView{list: l}
}

// breakRow is one break of the report, with what its row shows. Its
// words (unpriced, tokens lost) are made when drawn, in the frame's
// language: the row keeps the figures.
type breakRow struct {
	ref, prevRef string
	costUSD      float64
	priced       bool
	tokens       string
	kind         string
	causeRef     string
	// line is the cause's detail with the other kinds that apply.
	line    string
	session string
	when    string
}

// costText is the missed cost as the row shows it ("unpriced" when the
// model's prices are unknown).
func (r *breakRow) costText() string {
	if !r.priced {
		return i18n.T("unpriced")
	}
	return fmt.Sprintf("$%.4f", r.costUSD)
}

// markText is the cause as the comparison's header shows it.
func (r *breakRow) markText() string {
	mark := i18n.T("%s · %s tokens lost · %s", r.costText(), r.tokens, r.kind)
	if r.causeRef != "" {
		mark += " " + r.causeRef
	}
	return mark + " · " + r.line
}

// text is what the filter matches: kind, ref, detail, session and time.
func (r breakRow) text() string {
	return r.kind + " " + r.causeRef + " " + r.line + " " + r.session + " " + r.when
}

// renderBreak draws a break row: cost, missed tokens, cause and ref, the
// detail, the session and time.
func renderBreak(r breakRow, rs common.RowState) string {
	st := rs.Styles
	cost := common.PadRight(r.costText(), 9)
	head := fmt.Sprintf("%s %9s tok  %-12s ", cost, r.tokens, r.kind) //i18n:raw columns of figures and a cause kind (data); tok is the unit
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
		return nil, "", i18n.Errorf("session locations: %w", err)
	}
	items, err := cachemiss.ListProject(loc, e.svc.Workspace().Cwd, session.ListOptions{Home: e.svc.Home()})
	if err != nil {
		return nil, "", i18n.Errorf("list sessions: %w", err)
	}
	var files []string
	for _, it := range items {
		if it.Problem == "" {
			files = append(files, it.Path)
		}
	}
	rep, problems := cachemiss.ReportFilesCachedStop(files, e.requestOptions(), nil, cachemiss.UserReportCache(e.svc.Workspace().AgentDir), stop.Load)
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
	r := breakRow{
		ref:      requestRef(b.File, b.Miss.EntryID),
		prevRef:  requestRef(b.File, b.Miss.PreviousEntryID),
		costUSD:  b.Miss.MissedCost,
		priced:   b.CostKnown(),
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
	hit := i18n.T("hit n/a")
	if h, ok := rep.HitRate(); ok {
		hit = i18n.T("hit %.1f%%", 100*h)
	}
	s := i18n.T("project: %d session(s) · %d request(s) · %s · %d break(s) · $%.4f lost", rep.Sessions, rep.Requests, hit,
		len(rep.Breaks), rep.TotalCost())
	if f, ok := rep.RewriteFactor(); ok {
		s += i18n.T(" · re-write factor %.2f", f)
	}
	if problems > 0 {
		s += i18n.T(" · %d file(s) unreadable", problems)
	}
	return s
}

// open computes the report anew and shows the project's breaks, those of
// only when it is set (a cause's ref).
func (v *cacheView) open(e env, only string) tea.Cmd {
	v.only = only
	if v.stop != nil {
		v.stop.Store(true) // the last report is no longer waited for
	}
	v.stop = new(atomic.Bool)
	v.gen++
	v.pending = true
	return breaksCmd(e, v.gen, v.stop)
}

// apply shows a report's rows (those of only when set), the cursor on
// the costliest.
func (v *cacheView) apply(msg breaksMsg) {
	if msg.gen != v.gen {
		return
	}
	v.pending = false
	v.all, v.summary = msg.rows, msg.summary
	if msg.err != nil {
		v.summary = sanitize.Line(msg.err.Error())
	}
	v.show()
}

// show puts the rows of only (all when empty) in the list.
func (v *cacheView) show() {
	rows := v.all
	if v.only != "" {
		rows = nil
		for _, r := range v.all {
			if r.causeRef == v.only || strings.HasPrefix(r.causeRef, v.only+"/") {
				rows = append(rows, r)
			}
		}
	}
	v.list.SetItems(rows)
	v.list.SetCursor(0)
}

// Update handles a key in the cache view.
func (v *cacheView) Update(msg tea.KeyPressMsg, k keymap.Payloads, com *common.Common, e env) (tea.Cmd, intent) {
	if v.list.Filtering() {
		v.list.FilterKey(msg, k.Open, k.Back, common.TextKeys(com))
		return nil, nil
	}
	switch {
	case key.Matches(msg, k.Back):
		if v.only != "" {
			v.only = ""
			v.show()
			return nil, nil
		}
		v.leave()
		return nil, backIntent{}
	case key.Matches(msg, k.Requests):
		v.leave()
		return nil, openRequestsIntent{}
	case key.Matches(msg, k.Reload):
		e.svc.Invalidate() // the library pi-forge's rewrite reads
		return v.open(e, v.only), nil
	case key.Matches(msg, com.Keys.Filter):
		v.list.StartFilter()
	case key.Matches(msg, k.Open):
		return nil, v.selectedPair()
	default:
		v.list.HandleNav(msg, k.Nav)
	}
	return nil, nil
}

// leave stops a report still running.
func (v *cacheView) leave() {
	if v.pending && v.stop != nil {
		v.stop.Store(true)
		v.gen++
		v.pending = false
	}
}

// selectedPair is enter on a break: its previous request against its
// own, the cause marked in the header.
func (v *cacheView) selectedPair() intent {
	r, ok := v.list.Selected()
	if !ok {
		return nil
	}
	return compareIntent{refs: [2]string{r.prevRef, r.ref}, brk: &r}
}

// View draws the cache view in a w×h frame.
func (v *cacheView) View(st *themes.Styles, k keymap.Payloads, w, h int) string {
	var lines []string
	switch {
	case v.pending:
		lines = []string{st.Text.Muted.Render(i18n.T("finding the project's cache breaks…"))}
	default:
		lines = append(lines, st.Diff.Boundary.Render(v.summary))
		if v.only != "" {
			lines = append(lines, st.Text.Warning.Render(i18n.T("breaks caused by %s", sanitize.Line(v.only)))+
				st.Text.Muted.Render(i18n.T(" (%s shows all)", k.Back.Help().Key)))
		}
		if v.list.Total() == 0 {
			lines = append(lines, st.Text.Muted.Render(i18n.T("no cache breaks (as Pi 1.6.0 counts them)")))
		} else {
			lines = append(lines, v.list.View(st, max(0, w-4), max(0, h-2-len(lines)), true)...)
		}
	}
	return common.Frame(*st, w, h, i18n.T("Cache breaks · project · costliest first (%s: this branch's requests)", k.Requests.Help().Key),
		v.list.Position(), true, lines)
}

// ShortHelp is the cache view's keys.
func (v *cacheView) ShortHelp(k keymap.Payloads, com *common.Common) []key.Binding {
	return []key.Binding{k.Open, com.Keys.Filter, k.Requests, com.Keys.View, k.Reload, k.Back}
}

// whole is the break under the cursor, whole (y, v, o).
func (v *cacheView) whole() (common.Whole, bool) {
	r, ok := v.list.Selected()
	if !ok {
		return common.Whole{}, false
	}
	text := strings.TrimSpace(v.summary) + "\n\n" + i18n.T("cache break at %s", r.ref) + "\n" + r.markText() + "\n" + i18n.T("previous request %s", r.prevRef)
	return common.Whole{Title: i18n.T("the cache break at %s", r.ref), Text: text}, true
}
