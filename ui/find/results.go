package find

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/search"
	"github.com/forgebench/forgebench/ui/common"
)

// results is the view's lower part as a sub-model: one search at a time,
// its stream of batches (commands.go) and the list of what it found so
// far, with the progress line above it. A new search (start) cancels the
// running one; a batch of an older search is dropped (gen).
type results struct {
	com      *common.Common
	searcher *search.Searcher
	limit    int // hits kept (maxHits; tests lower it)

	list   *common.List[row]
	hits   []search.Hit // rows index into it
	files  int          // files with hits so far
	cancel context.CancelFunc
	gen    int
	// searched is the query and options the results are for.
	searched string
	// searchedText is the query alone (what a jump asks to reveal; "" for
	// a regular expression, whose words are not what the lines show).
	searchedText string
	running      bool
	scanned      int
	total        int
	stats        search.Stats
	problem      string
	started      time.Time
	first        time.Duration // until the first hit arrived (0: none yet)
	took         time.Duration
}

// newResults returns an empty result list searching with a Searcher of
// its own (its cache makes a repeated or narrowed query read little).
func newResults(com *common.Common) results {
	r := results{com: com, searcher: search.NewSearcher(), limit: maxHits, list: common.NewList(renderRow)}
	r.list.SetIdentity(func(r row) string { return r.id })
	return r
}

func (r *results) keys() *keymap.Find { return &r.com.Keys.FindView }

// Update takes the keys that move in the list (ok: the key was one) and
// the running search's batches.
func (r *results) Update(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case batchMsg:
		return r.apply(msg), true
	case tea.KeyPressMsg:
		k := r.keys()
		switch {
		case key.Matches(msg, k.Up):
			r.list.Move(-1)
		case key.Matches(msg, k.Down):
			r.list.Move(1)
		case key.Matches(msg, k.PageUp):
			r.list.Move(-r.list.PageSize())
		case key.Matches(msg, k.PageDown):
			r.list.Move(r.list.PageSize())
		default:
			return nil, false
		}
		return nil, true
	}
	return nil, false
}

// answers reports whether the results are those of q as it stands.
func (r *results) answers(q *queryLine) bool { return r.searched == q.signature() }

// stop cancels the running search.
func (r *results) stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	r.running = false
}

// start cancels the running search and starts one for q's query and
// options; an empty query empties the list, a bad one says why.
func (r *results) start(q *queryLine) tea.Cmd {
	r.stop()
	r.gen++
	r.hits, r.files, r.scanned, r.total, r.first, r.took = nil, 0, 0, 0, 0, 0
	r.stats, r.problem = search.Stats{}, ""
	r.list.SetItems(nil)
	r.searched, r.searchedText = q.signature(), q.query
	if q.regex {
		r.searchedText = ""
	}
	if q.query == "" {
		return nil
	}
	matcher, err := search.Compile(search.Query{Text: q.query, Regex: q.regex, CaseSensitive: q.sensitive})
	if err != nil {
		r.problem = err.Error()
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.running, r.started = cancel, true, r.com.Clock()
	return startCmd(ctx, r.gen, r.searcher, matcher, search.Options{Limit: r.limit}, r.com.Services(), q.every, q.agents)
}

// apply adds a batch of results and asks for the next.
func (r *results) apply(b batchMsg) tea.Cmd {
	if b.gen != r.gen {
		return nil
	}
	r.scanned, r.total = b.scanned, b.total
	if len(b.files) > 0 {
		if r.first == 0 {
			r.first = max(r.com.Clock().Sub(r.started), time.Millisecond)
		}
		r.addFiles(b.files)
	}
	if !b.done {
		return waitCmd(b.gen, b.feed)
	}
	r.running, r.stats, r.took = false, b.stats, r.com.Clock().Sub(r.started)
	if b.err != nil && b.err != context.Canceled {
		r.problem = b.err.Error()
	}
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	return nil
}

// addFiles appends the rows of newly found files: a title row per
// session, then one row per hit (active branch first, as the CLI groups).
func (r *results) addFiles(files []search.FileResult) {
	items := r.list.Items()
	for _, f := range files {
		r.files++
		items = append(items, titleRow(f))
		for _, h := range ordered(f.Hits) {
			r.hits = append(r.hits, h)
			items = append(items, hitRow(h, len(r.hits)-1))
		}
	}
	first := len(r.list.Items()) == 0
	r.list.SetItems(items)
	if first {
		r.list.SetCursor(1) // the first hit, under its session's title
	}
}

// ordered puts a file's hits on the active branch first, then each
// abandoned branch's, keeping file order inside each.
func ordered(hits []search.Hit) []search.Hit {
	out := make([]search.Hit, 0, len(hits))
	for _, h := range hits {
		if h.OnActiveBranch {
			out = append(out, h)
		}
	}
	for _, h := range hits {
		if !h.OnActiveBranch {
			out = append(out, h)
		}
	}
	return out
}

// selectedHit is the hit under the cursor (a title row: its session's
// first hit).
func (r *results) selectedHit() (search.Hit, bool) {
	sel, ok := r.list.Selected()
	if !ok {
		return search.Hit{}, false
	}
	if sel.kind == rowTitle {
		i := r.list.Cursor()
		if i+1 >= r.list.Len() {
			return search.Hit{}, false
		}
		sel = r.list.Shown(i + 1)
	}
	return r.hits[sel.hit], true
}

// View draws the progress line and the list (or what stands in for it)
// in width cells, the list in listRows rows; q says what is typed.
func (r *results) View(q *queryLine, width, listRows int) []string {
	st := &r.com.Styles
	lines := []string{r.progressLine()}
	if r.list.Len() == 0 {
		return append(lines, "", st.Pane.Placeholder.Render(r.emptyText(q)))
	}
	return append(lines, r.list.View(st, width, listRows, true)...)
}

func (r *results) progressLine() string {
	st := &r.com.Styles
	switch {
	case r.problem != "":
		return st.Text.Danger.Render(sanitize.Fold(r.problem))
	case r.searched == "" || r.gen == 0:
		return ""
	}
	hits := len(r.hits)
	sessions := i18n.T("%d sessions", r.files)
	parts := []string{i18n.T("%d hits in %s", hits, sessions)}
	switch {
	case r.running:
		parts = append(parts, i18n.T("%d/%d files", r.scanned, r.total))
	case r.stats.Limited:
		parts[0] = i18n.T("first %d hits in %s: narrow the query", hits, sessions)
		parts = append(parts, i18n.T("stopped at file %d/%d", r.scanned, r.total))
	default:
		parts = append(parts, i18n.T("%d files in %s", r.total, r.took.Round(time.Millisecond)))
		if r.stats.Cached > 0 {
			parts = append(parts, i18n.T("%d unchanged", r.stats.Cached))
		}
	}
	if r.first > 0 {
		parts = append(parts, i18n.T("first hit %s", r.first.Round(time.Millisecond)))
	}
	return st.Text.Muted.Render(strings.Join(parts, " · "))
}

func (r *results) emptyText(q *queryLine) string {
	switch {
	case r.problem != "":
		return ""
	case q.query == "":
		return i18n.T("Type to search the text of every session: messages, tool calls and results, thinking, summaries.")
	case r.running:
		return i18n.T("Searching…")
	case r.answers(q) && r.gen > 0:
		return i18n.T("No session holds this text.")
	}
	return i18n.T("Press enter to search.")
}
