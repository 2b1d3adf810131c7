package sessions

import tea "charm.land/bubbletea/v2"

// A fresh load draws its timeline first: flattening the branch tree of a
// big session (180,000 rows for 100 MB of small entries) costs as much as
// everything else the first frame needs, so the loading command leaves it
// out and treeCmd builds it right after the loaded session is installed.
// Until it arrives the tree pane says it is being built.

// treeBuiltMsg carries the tree view of a fresh load at the leaf.
type treeBuiltMsg struct {
	ls *loadedSession
	tv *treeView
}

// treeCmd builds the tree view of a fresh load at the leaf (no folds, the
// default filter, the leaf's branch marked, the cursor on the leaf). It
// reads only what never changes once ls is built; the summaries, which
// Update stores meanwhile, are filled in when the view is installed.
func treeCmd(ls *loadedSession) tea.Cmd {
	return func() tea.Msg {
		tv := newTreeView()
		tv.branchLeaf = ls.leaf
		tv.flatten(ls)
		tv.syncItems(ls, false)
		if v := tv.nearestVisible(ls, ls.leaf); v >= 0 {
			tv.list.SetCursor(tv.rowOf[v])
		}
		return treeBuiltMsg{ls: ls, tv: &tv}
	}
}

// applyTreeBuilt installs a tree built by treeCmd, unless another load
// replaced the session or the user rebuilt the tree meanwhile (a filter
// change). What changed while it was built carries over: summaries
// decoded since, search marks, the timeline's branch and the selection.
func (m *Model) applyTreeBuilt(msg treeBuiltMsg) {
	if m.ls != msg.ls || !m.tree.pending {
		return
	}
	ls, tv := m.ls, msg.tv
	tv.hits = m.tree.hits
	if m.tree.branchLeaf != tv.branchLeaf || tv.hits != nil {
		tv.branchLeaf = m.tree.branchLeaf
		tv.sync(ls)
	} else {
		// The list has never drawn these items: filling in their text
		// in place costs a pass over them, not a second copy.
		items := tv.list.Items()
		for r := range items {
			if c := &ls.sums[items[r].idx]; c.ready {
				items[r].text = c.text
			}
		}
		tv.list.SetItems(items)
	}
	if idx := m.tl.current(); idx >= 0 && idx != ls.leaf {
		tv.follow(ls, idx)
	}
	m.tree = *tv
}
