package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// The Tree pane's search (Pi's /tree search): `/` types a query, every
// entry whose kind, id, summary or label holds each word matches, the
// cursor jumps to the first match from where it is, and n/N step through
// the others, unfolding what hides them. The kit's common.Search keeps
// the query and the matches; positions are entries in the tree's display
// order with folds ignored (treeOrder).

// startSearch opens the tree's search line.
func (m *Model) startSearch() {
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

// showsSearchLine is true when the tree pane shows its search line.
func (m *Model) showsSearchLine() bool { return m.search.Typing() || m.search.Active() }

// searchKey types into the search line and jumps as the query changes.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.search.Key(msg, m.com.Keys.Search) {
	case common.SearchCancelled:
		m.tree.marks(m.ls, nil)
		return nil
	case common.SearchEdited, common.SearchAccepted:
		return m.runSearch()
	}
	return nil
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

// matchSearch matches the query against every entry the tree shows,
// marks the matches and returns the first at or after the cursor.
func (m *Model) matchSearch() (int, bool) {
	if m.ls == nil {
		return -1, false
	}
	m.ensureTreeOrder()
	order, ls := m.treeOrder, m.ls
	matches := common.MatchWords(len(order), func(pos int) string {
		i := order[pos]
		return ls.rows[i].kind + " " + ls.rows[i].id + " " + ls.sums[i].text + " " + ls.labels[i]
	}, m.search.Query())
	hits := make(map[int]bool, len(matches))
	for _, pos := range matches {
		hits[order[pos]] = true
	}
	m.tree.marks(ls, hits)
	return m.search.SetMatches(matches, m.treePos())
}

// searchStep moves to the next (or previous) match.
func (m *Model) searchStep(next bool) tea.Cmd {
	m.ensureTreeOrder()
	var pos int
	var ok bool
	if next {
		pos, ok = m.search.Next(m.treePos())
	} else {
		pos, ok = m.search.Prev(m.treePos())
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

// searchJump puts the tree cursor on the match at pos (unfolding what
// hides it) and makes it the selection.
func (m *Model) searchJump(pos int) tea.Cmd {
	if pos < 0 || pos >= len(m.treeOrder) {
		return nil
	}
	m.tree.moveTo(m.ls, m.treeOrder[pos])
	return m.treeMoved()
}

// openGoto opens the "go to entry" prompt in the focused list pane (the
// timeline when the picker or the detail has focus).
func (m *Model) openGoto() {
	if m.focus != paneTree {
		m.focus = paneTimeline
	}
	empty := ""
	m.gotoID = &empty
}

// gotoKey types into the entry prompt; enter selects the entry whose id
// is typed (or the only one it starts).
func (m *Model) gotoKey(msg tea.KeyPressMsg) tea.Cmd {
	text, ev := common.EditLine(*m.gotoID, msg, m.com.Keys.Search)
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
		return m.selectEntry(idx)
	default:
		*m.gotoID = text
	}
	return nil
}

// findEntry resolves an entry id or a prefix that only one id starts.
func (m *Model) findEntry(id string) (int, string) {
	if id == "" || m.ls == nil {
		return -1, "no entry id typed"
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
		return -1, fmt.Sprintf("no entry %q in this session", id)
	case 1:
		return found, ""
	}
	return -1, fmt.Sprintf("%q starts %d entry ids: type more", id, n)
}

// promptLine is the entry prompt as drawn at the top of its pane.
func (m *Model) promptLine() string {
	st := &m.com.Styles
	return st.Text.Info.Render(m.keys.GotoEntry.Help().Key+" entry id: ") + st.Text.Normal.Render(*m.gotoID) + st.Text.Info.Render("▏")
}
