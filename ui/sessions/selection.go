package sessions

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The panel owns the shared selection's session and entry: whatever the
// cursor of the timeline or the tree is on is the selection, written into
// Common.Selection as soon as it moves (announce), and "the leaf" always
// means the session's current leaf (in follow mode the selection moves
// with it). Another panel never writes them: it sends a common.JumpMsg,
// which this panel takes (onJump).

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
	case refresh && m.following():
		// Live: the selection was the leaf and stays the leaf.
	case refresh:
		// Paused or off the leaf: the selection stays on its entry, on
		// the branch the user chose, while the session grows.
		cur := m.tl.current()
		if oldLeaf := m.tl.leaf; oldLeaf != prev.leaf && oldLeaf < len(ls.rows) {
			leaf = ls.branchLeafFrom(oldLeaf) // a side branch the user chose
		}
		at = cur
		if cur < 0 || cur >= len(ls.rows) {
			at = leaf
		}
	default:
		if idx, ok := ls.sess.IndexOf(m.selEntry); ok && m.selEntry != "" && !m.atLeaf {
			at = idx
		}
		if at != ls.leaf && !ls.active[at] {
			leaf = ls.branchLeafFrom(at)
		}
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
	m.picker.refresh(ls, m.com.Clock())
	m.picker.moveToPath(ls.file)
	if m.fork.selectAfter != "" { // a fork just written: the cursor shows it
		m.picker.moveToPath(m.fork.selectAfter)
		m.fork.selectAfter = ""
	}
	tail := m.ensureTail() // first: the selection says whether it follows
	m.announce(at)
	cmds := []tea.Cmd{m.ensureSummaries(), buildTree, pendingSummaries(ls), tail, m.scheduleLiveExpiry(), m.announceTrees()}
	if refresh {
		cmds = append(cmds, m.refreshModes())
	}
	// What reading repaired, once per open; skipped lines are said by the
	// timeline's mark, which names the key that lists them with the rest.
	if len(ls.notes) > 0 && !refresh && ls.skippedCount() == 0 {
		note := ls.notes[0]
		if more := len(ls.notes) - 1; more > 0 {
			note = i18n.T("%s (+%d more; %s lists them)", note, more, m.keys.Skipped.Help().Key)
		}
		cmds = append(cmds, m.setStatus(paneTimeline, note, false))
	}
	return tea.Batch(cmds...)
}

// openFile starts loading a session file; the selection goes to its
// leaf unless followSelection set another entry first.
func (m *Model) openFile(file string) tea.Cmd {
	m.stopTail()
	m.follow.paused = false // a session opens live at its leaf
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

// onJump takes a jump to a session (common.JumpMsg: a search hit, a
// payload's cause, an agent's root session): the session opens, or the
// open one moves, with the cursors on the entry (its leaf when none is
// named), and the selection goes there at once. When the jump lands in
// this panel its search query is revealed at the entry.
func (m *Model) onJump(msg common.JumpMsg) tea.Cmd {
	t := msg.Target
	if t.SessionFile == "" {
		return nil
	}
	query := ""
	if t.Panel == common.PanelSession {
		query = t.SearchQuery
		m.landOn(t.EntryID)
	}
	if m.ls == nil || t.SessionFile != m.ls.file {
		// applyLoaded lands on selEntry; until the file is read the
		// selection names the session and the entry the jump asked for.
		m.selEntry, m.atLeaf = t.EntryID, t.EntryID == ""
		m.revealHit(t.EntryID, query)
		m.com.Selection = common.Selection{SessionFile: t.SessionFile, SessionName: t.SessionName,
			EntryID: t.EntryID, AtLeaf: m.atLeaf, PresetID: m.com.Selection.PresetID}
		if t.SessionFile == m.loading {
			return nil
		}
		return m.openFile(t.SessionFile)
	}
	idx := m.ls.leaf
	if i, ok := m.ls.sess.IndexOf(t.EntryID); ok && t.EntryID != "" {
		idx = i
	}
	m.selectEntry(idx)
	if query != "" {
		m.revealHit(t.EntryID, query)
	}
	return nil
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

// announce makes entry idx the shared selection: this panel owns the
// selection's session and entry and writes them into Common.Selection
// here, in its Update; the root tells the other panels (the header, the
// Presets preview …) once this Update returns. The selection names the
// entry by id also at the leaf (AtLeaf tells), and carries the Preset
// selection the branch records there.
func (m *Model) announce(idx int) {
	ls := m.ls
	if ls == nil || idx < 0 || idx >= len(ls.rows) {
		return
	}
	m.selIdx = idx
	id, atLeaf := ls.sess.Entries[idx].ID, idx == ls.leaf
	if moved := m.selFrom == nil || m.selFrom.file != ls.file || m.selEntry != id; moved {
		// A re-read of the growing session keeps the entry and its
		// scroll; a move shows the new entry from its top and lets the
		// selection follow again once it is at the leaf.
		m.detail.offset = 0
		m.follow.paused = false
	}
	if m.detail.reveal.entry != id {
		m.detail.reveal = detailReveal{} // the hit's marks end where it is left
	}
	cur := &m.com.Selection
	if m.selFrom == ls && m.selEntry == id && m.atLeaf == atLeaf && cur.SessionFile == ls.file && cur.EntryID == id &&
		cur.AtLeaf == atLeaf && cur.SessionName == ls.title && cur.Paused == m.held() {
		return
	}
	m.selFrom, m.selEntry, m.atLeaf = ls, strings.Clone(id), atLeaf
	active := m.presetMemo.activeAt(ls, idx).String()
	fresh := active == "" && freshBranch(ls.sess, idx) // what auto-activation would do there
	// The shared selection outlives this snapshot of the file: it holds
	// copies, not views of a mapped file that may be cut under it.
	cur.SessionFile, cur.SessionName = ls.file, strings.Clone(ls.title)
	cur.EntryID, cur.AtLeaf, cur.ActivePreset, cur.FreshBranch = m.selEntry, atLeaf, active, fresh
	cur.Paused = m.held()
}

// selectEntry shows entry idx in the timeline and the tree and makes it
// the selection.
func (m *Model) selectEntry(idx int) {
	if m.ls == nil || idx < 0 {
		return
	}
	m.showEntry(idx)
	m.announce(idx)
}

// toLeaf selects the session's current leaf on the active branch.
func (m *Model) toLeaf() tea.Cmd {
	if m.ls == nil || m.ls.leaf < 0 {
		return nil
	}
	m.setPaused(false)
	m.mode = modeEntry
	tail := m.ensureTail() // first: the selection says whether it follows
	m.setBranch(m.ls.leaf, m.ls.leaf)
	m.selectEntry(m.ls.leaf)
	return tail
}

// currentEntry is the selected entry, the one the detail, context, copy
// and expand keys act on, whichever pane has the focus: the timeline's
// cursor is on it, and the tree's on it or on the row that hides it (a
// fold, the tree's filter).
func (m *Model) currentEntry() int {
	if m.ls == nil || m.selIdx < 0 || m.selIdx >= len(m.ls.rows) {
		return -1
	}
	return m.selIdx
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
