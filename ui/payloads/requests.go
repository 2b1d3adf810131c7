package payloads

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/ui/common"
)

// requestRow is one request of the branch with its recorded cache use and,
// where the cache dropped, the boundary the diff predicts.
type requestRow struct {
	ref, prevRef string
	entry        string
	figures      string
	dropped      bool
	predicted    string
}

// renderRequest draws a request row; drops are marked ▼ (readable without
// colour) and coloured as a removal.
func renderRequest(r requestRow, rs common.RowState) string {
	st := rs.Styles
	mark := "  "
	if r.dropped {
		mark = "▼ "
	}
	line := mark + fmt.Sprintf("%-10s ", r.entry) + r.figures
	if r.predicted != "" {
		line += "  " + r.predicted
	}
	line = ansi.Truncate(line, rs.Width, "…")
	if rs.Selected {
		style := st.List.SelectedBlurred
		if rs.Focused {
			style = st.List.Selected
		}
		return style.Render(line + strings.Repeat(" ", max(0, rs.Width-ansi.StringWidth(line))))
	}
	if r.dropped {
		return st.Diff.Del.Render(line)
	}
	return st.Text.Normal.Render(line)
}

// requestsMsg delivers the branch's requests.
type requestsMsg struct {
	gen     int
	rows    []requestRow
	summary string
	err     error
}

// requestsCmd reads the cache use of every request on the selected branch
// and predicts the boundary at each drop.
func requestsCmd(e env, gen int, sel common.Selection) tea.Cmd {
	return func() tea.Msg {
		rows, summary, err := requests(e, sel)
		return requestsMsg{gen: gen, rows: rows, summary: summary, err: err}
	}
}

func requests(e env, sel common.Selection) ([]requestRow, string, error) {
	if sel.SessionFile == "" {
		return nil, "select a session in panel 3 to see its requests", nil
	}
	s, err := e.cache.open(sel.SessionFile)
	if err != nil {
		return nil, "", err
	}
	idx := s.LeafIndex()
	if sel.EntryID != "" {
		if i, ok := s.IndexOf(sel.EntryID); ok {
			idx = i
		}
	}
	if idx < 0 {
		return nil, "the session has no entries", nil
	}
	cat, _ := catalog.Shared(e.ws.AgentDir)
	rep := session.CacheReportAt(s, idx)
	preds := map[int]session.Prediction{}
	for _, p := range session.PredictDrops(s, rep, cat) {
		preds[p.Use.Index] = p
	}
	ref := func(i int) string {
		return session.Ref{Kind: session.RefSession, Path: sel.SessionFile, Entry: s.Entries[i].ID}.String()
	}
	rows := make([]requestRow, 0, len(rep.Uses))
	for k, u := range rep.Uses {
		r := requestRow{ref: ref(u.Index), entry: sanitize.Clip(u.EntryID, 10), dropped: u.Dropped, figures: cacheFigures(&u)}
		if k > 0 {
			r.prevRef = ref(rep.Uses[k-1].Index)
		}
		if p, ok := preds[u.Index]; ok {
			r.predicted = predictionText(&p)
		}
		rows = append(rows, r)
	}
	return rows, branchSummary(&rep.Branch), nil
}

// cacheFigures is one request's recorded cache use.
func cacheFigures(u *turndiff.CacheUse) string {
	s := fmt.Sprintf("read %s · write %s · uncached %s", count(u.CacheRead), count(u.CacheWrite), count(u.Input))
	switch {
	case u.HasRatio:
		s += fmt.Sprintf(" · hit %.0f%%", 100*u.HitRatio)
	case !u.Reported:
		s += " · no cache figures"
	}
	if u.Dropped {
		s += " · −" + count(u.Lost)
	}
	return s
}

// predictionText is what the diff predicts at a drop.
func predictionText(p *session.Prediction) string {
	switch {
	case p.Err != nil:
		return "not rebuilt: " + sanitize.Clip(p.Err.Error(), 60)
	case !p.Breaks:
		return fmt.Sprintf("predicted: no break (~%s tok cached)", count(float64(p.Diff.PrefixTokens)))
	case p.Cause != nil:
		return fmt.Sprintf("predicted: break, ~%s tok cached · %s", count(float64(p.Diff.PrefixTokens)), sanitize.Clip(p.Cause.Detail, 80))
	}
	return fmt.Sprintf("predicted: break, ~%s tok cached", count(float64(p.Diff.PrefixTokens)))
}

// branchSummary totals a branch's cache use in one line.
func branchSummary(s *turndiff.CacheSummary) string {
	hit := "no cache figures"
	if s.HasRatio {
		hit = fmt.Sprintf("hit %.1f%%", 100*s.HitRatio)
	}
	return fmt.Sprintf("branch: %d request(s) · read %s · write %s · uncached %s · %s · %d drop(s)",
		s.Requests, count(s.CacheRead), count(s.CacheWrite), count(s.Uncached), hit, len(s.Drops))
}

// count prints a token count with thousands separators.
func count(f float64) string {
	n := int64(f)
	s := fmt.Sprint(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}
