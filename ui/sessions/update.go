package sessions

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// applyLoaded installs a loaded session: rows, tree and the timeline of
// the active branch with the cursor on the selected entry (or the leaf).
func (m *Model) applyLoaded(msg loadedMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.loading, m.spinning = "", false
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	prev := m.ls
	ls := msg.ls
	m.ls = ls
	refresh := prev != nil && prev.file == ls.file // reload or follow
	m.status = ""
	if len(ls.notes) > 0 {
		note := ls.notes[0]
		if more := len(ls.notes) - 1; more > 0 {
			note += fmt.Sprintf(" (+%d more; session show lists them)", more)
		}
		m.setStatus(note, false)
	}
	if !refresh {
		m.tree = newTreeView()
		m.tl = newTimeline()
		m.detail.offset = 0
		clear(m.detail.expanded)
		m.mode = modeEntry
		m.context = contextState{}
		m.stats = statsState{}
		m.selEntry = ""
		if m.com.Selection.SessionFile == ls.file {
			m.selEntry = m.com.Selection.EntryID
		}
	}
	clear(m.detail.cache)
	at := ls.leaf
	if idx, ok := ls.sess.IndexOf(m.selEntry); ok && m.selEntry != "" {
		at = idx
	}
	if !refresh && at == ls.leaf && ls.initialTree != nil {
		m.tree, m.tl = *ls.initialTree, *ls.initialTimeline
		ls.initialTree, ls.initialTimeline = nil, nil
		return m.loadedCmds(ls)
	}
	m.tree.rebuild(ls)
	leaf := ls.leaf
	if refresh {
		cur, atEnd := m.tl.current(), m.tl.atEnd()
		oldLeaf := m.tl.leaf
		if oldLeaf != prev.leaf && oldLeaf < len(ls.rows) {
			leaf = ls.branchLeafFrom(oldLeaf) // a side branch the user chose
		}
		at = cur
		if atEnd || cur < 0 {
			at = leaf // follow: stay on the newest entry
		}
		m.context = contextState{}
		m.stats = statsState{}
	} else if at != ls.leaf {
		leaf = ls.branchLeafFrom(at)
		if ls.active[at] {
			leaf = ls.leaf
		}
	}
	m.setBranch(leaf, at)
	m.tree.moveTo(ls, at)
	return m.loadedCmds(ls)
}

// loadedCmds ends applyLoaded: the picker follows the file, summaries of
// the visible rows come first, then every entry's.
func (m *Model) loadedCmds(ls *loadedSession) tea.Cmd {
	m.picker.refresh(ls.file)
	m.picker.moveToPath(ls.file)
	cmds := []tea.Cmd{m.ensureSummaries(), summaryCmd(ls, nil)}
	if m.follow.on && m.follow.reloading {
		m.follow.reloading = false
		if m.follow.dirty {
			m.follow.dirty = false
			cmds = append(cmds, m.reloadCmd())
		}
	}
	return tea.Batch(cmds...)
}

// openFile starts loading a session file.
func (m *Model) openFile(file string) tea.Cmd {
	m.stopFollow()
	m.gen++
	m.loading = file
	cmds := []tea.Cmd{openCmd(m.gen, file, m.com.Selection)}
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
		m.selEntry = sel.EntryID
		return m.openFile(sel.SessionFile)
	}
	if sel.EntryID == m.selEntry {
		return nil
	}
	m.selEntry = sel.EntryID
	idx := m.ls.leaf
	if i, ok := m.ls.sess.IndexOf(sel.EntryID); ok && sel.EntryID != "" {
		idx = i
	}
	m.showEntry(idx)
	return nil
}

// showEntry puts the timeline on the branch through idx and both the
// timeline and the tree cursors on it.
func (m *Model) showEntry(idx int) {
	ls := m.ls
	if idx < 0 || idx >= len(ls.rows) {
		return
	}
	leaf := ls.leaf
	if !ls.active[idx] {
		leaf = ls.branchLeafFrom(idx)
	}
	if leaf != m.tl.leaf || m.tl.current() < 0 {
		m.setBranch(leaf, idx)
	}
	m.tl.moveToEntry(idx)
	m.tree.moveTo(ls, idx)
	m.detail.offset = 0
}

// selectEntry makes idx the selection's entry and announces it.
func (m *Model) selectEntry(idx int) tea.Cmd {
	if m.ls == nil || idx < 0 {
		return nil
	}
	m.showEntry(idx)
	id := m.ls.rows[idx].id
	if idx == m.ls.leaf {
		id = ""
	}
	m.selEntry = id
	sel := selectionOf(m.com.Selection, m.ls, id)
	return func() tea.Msg { return common.SelectionChangedMsg{Selection: sel} }
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

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if !m.statusErr {
		m.status = "" // a note answers the key before; errors stay until replaced
	}
	if m.filtering() {
		m.filterKey(msg)
		return nil
	}
	k := &m.keys
	switch {
	case key.Matches(msg, k.Back):
		m.back()
		return nil
	case key.Matches(msg, k.Filter):
		if m.focus == panePicker {
			m.picker.list.StartFilter()
			return nil
		}
		m.focus = paneTimeline
		m.tl.list.StartFilter()
		return nil
	case key.Matches(msg, k.Reload):
		return m.reload()
	case key.Matches(msg, k.Follow):
		return m.toggleFollow()
	case m.ls == nil:
		return m.navigate(msg)
	case key.Matches(msg, k.Context):
		return m.openContext()
	case key.Matches(msg, k.Stats):
		return m.openStats()
	case key.Matches(msg, k.Thinking):
		m.detail.thinking = !m.detail.thinking
		return nil
	case key.Matches(msg, m.com.Keys.Copy):
		return m.copyEntry(m.currentEntry())
	case key.Matches(msg, k.Expand) && m.mode == modeContext:
		m.context.full = !m.context.full
		m.context.lines = nil
		return nil
	case key.Matches(msg, k.Expand):
		if idx := m.currentEntry(); idx >= 0 {
			m.detail.expanded[idx] = !m.detail.expanded[idx]
		}
		return nil
	}
	return m.navigate(msg)
}

