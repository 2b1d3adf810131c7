package sessions

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// panelKey handles the keys that act whatever pane has the focus (some
// only in some panes, or with a session open); ok is false for a key it
// leaves to the focused pane (paneKey).
func (m *Model) panelKey(msg tea.KeyPressMsg) (cmd tea.Cmd, ok bool) {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Back):
		m.back()
		return nil, true
	case key.Matches(msg, k.Filter):
		switch m.focus {
		case panePicker:
			m.picker.list.StartFilter()
		default:
			if m.ls != nil {
				m.startSearch()
			}
		}
		return nil, true
	case key.Matches(msg, k.MatchesOnly) && m.ls != nil && m.search.Active():
		m.toggleMatchesOnly()
		return nil, true
	case key.Matches(msg, k.Reload):
		return m.reload(), true
	case key.Matches(msg, k.Follow):
		return m.followKey(), true
	case key.Matches(msg, m.com.Keys.Copy) && m.mode == modeContext && m.ls != nil:
		// y in the Context view copies what it shows, as Y does (copy.go).
		return m.copyContext(m.currentEntry(), m.focus), true
	case key.Matches(msg, m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager):
		cmd, _ := m.focusKey(msg)
		return cmd, true
	case key.Matches(msg, k.Stats) && m.focus == panePicker:
		return m.openSpend(), true
	case m.ls == nil:
		return nil, false
	case key.Matches(msg, k.ContinueInPi) && m.focus != panePicker:
		return m.startFork(), true
	case key.Matches(msg, k.GotoEntry):
		m.openGoto()
		return nil, true
	case key.Matches(msg, k.ToLeaf):
		m.focus = paneTimeline
		return m.toLeaf(), true
	case key.Matches(msg, k.Skipped):
		m.openSkipped()
		return nil, true
	case key.Matches(msg, k.Open) && m.mode == modeCompare && m.focus == paneDetail:
		return m.compareRequests(), true
	case key.Matches(msg, k.Mark) && m.focus != panePicker:
		return m.toggleMark(), true
	case key.Matches(msg, k.Compare) && m.focus != panePicker:
		return m.openCompare(), true
	case key.Matches(msg, k.Composition) && m.focus != panePicker:
		return m.openComposition(), true
	case key.Matches(msg, k.Context):
		return m.openContext(), true
	case key.Matches(msg, k.Stats):
		return m.openStats(), true
	case key.Matches(msg, k.Thinking):
		m.detail.thinking = !m.detail.thinking
		return nil, true
	case key.Matches(msg, k.PiContext) && m.mode == modeContext:
		return m.togglePiContext(), true
	case key.Matches(msg, k.CopyContext):
		return m.copyContext(m.currentEntry(), m.focus), true
	case key.Matches(msg, k.Expand) && m.mode == modeContext:
		m.context.full = !m.context.full
		return nil, true
	case key.Matches(msg, k.Expand):
		if idx := m.currentEntry(); idx >= 0 {
			m.detail.expanded[idx] = !m.detail.expanded[idx]
		}
		return nil, true
	case m.focus == m.searchPane && m.search.Active() && key.Matches(msg, m.com.Keys.Search.Next, m.com.Keys.Search.Prev):
		return m.searchStep(key.Matches(msg, m.com.Keys.Search.Next)), true
	}
	return nil, false
}

// back is esc: leave context/stats, then step focus back towards the
// picker (detail → timeline → tree → picker), clearing a filter or a
// search first.
func (m *Model) back() {
	m.fork.asked = 0 // a fork being planned is not shown
	switch {
	case m.mode == modeSpend:
		m.mode, m.focus = modeEntry, panePicker
	case m.mode != modeEntry:
		m.mode = modeEntry
	case m.focus == paneDetail:
		m.focus = paneTimeline
	case m.focus == paneTimeline && m.tl.list.Query() != "" && m.ls != nil:
		m.tl.list.SetQuery("")
	case m.focus == m.searchPane && m.search.Active():
		m.clearSearch()
	case m.focus == panePicker && m.picker.list.Query() != "":
		m.picker.list.SetQuery("")
	case m.focus > panePicker:
		m.focus--
	}
}

// nav is the picker's own keys: moving, the scope, opening a session.
func (p pickerPart) nav(msg tea.KeyPressMsg) tea.Cmd {
	m, k := p.m, &p.m.keys
	switch {
	case m.picker.list.HandleNav(msg, k.Nav):
	case key.Matches(msg, k.Scope):
		m.picker.all = !m.picker.all
		return m.reload()
	case key.Matches(msg, k.Open):
		return m.openPicked()
	}
	return nil
}

// nav is the tree's own keys: moving (the selection goes along), folds,
// the tree's filter, enter on to the timeline.
func (p treePart) nav(msg tea.KeyPressMsg) tea.Cmd {
	m, k := p.m, &p.m.keys
	if m.ls == nil {
		return nil
	}
	switch {
	case m.tree.list.HandleNav(msg, k.Nav):
		return m.treeMoved()
	case key.Matches(msg, k.Fold):
		m.tree.fold(m.ls)
		return m.treeMoved()
	case key.Matches(msg, k.Unfold):
		m.tree.unfold(m.ls)
		return m.treeMoved()
	case key.Matches(msg, k.TreeFilter):
		m.tree.cycleFilter(m.ls)
		m.treeOrder = nil
		m.refreshSearch()
		return m.treeMoved()
	case key.Matches(msg, k.Open):
		m.selectEntry(m.tree.current())
		m.focus = paneTimeline
		return nil
	}
	return nil
}

