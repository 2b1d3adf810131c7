package payloads

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
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
	// nested is the branch's runs inside tool calls, apart from the
	// requests ("" when no tool reported any).
	nested string
	err    error
	// more are the drops still to predict (the most recent few come
	// predicted with the rows).
	more dropBatch
}

// dropBatch is the drops of one branch still to predict (indexes into
// uses) and how to rebuild their requests.
type dropBatch struct {
	file    string
	uses    []turndiff.CacheUse
	pending map[int]bool
	opts    replay.RequestOptions
}

// predictBatch is how many drops one background command predicts.
const predictBatch = 8

// predictedMsg delivers the predictions of a batch of drops by row
// reference.
type predictedMsg struct {
	gen   int
	ks    []int
	texts map[string]string
}

// requestsCmd reads the cache use of every request on the selected branch
// and predicts the boundary at the most recent drops; the others are
// predicted in the background around the cursor (nextPredictions).
func requestsCmd(e env, gen int, sel common.Selection) tea.Cmd {
	return func() tea.Msg {
		rows, summary, more, err := requests(e, sel)
		msg := requestsMsg{gen: gen, rows: rows, summary: summary, err: err, more: more}
		if err == nil && len(rows) > 0 {
			msg.nested = nestedSummary(e, sel)
		}
		return msg
	}
}

func requests(e env, sel common.Selection) ([]requestRow, string, dropBatch, error) {
	if sel.SessionFile == "" {
		return nil, i18n.T("select a session in panel 3 to see its requests"), dropBatch{}, nil
	}
	s, err := e.cache.open(sel.SessionFile)
	if err != nil {
		return nil, "", dropBatch{}, err
	}
	idx := s.LeafIndex()
	if sel.EntryID != "" {
		if i, ok := s.IndexOf(sel.EntryID); ok {
			idx = i
		}
	}
	if idx < 0 {
		return nil, i18n.T("the session has no entries"), dropBatch{}, nil
	}
	rep := replay.CacheReportAt(s, idx)
	opts := e.requestOptions()
	preds := map[int]replay.Prediction{}
	for _, p := range replay.PredictDrops(s, rep, opts, replay.MaxPredictedDrops) {
		preds[p.Use.Index] = p
	}
	more := dropBatch{file: sel.SessionFile, uses: rep.Uses, opts: opts, pending: map[int]bool{}}
	for _, k := range rep.Branch.Drops {
		if _, done := preds[rep.Uses[k].Index]; !done {
			more.pending[k] = true
		}
	}
	rows := make([]requestRow, 0, len(rep.Uses))
	for k, u := range rep.Uses {
		r := requestRow{ref: requestRef(sel.SessionFile, u.EntryID), entry: sanitize.Clip(u.EntryID, 10), dropped: u.Dropped, figures: cacheFigures(&u)}
		if k > 0 {
			r.prevRef = requestRef(sel.SessionFile, rep.Uses[k-1].EntryID)
		}
		if p, ok := preds[u.Index]; ok {
			r.predicted = predictionText(&p)
		} else if u.Dropped {
			r.predicted = i18n.T("predicting…")
		}
		rows = append(rows, r)
	}
	return rows, branchSummary(&rep.Branch), more, nil
}

// requestRef is the session reference of a request's entry.
func requestRef(file, entryID string) string {
	return replay.Ref{Kind: replay.RefSession, Path: file, Entry: entryID}.String()
}

// branchRequests is the per-request cache view: the requests of the
// selected branch with their recorded cache use, and what the diff
// predicts at each drop, predicted in the background around the cursor.
// It owns its list, its load and its predictions.
type branchRequests struct {
	list    *common.List[requestRow]
	summary string
	nested  string
	pending bool
	gen     int
	// drops are the branch's drops still to predict; busy is set while a
	// batch of them is predicted in the background.
	drops dropBatch
	busy  bool
}

func newBranchRequests() *branchRequests {
	l := common.NewList(renderRequest)
	l.SetFilter(common.FilterWords(func(r requestRow) string { return r.entry + " " + r.figures + " " + r.predicted }))
	l.SetIdentity(func(r requestRow) string { return r.ref })
	return &branchRequests{list: l}
}

// load reads the requests of sel's branch anew.
func (r *branchRequests) load(e env, sel common.Selection) tea.Cmd {
	r.gen++
	r.pending = true
	return requestsCmd(e, r.gen, sel)
}