// back is esc: leave context/stats, then step focus back towards the
// picker (detail → timeline → tree → picker), clearing a filter first.
func (m *Model) back() {
	switch {
	case m.mode != modeEntry:
		m.mode = modeEntry
	case m.focus == paneDetail:
		m.focus = paneTimeline
	case m.focus == paneTimeline && m.tl.list.Query() != "" && m.ls != nil:
		m.tl.list.SetQuery("")
	case m.focus == panePicker && m.picker.list.Query() != "":
		m.picker.list.SetQuery("")
	case m.focus > panePicker:
		m.focus--
	}
}

// navigate handles movement and enter in the focused pane.
func (m *Model) navigate(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	switch m.focus {
	case panePicker:
		switch {
		case m.picker.list.HandleNav(msg, k.Nav):
		case key.Matches(msg, k.Scope):
			m.picker.all = !m.picker.all
			return m.reload()
		case key.Matches(msg, k.Open):
			if path := m.picker.currentPath(); path != "" {
				m.focus = paneTimeline
				if m.ls != nil && m.ls.file == path {
					return nil
				}
				m.selEntry = ""
				return m.openFile(path)
			}
		}
	case paneTree:
		if m.ls == nil {
			return nil
		}
		switch {
		case m.tree.list.HandleNav(msg, k.Nav):
		case key.Matches(msg, k.Fold):
			m.tree.fold(m.ls)
		case key.Matches(msg, k.Unfold):
			m.tree.unfold(m.ls)
		case key.Matches(msg, k.TreeFilter):
			m.tree.cycleFilter(m.ls)
		case key.Matches(msg, k.Open):
			cmd := m.selectEntry(m.tree.current())
			m.focus = paneTimeline
			return cmd
		}
	case paneTimeline:
		if m.ls == nil {
			return nil
		}
		if m.tl.list.HandleNav(msg, k.Nav) {
			m.detail.offset = 0
			m.tree.follow(m.ls, m.tl.current())
			return nil
		}
		if key.Matches(msg, k.Open) && m.tl.current() >= 0 {
			cmd := m.selectEntry(m.tl.current())
			m.focus = paneDetail
			return cmd
		}
	case paneDetail:
		if delta := m.detailDelta(msg); delta != 0 {
			m.scrollDetail(delta)
		}
	}
	return nil
}

// detailDelta is how far a navigation key scrolls the detail pane.
func (m *Model) detailDelta(msg tea.KeyPressMsg) int {
	k := &m.keys
	page := max(1, m.listHeight()-1)
	switch {
	case key.Matches(msg, k.Up):
		return -1
	case key.Matches(msg, k.Down):
		return 1
	case key.Matches(msg, k.PageUp):
		return -page
	case key.Matches(msg, k.PageDown):
		return page
	case key.Matches(msg, k.Top):
		return -1 << 30
	case key.Matches(msg, k.Bottom):
		return 1 << 30
	}
	return 0
}

func (m *Model) scrollDetail(delta int) {
	switch m.mode {
	case modeContext:
		m.context.offset = max(0, m.context.offset+delta)
	case modeStats:
		m.stats.offset = max(0, m.stats.offset+delta)
	default:
		m.detail.offset = max(0, m.detail.offset+delta)
	}
}

func (m *Model) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	delta := 3
	if msg.Button == tea.MouseWheelUp {
		delta = -3
	}
	switch m.focus {
	case panePicker:
		m.picker.list.Move(delta)
	case paneTree:
		m.tree.list.Move(delta)
	case paneTimeline:
		m.tl.list.Move(delta)
	default:
		m.scrollDetail(delta)
	}
	return nil
}

// filterKey edits the focused list's filter; every keystroke re-filters.
func (m *Model) filterKey(msg tea.KeyPressMsg) {
	if m.focus == panePicker {
		m.picker.list.FilterKey(msg, m.keys.Open, m.keys.Back)
		return
	}
	m.tl.list.FilterKey(msg, m.keys.Open, m.keys.Back)
}

// ensureRendered asks for the detail rendering of the current entry when
// it is not cached yet (the renderer runs in a command).
func (m *Model) ensureRendered() tea.Cmd {
	if m.ls == nil || m.mode != modeEntry {
		return nil
	}
	idx := m.currentEntry()
	if idx < 0 {
		return nil
	}
	key := m.detailKeyFor(idx)
	if key.width <= 0 {
		return nil
	}
	if _, ok := m.detail.cache[key]; ok || m.detail.pending[key] {
		return nil
	}
	m.detail.pending[key] = true
	return m.detailCmd(m.ls, idx, key)
}

func (m *Model) detailKeyFor(idx int) detailKey {
	_, inner := m.detailSize()
	return detailKey{
		gen: m.gen, idx: idx, width: inner,
		expanded: m.detail.expanded[idx], thinking: m.detail.thinking,
		palette: common.ThemeKey(&m.com.Styles),
	}
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

// reload discovers the sessions again and re-reads the open one.
func (m *Model) reload() tea.Cmd {
	m.gen++
	m.loading = "sessions"
	return discoverCmd(m.com.Workspace, m.gen, m.com.Selection, m.picker.all)
}
