package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// The panel owns the shared selection's session and entry: whatever the
// cursor of the timeline or the tree is on is the selection, announced as
// soon as it moves, and "the leaf" always means the session's current
// leaf (in follow mode the selection moves with it).

// applyLoaded installs a loaded session: rows, tree and the timeline of
// the active branch with the cursor on the selected entry (or the leaf),
// then announces the selection.
func (m *Model) applyLoaded(msg loadedMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.loading, m.spinning = "", false
	if msg.err != nil {
		return m.setStatus(paneTimeline, msg.err.Error(), true)
	}
	prev := m.ls
	ls := msg.ls
	m.ls = ls
	refresh := prev != nil && prev.file == ls.file // reload or follow
	if st := &m.status[paneTimeline]; st.IsError() {
		st.Clear()
	}
	if !refresh {
		m.tree = newTreeView()
		m.tl = newTimeline()
		m.detail.offset = 0
		clear(m.detail.expanded)
		m.mode = modeEntry
		m.context = contextState{}
		m.stats = statsState{}
		m.search.Clear()
	}
	m.treeOrder = nil
	clear(m.detail.cache)
	at, leaf := ls.leaf, ls.leaf
	switch {
	case refresh && m.atLeaf:
		// Follow mode: the selection was the leaf and stays the leaf.
	case refresh:
		cur, atEnd := m.tl.current(), m.tl.atEnd()
		if oldLeaf := m.tl.leaf; oldLeaf != prev.leaf && oldLeaf < len(ls.rows) {
			leaf = ls.branchLeafFrom(oldLeaf) // a side branch the user chose
		}
		at = cur
		if atEnd || cur < 0 || cur >= len(ls.rows) {
			at = leaf // stay on the newest entry of the branch
		}
	default:
		if idx, ok := ls.sess.IndexOf(m.selEntry); ok && m.selEntry != "" && !m.atLeaf {
			at = idx
		}
		if at != ls.leaf && !ls.active[at] {
			leaf = ls.branchLeafFrom(at)
		}
	}
	if refresh {
		m.context = contextState{}
		m.stats = statsState{}
	}
	var buildTree tea.Cmd
	if !refresh && at == ls.leaf && ls.initialTimeline != nil {
		// A fresh load at the leaf: the loading command built the
		// timeline; the tree view is built next, after this frame.
		m.tl = *ls.initialTimeline
		ls.initialTimeline = nil
		m.tree.pending, m.tree.branchLeaf = true, ls.leaf
		buildTree = treeCmd(ls)
	} else {
		m.tree.rebuild(ls)
		m.setBranch(leaf, at)
		m.tree.moveTo(ls, at)
	}
	m.picker.refresh(ls)
	m.picker.moveToPath(ls.file)
	cmds := []tea.Cmd{m.ensureSummaries(), buildTree, summaryCmd(ls, nil), m.announce(at)}
	if len(ls.notes) > 0 && !refresh { // what reading skipped or repaired, once per open
		note := ls.notes[0]
		if more := len(ls.notes) - 1; more > 0 {
			note += fmt.Sprintf(" (+%d more; %s lists the skipped lines)", more, m.keys.Skipped.Help().Key)
		}
		cmds = append(cmds, m.setStatus(paneTimeline, note, false))
	}
	if m.follow.on && m.follow.reloading {
		m.follow.reloading = false
		if m.follow.dirty {
			m.follow.dirty = false
			cmds = append(cmds, m.reloadCmd())
		}
	}
	return tea.Batch(cmds...)
}

// openFile starts loading a session file; the selection goes to its
// leaf unless followSelection set another entry first.
func (m *Model) openFile(file string) tea.Cmd {
	m.stopFollow()
	m.gen++
	m.loading = file
	cmds := []tea.Cmd{openCmd(m.gen, file)}
	if m.picker.sizeOf(file) >= hugeFileBytes { // size from discovery: no IO here
		m.spinning = true
		cmds = append(cmds, m.spin.Tick)
	}
	return tea.Batch(cmds...)
}

// reloadCmd re-reads the open session (reload and follow mode).
func (m *Model) reloadCmd() tea.Cmd {
	if m.ls == nil {
		return nil
	}
	m.gen++
	gen, file := m.gen, m.ls.file
	return func() tea.Msg { return openSession(gen, file) }
}