// apply shows the branch's requests, the cursor on the newest, and starts
// predicting the drops around it (reach rows either side).
func (r *branchRequests) apply(msg requestsMsg, e env, reach int) tea.Cmd {
	if msg.gen != r.gen {
		return nil
	}
	r.pending = false
	r.summary, r.nested = msg.summary, msg.nested
	if msg.err != nil {
		r.summary = sanitize.Line(msg.err.Error())
	}
	r.list.SetItems(msg.rows)
	r.list.SetCursor(len(msg.rows) - 1)
	r.drops, r.busy = msg.more, false
	return r.predictNear(e, reach)
}

// applyPredicted puts a batch's predictions on their rows and starts the
// next batch.
func (r *branchRequests) applyPredicted(msg predictedMsg, e env, reach int) tea.Cmd {
	if msg.gen != r.gen {
		return nil
	}
	r.busy = false
	for _, k := range msg.ks {
		delete(r.drops.pending, k)
	}
	rows := append([]requestRow(nil), r.list.Items()...)
	for i := range rows {
		if text, ok := msg.texts[rows[i].ref]; ok {
			rows[i].predicted = text
		}
	}
	r.list.SetItems(rows)
	return r.predictNear(e, reach)
}

// predictNear predicts, in the background, the drops nearest the cursor
// within reach rows of it (at least a batch) — one batch at a time — so
// every drop the user looks at gets its prediction without rebuilding the
// requests of a whole long session. The panel calls it only while the
// requests are on show.
func (r *branchRequests) predictNear(e env, reach int) tea.Cmd {
	if r.busy || len(r.drops.pending) == 0 {
		return nil
	}
	cur := r.list.SelectedIndex()
	if cur < 0 {
		return nil
	}
	reach = max(predictBatch, reach)
	var ks []int
	for k := range r.drops.pending {
		if d := k - cur; d >= -reach && d <= reach {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil
	}
	slices.SortFunc(ks, func(a, b int) int { return cmp.Compare(absInt(a-cur), absInt(b-cur)) })
	ks = ks[:min(predictBatch, len(ks))]
	slices.Sort(ks)
	r.busy = true
	return predictCmd(e, r.gen, r.drops, ks)
}

// selectedPair is enter on a request: it against the one before it.
func (r *branchRequests) selectedPair() intent {
	row, ok := r.list.Selected()
	if !ok {
		return nil
	}
	return compareIntent{refs: [2]string{row.prevRef, row.ref}}
}

// Update handles a key in the requests view; moved reports that the
// cursor may have moved (the panel predicts around it).
func (r *branchRequests) Update(msg tea.KeyPressMsg, k keymap.Payloads, com *common.Common, e env) (cmd tea.Cmd, in intent, moved bool) {
	if r.list.Filtering() {
		r.list.FilterKey(msg, k.Open, k.Back, common.TextKeys(com))
		return nil, nil, false
	}
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Requests):
		return nil, backIntent{}, false
	case key.Matches(msg, k.Reload):
		e.svc.Invalidate() // the Presets listed are read again
		return nil, openRequestsIntent{}, false
	case key.Matches(msg, com.Keys.Filter):
		r.list.StartFilter()
	case key.Matches(msg, k.Open):
		return nil, r.selectedPair(), false
	default:
		r.list.HandleNav(msg, k.Nav)
		return nil, nil, true
	}
	return nil, nil, false
}

// View draws the requests view in a w×h frame.
func (r *branchRequests) View(st *themes.Styles, w, h int) string {
	var lines []string
	switch {
	case r.pending:
		lines = []string{st.Text.Muted.Render(i18n.T("reading the branch's cache figures…"))}
	default:
		lines = append(lines, st.Diff.Boundary.Render(r.summary))
		if r.nested != "" {
			lines = append(lines, st.Text.Muted.Render(ansi.Truncate(r.nested, max(0, w-4), "…")))
		}
		if r.list.Total() == 0 {
			lines = append(lines, st.Text.Muted.Render(i18n.T("no request on this branch recorded usage")))
		} else {
			lines = append(lines, r.list.View(st, max(0, w-4), max(0, h-2-len(lines)), true)...)
		}
	}
	return common.Frame(*st, w, h, i18n.T("Requests on the branch · cache use (▼ dropped)"), r.list.Position(), true, lines)
}

// ShortHelp is the requests view's keys.
func (r *branchRequests) ShortHelp(k keymap.Payloads, com *common.Common) []key.Binding {
	return []key.Binding{k.Open, k.Requests, com.Keys.View, k.Reload}
}

