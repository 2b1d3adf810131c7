package sessions

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The session search: `/` in the timeline or the tree types a query;
// matching entries (their text, see textsearch.go, or every word in the
// kind, id, summary or label, like Pi's /tree search) are marked in both
// panes, the cursor jumps to the first match from where it is, and n/N
// step through the others in the pane the search started in: the tree in
// its display order (unfolding what hides a match), the timeline in file
// order (switching to a match's branch). The kit's common.Search keeps
// the query and the matches; positions are tree-order positions for the
// tree (treeOrder, folds ignored) and entry indexes for the timeline.

// startSearch opens the search line in the focused list pane.
func (m *Model) startSearch() {
	if m.focus != paneTree {
		m.focus = paneTimeline
	}
	m.searchPane = m.focus
	m.search.Start()
	m.ensureTreeOrder()
}

// ensureTreeOrder computes the tree's display order once per load, fold
// set and filter (it is O(entries)).
func (m *Model) ensureTreeOrder() {
	if m.treeOrder == nil && m.ls != nil {
		m.treeOrder = m.tree.order(m.ls)
	}
}

// showsSearchLine is true when pane shows the search line.
func (f *finder) showsSearchLine(p pane) bool {
	return p == f.searchPane && (f.search.Typing() || f.search.Active())
}

// timelineSearchLine is true when the timeline shows the search line
// (not while it shows only the matches: its filter line says so then).
func (m *Model) timelineSearchLine() bool {
	return m.showsSearchLine(paneTimeline) && m.tl.list.Query() == ""
}

// searchKey types into the search line and jumps as the query changes.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.search.Key(msg, m.com.Keys) {
	case common.SearchCancelled:
		m.clearSearch()
		return nil
	case common.SearchEdited, common.SearchAccepted:
		return tea.Batch(m.runSearch(), m.requestTextMatches())
	}
	return nil
}

// clearSearch ends the search and its marks.
func (m *Model) clearSearch() {
	m.search.Clear()
	m.detail.reveal = detailReveal{}
	m.text.query, m.text.hits = "", nil
	if m.text.cancel != nil {
		m.text.cancel()
		m.text.cancel = nil
	}
	m.tree.marks(m.ls, nil)
	m.tl.marks(m.ls, nil)
}

// runSearch matches the query against every entry and moves to the first
// match at or after the cursor.
func (m *Model) runSearch() tea.Cmd {
	pos, ok := m.matchSearch()
	if !ok {
		return nil
	}
	return m.searchJump(pos)
}

// refreshSearch recomputes an active search's matches without moving the
// cursor: after the tree's filter changed what it shows, or summaries
// arrived that a query may match.
func (m *Model) refreshSearch() {
	if m.search.Active() {
		m.matchSearch()
	}
}

// matchSearch matches the query against every entry, marks the matches
// in the tree and the timeline and returns the first at or after the
// cursor of the search's pane.
func (m *Model) matchSearch() (int, bool) {
	if m.ls == nil {
		return -1, false
	}
	m.ensureTreeOrder()
	ls, q := m.ls, m.search.Query()
	hits := map[int]bool{}
	if m.text.query == q {
		for i := range m.text.hits {
			hits[i] = true
		}
	}
	for _, i := range common.MatchWords(len(ls.rows), ls.wordText, q) {
		hits[i] = true
	}
	m.tree.marks(ls, hits)
	m.tl.marks(ls, hits)
	if m.searchPane == paneTree {
		var matches []int
		for pos, i := range m.treeOrder {
			if hits[i] {
				matches = append(matches, pos)
			}
		}
		return m.search.SetMatches(matches, m.treePos())
	}
	matches := make([]int, 0, len(hits))
	for i := range hits {
		matches = append(matches, i)
	}
	return m.search.SetMatches(matches, max(0, m.tl.current()))
}

// searchStep moves to the next (or previous) match.
func (m *Model) searchStep(next bool) tea.Cmd {
	m.ensureTreeOrder()
	from := max(0, m.tl.current())
	if m.searchPane == paneTree {
		from = m.treePos()
	}
	var pos int
	var ok bool
	if next {
		pos, ok = m.search.Next(from)
	} else {
		pos, ok = m.search.Prev(from)
	}
	if !ok {
		return nil
	}
	return m.searchJump(pos)
}

// treePos is the tree cursor's position in treeOrder (0 when unknown).
func (m *Model) treePos() int {
	cur := m.tree.current()
	for pos, i := range m.treeOrder {
		if i == cur {
			return pos
		}
	}
	return 0
}

// searchJump puts the search pane's cursor on the match at pos (the tree
// unfolds what hides it; the timeline shows its branch) and makes it the
// selection.
func (m *Model) searchJump(pos int) tea.Cmd {
	var cmd tea.Cmd
	if m.searchPane != paneTree {
		m.selectEntry(pos)
	} else {
		if pos < 0 || pos >= len(m.treeOrder) {
			return nil
		}
		m.tree.moveTo(m.ls, m.treeOrder[pos])
		cmd = m.treeMoved()
	}
	if idx := m.currentEntry(); idx >= 0 && idx < len(m.ls.sess.Entries) {
		m.revealHit(m.ls.sess.Entries[idx].ID, m.search.Query())
	}
	return cmd
}

// toggleMatchesOnly narrows the timeline to the search's matches, or
// shows every entry of the branch again.
func (m *Model) toggleMatchesOnly() {
	if m.tl.list.Query() != "" || !m.search.Active() {
		m.tl.list.SetQuery("")
		return
	}
	m.tl.list.SetQuery(m.search.Query())
}

// openGoto opens the "go to entry" prompt in the focused list pane (the
// timeline when the picker or the detail has focus).
func (m *Model) openGoto() {
	if m.focus != paneTree {
		m.focus = paneTimeline
	}
	m.gotoID = &common.LineInput{}
}

// gotoKey types into the entry prompt; enter selects the entry whose id
// is typed (or the only one it starts).
func (m *Model) gotoKey(msg tea.KeyPressMsg) tea.Cmd {
	ev := m.gotoID.PromptKey(msg, m.com.Keys)
	text := m.gotoID.Value()
	switch ev {
	case common.SearchCancelled:
		m.gotoID = nil
	case common.SearchAccepted:
		m.gotoID = nil
		idx, problem := m.findEntry(strings.TrimSpace(text))
		if problem != "" {
			return m.setStatus(m.focus, problem, true)
		}
		m.mode = modeEntry
		m.selectEntry(idx)
	}
	return nil
}

// findEntry resolves an entry id or a prefix that only one id starts.
func (m *Model) findEntry(id string) (int, string) {
	if id == "" || m.ls == nil {
		return -1, i18n.T("no entry id typed")
	}
	if idx, ok := m.ls.sess.IndexOf(id); ok {
		return idx, ""
	}
	found, n := -1, 0
	for i := range m.ls.sess.Entries {
		if strings.HasPrefix(m.ls.sess.Entries[i].ID, id) {
			found, n = i, n+1
		}
	}
	switch n {
	case 0:
		return -1, i18n.T("no entry %q in this session", id)
	case 1:
		return found, ""
	}
	return -1, i18n.T("%q starts %d entry ids: type more", id, n)
}

// promptLine is the entry prompt as drawn at the top of its pane.
func (m *Model) promptLine() string {
	st := &m.com.Styles
	return st.Text.Info.Render(i18n.T("%s entry id: ", m.keys.GotoEntry.Help().Key)) + m.gotoID.View(st, true)
}
