package sessions

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/search"
)

// The session search (`/` in the timeline or the tree) matches an entry
// when its text holds the query — the text a person reads, as the global
// search sees it (session/search: messages, tool calls and results,
// thinking, summaries; escapes decoded; case-insensitive) — or when, as in
// Pi's /tree search, every word of the query is in its kind, id, summary
// or label. The words match at once; the text is matched in a command
// (a session can be hundreds of MB) and its matches join when they come.

// textState is the full-text part of the search.
type textState struct {
	seq    int
	query  string       // what hits answer
	hits   map[int]bool // entry indexes whose text holds query
	cancel context.CancelFunc
}

// textMatchesMsg carries the entries whose text holds a query.
type textMatchesMsg struct {
	seq   int
	file  string
	query string
	hits  map[int]bool
}

// requestTextMatches starts matching the current query against the text
// of every entry, cancelling a match still running.
func (m *Model) requestTextMatches() tea.Cmd {
	if m.text.cancel != nil {
		m.text.cancel()
		m.text.cancel = nil
	}
	m.text.seq++
	q := m.search.Query()
	if m.ls == nil || q == "" {
		m.text.query, m.text.hits = "", nil
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.text.cancel = cancel
	seq, file, sess := m.text.seq, m.ls.file, m.ls.sess
	return func() tea.Msg { return textMatchesMsg{seq: seq, file: file, query: q, hits: textMatches(ctx, sess, q)} }
}

// textMatches returns the entries of s whose text holds q.
func textMatches(ctx context.Context, s *session.Session, q string) map[int]bool {
	matcher, err := search.Compile(search.Query{Text: q})
	if err != nil {
		return nil
	}
	hits := map[int]bool{}
	for _, h := range matcher.MatchSession(ctx, s, 1) {
		hits[h.Index] = true
	}
	return hits
}

// applyTextMatches joins the text matches to the search's; when the
// words matched nothing yet, the cursor goes to the first match.
func (m *Model) applyTextMatches(msg textMatchesMsg) tea.Cmd {
	if msg.seq != m.text.seq || m.ls == nil || msg.file != m.ls.file || msg.query != m.search.Query() {
		return nil
	}
	m.text.query, m.text.hits, m.text.cancel = msg.query, msg.hits, nil
	hadMatch := m.search.Count() > 0
	pos, ok := m.matchSearch()
	if !ok || hadMatch {
		return nil
	}
	return m.searchJump(pos)
}