// whole is the request under the cursor, whole (y, v, o).
func (r *branchRequests) whole() (common.Whole, bool) {
	row, ok := r.list.Selected()
	if !ok {
		return common.Whole{}, false
	}
	text := strings.TrimSpace(r.summary)
	if r.nested != "" {
		text += "\n" + r.nested + "\n" + i18n.T("(nested: the runs inside tool calls, from pi-forge's forgeNestedUsage reports; not in the rows or the branch line)")
	}
	text += "\n\n" + i18n.T("request for %s", row.entry) + "\n" + row.figures
	if row.predicted != "" {
		text += "\n" + row.predicted
	}
	return common.Whole{Title: i18n.T("the request for %s", row.entry), Text: text + "\n" + i18n.T("reference %s", row.ref) + "\n" + i18n.T("against %s", row.prevRef)}, true
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// predictCmd predicts the drops ks of b (indexes into b.uses).
func predictCmd(e env, gen int, b dropBatch, ks []int) tea.Cmd {
	return func() tea.Msg {
		texts := map[string]string{}
		s, err := e.cache.open(b.file)
		if err != nil {
			for _, k := range ks {
				texts[requestRef(b.file, b.uses[k].EntryID)] = i18n.T("not rebuilt: %s", sanitize.Clip(err.Error(), 60))
			}
			return predictedMsg{gen: gen, ks: ks, texts: texts}
		}
		for _, p := range replay.Predict(s, b.uses, ks, b.opts) {
			texts[requestRef(b.file, p.Use.EntryID)] = predictionText(&p)
		}
		return predictedMsg{gen: gen, ks: ks, texts: texts}
	}
}

// cacheFigures is one request's recorded cache use.
func cacheFigures(u *turndiff.CacheUse) string {
	s := i18n.T("read %s · write %s · uncached %s", count(u.CacheRead), count(u.CacheWrite), count(u.Input))
	switch {
	case u.HasRatio:
		s += i18n.T(" · hit %.0f%%", 100*u.HitRatio)
	case !u.Reported:
		s += i18n.T(" · no cache figures")
	}
	if u.Dropped {
		s += " · −" + count(u.Lost)
	}
	return s
}

// predictionText is what the diff predicts at a drop.
func predictionText(p *replay.Prediction) string {
	switch {
	case p.Err != nil:
		return i18n.T("not rebuilt: %s", sanitize.Clip(p.Err.Error(), 60))
	case !p.Breaks:
		return i18n.T("predicted: no break (~%s tok cached)", count(float64(p.Diff.PrefixTokens)))
	case p.Cause != nil:
		return i18n.T("predicted: break, ~%s tok cached · %s", count(float64(p.Diff.PrefixTokens)), sanitize.Clip(p.Cause.Detail, 80))
	}
	return i18n.T("predicted: break, ~%s tok cached", count(float64(p.Diff.PrefixTokens)))
}

// branchSummary totals a branch's cache use in one line.
func branchSummary(s *turndiff.CacheSummary) string {
	hit := i18n.T("no cache figures")
	if s.HasRatio {
		hit = i18n.T("hit %.1f%%", 100*s.HitRatio)
	}
	return i18n.T("branch: %d request(s) · read %s · write %s · uncached %s · %s · %d drop(s)",
		s.Requests, count(s.CacheRead), count(s.CacheWrite), count(s.Uncached), hit, len(s.Drops))
}

// nestedSummary is the runs made inside the branch's tool calls
// (pi-forge's forgeNestedUsage reports), on a line of their own: pi-forge
// never mixes them with the session model's requests, and the rows and
// the branch line above are those requests only. "" when no tool call on
// the branch reported any.
func nestedSummary(e env, sel common.Selection) string {
	s, err := e.cache.open(sel.SessionFile)
	if err != nil {
		return ""
	}
	idx := s.LeafIndex()
	if i, ok := s.IndexOf(sel.EntryID); ok && sel.EntryID != "" {
		idx = i
	}
	cat, _ := e.svc.Catalog()
	n := stats.SplitStreams(s, s.PathTo(idx), cat).Nested
	if !n.Any() {
		return ""
	}
	hit := i18n.T("no cache figures")
	if prompt := n.Input + n.CacheRead + n.CacheWrite; prompt > 0 {
		hit = i18n.T("hit %.1f%%", 100*n.CacheRead/prompt)
	}
	line := i18n.T("nested: %d call(s), %d request(s) · read %s · write %s · uncached %s · %s · out %s · $%.4f",
		n.Calls, n.Requests, count(n.CacheRead), count(n.CacheWrite), count(n.Input), hit, count(n.Output), n.Cost)
	if n.Unpriced > 0 {
		line += i18n.T(" (%d unpriced)", n.Unpriced)
	}
	if n.CacheUnknownCalls > 0 {
		line += i18n.T(" · %d no cache figures", n.CacheUnknownCalls)
	}
	if n.InvalidCalls > 0 {
		line += i18n.T(" · %d malformed", n.InvalidCalls)
	}
	return line
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
