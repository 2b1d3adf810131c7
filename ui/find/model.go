// Package find is the global search view (issue 16): a query typed once
// searches the text of every session of the project (or of all projects)
// and of their pi-subagent transcripts straight from the files, results
// streaming in newest session first as files are scanned; enter moves the
// shared selection to the hit — the session and entry in panel 3, or the
// agent's transcript in panel 5. The root opens it with ctrl+f or from the
// palette and draws it over the body.
package find

import (
	"context"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/search"
	"github.com/forgebench/forgebench/ui/common"
)

// debounce is how long typing pauses before the query is searched;
// enter searches at once. It counts in the 150 ms for the first
// results (a search typed over is cancelled, and narrowing queries skip
// the files the last one found nothing in).
const debounce = 50 * time.Millisecond

// minQuery is the shortest query searched while typing (enter searches
// any non-empty query).
const minQuery = 2

// maxHits is how many hits the view keeps: the newest sessions' first,
// then the search stops and asks for a narrower query. A common word
// finds hundreds of thousands of hits in months of sessions; keeping
// them all held hundreds of MB (the CLI streams them without limit).
const maxHits = 2000

// ClosedMsg is sent when the view closes.
type ClosedMsg struct{}

// Model is the search view. The zero value is not usable: call New.
type Model struct {
	com      *common.Common
	searcher *search.Searcher
	open     bool
	limit    int // hits kept (maxHits; tests lower it)

	query                           string
	line                            common.LineInput // query's editor: the kit's text keys and cursor
	regex, sensitive, agents, every bool
	seq                             int // edits, for the debounce

	list   *common.List[row]
	hits   []search.Hit // rows index into it
	files  int          // files with hits so far
	cancel context.CancelFunc
	gen    int
	// searched is the query and options the results are for.
	searched string
	running  bool
	scanned  int
	total    int
	stats    search.Stats
	problem  string
	started  time.Time
	first    time.Duration // until the first hit arrived (0: none yet)
	took     time.Duration
	// searchedText is the query alone (what a jump asks to reveal; "" for
	// a regular expression, whose words are not what the lines show).
	searchedText string
}

// New returns a closed search view. The Searcher keeps the process-local
// cache, so repeating or narrowing a query reads little.
func New(com *common.Common) *Model {
	m := &Model{com: com, searcher: search.NewSearcher(), limit: maxHits}
	m.list = common.NewList(renderRow)
	m.list.SetIdentity(func(r row) string { return r.id })
	return m
}

func (m *Model) keys() *keymap.Find { return &m.com.Keys.FindView }

// Open shows the view; the last query and its results are kept.
func (m *Model) Open() tea.Cmd {
	m.open = true
	return nil
}

// IsOpen reports whether the view is showing.
func (m *Model) IsOpen() bool { return m.open }

// close hides the view and stops a running search.
func (m *Model) close() tea.Cmd {
	m.open = false
	m.stop()
	return func() tea.Msg { return ClosedMsg{} }
}

func (m *Model) stop() {
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	m.running = false
}

// Update handles keys while open and the search's messages at any time.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.open {
			return m.key(msg)
		}
	case debounceMsg:
		// enter may have searched this query already.
		if msg.seq == m.seq && m.open && len([]rune(m.query)) >= minQuery && m.searched != m.signature() {
			return m.start()
		}
	case batchMsg:
		return m.apply(msg)
	default:
		if m.open { // a paste, the clipboard's text after the paste key
			return m.typed(msg)
		}
	}
	return nil
}

// typed hands msg to the query's editor and searches again when it
// changed the query.
func (m *Model) typed(msg tea.Msg) tea.Cmd {
	changed, cmd := m.line.Key(msg, common.TextKeys(m.com))
	if changed {
		m.query = m.line.Value()
		return tea.Batch(cmd, m.edited())
	}
	return cmd
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys()
	switch {
	case key.Matches(msg, k.Close):
		return m.close()
	case key.Matches(msg, k.Open):
		if m.searched != m.signature() && m.query != "" {
			return m.start() // enter on a new query searches at once
		}
		return m.jump()
	case key.Matches(msg, k.Up):
		m.list.Move(-1)
	case key.Matches(msg, k.Down):
		m.list.Move(1)
	case key.Matches(msg, k.PageUp):
		m.list.Move(-m.list.PageSize())
	case key.Matches(msg, k.PageDown):
		m.list.Move(m.list.PageSize())
	case key.Matches(msg, k.Regex):
		m.regex = !m.regex
		return m.edited()
	case key.Matches(msg, k.Case):
		m.sensitive = !m.sensitive
		return m.edited()
	case key.Matches(msg, k.Agents):
		m.agents = !m.agents
		return m.edited()
	case key.Matches(msg, k.AllProjects):
		m.every = !m.every
		return m.edited()
	case key.Matches(msg, k.Clear):
		m.query = ""
		m.line.SetValue("")
		return m.edited()
	default:
		return m.typed(msg)
	}
	return nil
}