// nav is the timeline's own keys: moving (the selection goes along),
// enter on to the detail.
func (p timelinePart) nav(msg tea.KeyPressMsg) tea.Cmd {
	m, k := p.m, &p.m.keys
	if m.ls == nil {
		return nil
	}
	if m.tl.list.HandleNav(msg, k.Nav) {
		return m.timelineMoved()
	}
	if key.Matches(msg, k.Open) && m.tl.current() >= 0 {
		m.selectEntry(m.tl.current())
		m.focus = paneDetail
	}
	return nil
}

// nav is the detail's own keys: the navigation keys scroll its view.
func (p detailPart) nav(msg tea.KeyPressMsg) tea.Cmd {
	if delta := p.m.detailDelta(msg); delta != 0 {
		p.m.scrollDetail(delta)
	}
	return nil
}

// openPicked opens the session under the picker's cursor and moves on to
// its timeline.
func (m *Model) openPicked() tea.Cmd {
	path := m.picker.currentPath()
	if path == "" {
		return nil
	}
	m.focus = paneTimeline
	if m.ls != nil && m.ls.file == path {
		return nil
	}
	m.selEntry, m.atLeaf = "", true
	return m.openFile(path)
}

// timelineMoved follows a timeline cursor move: the tree cursor and the
// selection go with it.
func (m *Model) timelineMoved() tea.Cmd {
	idx := m.tl.current()
	m.tree.follow(m.ls, idx)
	m.announce(idx)
	return nil
}

// treeMoved follows a tree cursor move: the timeline shows a branch
// through the entry and the selection goes there.
func (m *Model) treeMoved() tea.Cmd {
	idx := m.tree.current()
	if idx < 0 {
		return nil
	}
	m.showBranchOf(idx)
	m.tl.moveToEntry(idx)
	m.announce(idx)
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

// scrollDetail scrolls the detail's view by delta lines (layDetail keeps
// it within the view's lines).
func (m *Model) scrollDetail(delta int) {
	off := m.detailPane.offset(m.mode)
	*off = max(0, *off+delta)
}

// filterKey edits the focused list's filter; every keystroke re-filters.
// In the picker, enter applies the filter and opens the session under
// the cursor in one press.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.focus == panePicker {
		if m.picker.list.FilterInput(msg, m.com.Keys) == common.SearchAccepted {
			return m.openPicked()
		}
		return nil
	}
	before := m.tl.current()
	m.tl.list.FilterInput(msg, m.com.Keys)
	if m.ls != nil && m.tl.current() != before && m.tl.current() >= 0 {
		return m.timelineMoved()
	}
	return nil
}

// ensureRendered asks for the detail rendering of the current entry when
// it is not cached yet. The renderer runs in a command once the cursor
// rests there (common.RenderDelay): keys arriving in a burst render only
// the entry where it ends; meanwhile the pane keeps the last rendering.
func (m *Model) ensureRendered() tea.Cmd {
	key, ok := m.wantedDetail()
	if !ok {
		return nil
	}
	if _, cached := m.detail.cache[key]; cached {
		m.detail.shown = key
		m.detail.render.Cancel()
		return nil
	}
	if m.detail.pending[key] || (m.detail.render.Waiting() && m.detail.want == key) {
		return nil
	}
	m.detail.want = key
	return m.detail.render.Ask(m.com, common.RenderDelay)
}

// renderDue starts the detail rendering the cursor rested on.
func (m *Model) renderDue(msg common.DueMsg) tea.Cmd {
	due, again := m.detail.render.Due(msg)
	if !due {
		return again
	}
	key, ok := m.wantedDetail()
	if !ok || key != m.detail.want || m.detail.pending[key] {
		return nil
	}
	if _, cached := m.detail.cache[key]; cached {
		return nil
	}
	m.detail.pending[key] = true
	return m.detailCmd(m.ls, key.idx, key)
}

// wantedDetail is the rendering the detail pane should show now.
func (m *Model) wantedDetail() (detailKey, bool) {
	if m.ls == nil || m.mode != modeEntry {
		return detailKey{}, false
	}
	idx := m.currentEntry()
	if idx < 0 {
		return detailKey{}, false
	}
	key := m.detailKeyFor(idx)
	return key, key.width > 0
}

func (m *Model) detailKeyFor(idx int) detailKey {
	_, inner := m.detailSize()
	return detailKey{
		gen: m.gen, idx: idx, width: inner,
		expanded: m.detail.expanded[idx], thinking: m.detail.thinking,
		palette: common.ThemeKey(&m.com.Styles),
	}
}

// reload discovers the sessions again and re-reads the open one; the
// requests rebuilt so far are rebuilt again (the library may have
// changed: a Preset's text is read from it).
func (m *Model) reload() tea.Cmd {
	m.sent.forget()
	m.com.Services().Invalidate() // the rebuilds read the library again
	if m.TruncatedFile() != "" {
		// The open session's file was cut: read it again (its leaf and
		// the lines after the cut are gone).
		return m.reloadCmd()
	}
	m.gen++
	m.loading = "sessions"
	return discoverCmd(m.com.Services(), m.gen, m.com.Selection, m.picker.all)
}

// TruncatedFile names the open session's file when it was found shorter
// than what was read ("" otherwise): its entries past the cut read as
// zeros until the file is read again (reload). The header asks it; it
// does no IO.
func (m *Model) TruncatedFile() string {
	if m.ls == nil || !m.ls.sess.Truncated() {
		return ""
	}
	return m.ls.file
}
