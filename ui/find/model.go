// Package find is the global search view (issue 16): a query typed once
// searches the text of every session of the project (or of all projects)
// and of their pi-subagent transcripts straight from the files, results
// streaming in newest session first as files are scanned; enter moves the
// shared selection to the hit — the session and entry in panel 3, or the
// agent's transcript in panel 5. The root opens it with ctrl+f or from the
// palette and draws it over the body.
package find

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
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

// Model is the search view. It keeps whether it is open and routes
// between its two parts, each a sub-model with its own Update and View:
// the query line with its options and typing pause (query.go) and the
// results, the running search's stream and the list of its hits
// (results.go). The view decides what neither part can alone: when the
// pause or enter starts a search of the query, and where enter on a hit
// jumps. The zero value is not usable: call New.
type Model struct {
	com  *common.Common
	open bool

	queryLine
	results
}

// New returns a closed search view.
func New(com *common.Common) *Model {
	return &Model{com: com, queryLine: queryLine{com: com}, results: newResults(com)}
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
	m.results.stop()
	return func() tea.Msg { return ClosedMsg{} }
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
		if m.queryLine.current(msg) && m.open && m.queryLine.searchable() && !m.results.answers(&m.queryLine) {
			return m.results.start(&m.queryLine)
		}
	case batchMsg:
		cmd, _ := m.results.Update(msg)
		return cmd
	default:
		if m.open { // a paste, the clipboard's text after the paste key
			return m.queryLine.Update(msg)
		}
	}
	return nil
}

// key routes a key: esc closes, enter searches a new query or jumps to
// the hit; the list takes its moving keys, the query line the rest.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys()
	switch {
	case key.Matches(msg, k.Close):
		return m.close()
	case key.Matches(msg, k.Open):
		if !m.results.answers(&m.queryLine) && m.query != "" {
			return m.results.start(&m.queryLine) // enter on a new query searches at once
		}
		return m.jump()
	}
	if cmd, ok := m.results.Update(msg); ok {
		return cmd
	}
	return m.queryLine.Update(msg)
}

// jump takes the user to the hit under the cursor (a title row: the
// session's first hit) with one common.JumpMsg: panel 3 at the entry for
// a session, panel 5 at the transcript's entry for an agent.
func (m *Model) jump() tea.Cmd {
	h, ok := m.results.selectedHit()
	if !ok {
		return nil
	}
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