// edited schedules a search of the new query once typing pauses.
func (m *Model) edited() tea.Cmd {
	m.seq++
	if len([]rune(m.query)) < minQuery {
		return nil
	}
	return m.com.Later(debounce, debounceMsg{seq: m.seq})
}

// signature identifies the query and options a result set answers.
func (m *Model) signature() string {
	return fmt.Sprint(m.query, m.regex, m.sensitive, m.agents, m.every)
}

// start cancels the running search and starts one for the current query.
func (m *Model) start() tea.Cmd {
	m.stop()
	m.gen++
	m.hits, m.files, m.scanned, m.total, m.first, m.took = nil, 0, 0, 0, 0, 0
	m.stats, m.problem = search.Stats{}, ""
	m.list.SetItems(nil)
	m.searched, m.searchedText = m.signature(), m.query
	if m.regex {
		m.searchedText = ""
	}
	if m.query == "" {
		return nil
	}
	matcher, err := search.Compile(search.Query{Text: m.query, Regex: m.regex, CaseSensitive: m.sensitive})
	if err != nil {
		m.problem = err.Error()
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel, m.running, m.started = cancel, true, m.com.Clock()
	return startCmd(ctx, m.gen, m.searcher, matcher, search.Options{Limit: m.limit}, m.com.Services(), m.every, m.agents)
}

// apply adds a batch of results and asks for the next.
func (m *Model) apply(b batchMsg) tea.Cmd {
	if b.gen != m.gen {
		return nil
	}
	m.scanned, m.total = b.scanned, b.total
	if len(b.files) > 0 {
		if m.first == 0 {
			m.first = max(m.com.Clock().Sub(m.started), time.Millisecond)
		}
		m.addFiles(b.files)
	}
	if !b.done {
		return waitCmd(b.gen, b.feed)
	}
	m.running, m.stats, m.took = false, b.stats, m.com.Clock().Sub(m.started)
	if b.err != nil && b.err != context.Canceled {
		m.problem = b.err.Error()
	}
	if m.cancel != nil {
		m.cancel()
		m.cancel = nil
	}
	return nil
}

// addFiles appends the rows of newly found files: a title row per
// session, then one row per hit (active branch first, as the CLI groups).
func (m *Model) addFiles(files []search.FileResult) {
	items := m.list.Items()
	for _, f := range files {
		m.files++
		items = append(items, titleRow(f))
		for _, h := range ordered(f.Hits) {
			m.hits = append(m.hits, h)
			items = append(items, hitRow(h, len(m.hits)-1))
		}
	}
	first := len(m.list.Items()) == 0
	m.list.SetItems(items)
	if first {
		m.list.SetCursor(1) // the first hit, under its session's title
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

// jump takes the user to the hit under the cursor (a title row: the
// session's first hit) with one common.JumpMsg: panel 3 at the entry for
// a session, panel 5 at the transcript's entry for an agent.
func (m *Model) jump() tea.Cmd {
	r, ok := m.list.Selected()
	if !ok {
		return nil
	}
	if r.kind == rowTitle {
		i := m.list.Cursor()
		if i+1 >= m.list.Len() {
			return nil
		}
		r = m.list.Shown(i + 1)
	}
	h := m.hits[r.hit]
	t := common.JumpTarget{Panel: common.PanelSession, SessionFile: h.File, SessionName: h.SessionName,
		EntryID: h.EntryID, SearchQuery: m.searchedText}
	if h.AgentPath != "" {
		// The Agents panel follows the root session and opens the agent's
		// transcript at the entry; the Session panel opens the root.
		t = common.JumpTarget{Panel: common.PanelAgents, SessionFile: h.RootFile,
			AgentPath: h.AgentPath, AgentFile: h.File, AgentEntryID: h.EntryID, SearchQuery: m.searchedText}
	}
	m.open = false
	return tea.Sequence(m.com.Jump(t), func() tea.Msg { return ClosedMsg{} })
}

// ShortHelp is the footer while the view is open.
func (m *Model) ShortHelp() []key.Binding { return m.keys().ShortHelp() }