// followSelection reacts to a selection made anywhere (our own echo
// included): another session opens, another entry moves the cursors.
func (m *Model) followSelection(sel common.Selection) tea.Cmd {
	if sel.SessionFile == "" {
		return nil
	}
	if m.ls == nil || sel.SessionFile != m.ls.file {
		if sel.SessionFile == m.loading {
			return nil
		}
		// A selection made elsewhere names its entry by id; AtLeaf is
		// this panel's to say (another panel may copy a stale one).
		m.selEntry, m.atLeaf = sel.EntryID, sel.EntryID == ""
		m.landOn(sel.EntryID)
		m.revealHit(sel.EntryID, sel.SearchQuery)
		return m.openFile(sel.SessionFile)
	}
	if sel.EntryID == m.selEntry && sel.AtLeaf == m.atLeaf && sel.SearchQuery == "" {
		return nil
	}
	m.landOn(sel.EntryID)
	idx := m.ls.leaf
	if i, ok := m.ls.sess.IndexOf(sel.EntryID); ok && sel.EntryID != "" {
		idx = i
	}
	m.showEntry(idx)
	cmd := m.announce(idx)
	if sel.SearchQuery != "" {
		m.revealHit(sel.EntryID, sel.SearchQuery)
	}
	return cmd
}

// landOn focuses the timeline when another panel (a search hit, a
// payload's cause) names an entry, so the user lands on it there rather
// than in the picker; typing in this panel keeps its focus.
func (m *Model) landOn(entryID string) {
	if entryID != "" && !m.CapturesInput() {
		m.focus = paneTimeline
	}
}

// showEntry puts the timeline on the branch through idx and both the
// timeline and the tree cursors on it.
func (m *Model) showEntry(idx int) {
	ls := m.ls
	if idx < 0 || idx >= len(ls.rows) {
		return
	}
	m.showBranchOf(idx)
	m.tl.moveToEntry(idx)
	m.tree.moveTo(ls, idx)
}

// showBranchOf makes the timeline show a branch through idx: the shown
// one when it passes there, else the active one, else the newest.
func (m *Model) showBranchOf(idx int) {
	ls := m.ls
	if m.tl.contains(idx) && m.tl.current() >= 0 {
		return
	}
	leaf := ls.leaf
	if !ls.active[idx] {
		leaf = ls.branchLeafFrom(idx)
	}
	m.setBranch(leaf, idx)
}

// announce makes entry idx the shared selection when it is not already:
// the header, the Presets preview and the other panels follow at once.
// The selection names the entry by id also at the leaf (AtLeaf tells),
// and carries the Preset selection the branch records there.
func (m *Model) announce(idx int) tea.Cmd {
	ls := m.ls
	if ls == nil || idx < 0 || idx >= len(ls.rows) {
		return nil
	}
	m.detail.offset = 0
	id, atLeaf := ls.sess.Entries[idx].ID, idx == ls.leaf
	if m.detail.reveal.entry != id {
		m.detail.reveal = detailReveal{} // the hit's marks end where it is left
	}
	cur := m.com.Selection
	active := session.ActivePresetAt(ls.sess, idx).String()
	fresh := active == "" && freshBranch(ls.sess, idx) // what auto-activation would do there
	if m.selEntry == id && m.atLeaf == atLeaf && cur.SessionFile == ls.file &&
		cur.EntryID == id && cur.ActivePreset == active && cur.FreshBranch == fresh && cur.SessionName == ls.title &&
		cur.SearchQuery == "" {
		return nil
	}
	m.selEntry, m.atLeaf = id, atLeaf
	sel := cur
	// The shared selection outlives this snapshot of the file: it holds
	// copies, not views of a mapped file that may be cut under it.
	sel.SessionFile, sel.SessionName = ls.file, strings.Clone(ls.title)
	sel.EntryID, sel.AtLeaf, sel.ActivePreset, sel.FreshBranch = strings.Clone(id), atLeaf, active, fresh
	sel.SearchQuery = "" // a hit is revealed once, where it landed
	return func() tea.Msg { return common.SelectionChangedMsg{Selection: sel} }
}

// selectEntry shows entry idx in the timeline and the tree and makes it
// the selection.
func (m *Model) selectEntry(idx int) tea.Cmd {
	if m.ls == nil || idx < 0 {
		return nil
	}
	m.showEntry(idx)
	return m.announce(idx)
}

// toLeaf selects the session's current leaf on the active branch.
func (m *Model) toLeaf() tea.Cmd {
	if m.ls == nil || m.ls.leaf < 0 {
		return nil
	}
	m.mode = modeEntry
	m.setBranch(m.ls.leaf, m.ls.leaf)
	return m.selectEntry(m.ls.leaf)
}

// currentEntry is the entry the detail, context and expand keys act on:
// the timeline cursor (or the tree cursor while the tree has focus).
func (m *Model) currentEntry() int {
	if m.ls == nil {
		return -1
	}
	if m.focus == paneTree {
		return m.tree.current()
	}
	return m.tl.current()
}

// setBranch shows the branch ending at leaf in the timeline with the
// cursor on entry at, and marks it in the tree.
func (m *Model) setBranch(leaf, at int) {
	m.tl.setBranch(m.ls, leaf, at)
	if m.tree.branchLeaf != leaf {
		m.tree.branchLeaf = leaf
		m.tree.sync(m.ls)
	}
}
