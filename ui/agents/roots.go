package agents

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// Where the selected session has no pi-subagent tree (or none is
// selected), the panel says which sessions have one: the Session panel's
// picker knows (common.AgentTreesMsg), and enter on one opens it there —
// a jump, so the selection moves and this panel shows its tree.

// rootsState is the list of sessions with a tree.
type rootsState struct {
	refs []common.SessionRef
	list *common.List[common.SessionRef]
}

func newRoots() rootsState {
	return rootsState{list: common.NewList(renderRoot)}
}

// renderRoot draws a session with a tree: its name and when it was last
// active (in the language of the frame: the list's cache keys on it).
func renderRoot(r common.SessionRef, s common.RowState) string {
	text := sanitize.Fold(r.Name)
	if when := r.When.Label(); when != "" {
		text += "  · " + when
	}
	return common.RenderTextRow(common.TextRow{Text: text}, s)
}

// setRoots replaces the sessions with a tree, keeping the cursor's place.
func (m *Model) setRoots(refs []common.SessionRef) {
	m.roots.refs = refs
	m.roots.list.SetItems(refs)
}

// showsRoots is true while the panel offers the sessions with a tree: no
// tree is shown and some session has one.
func (m *Model) showsRoots() bool {
	return m.live.tree == nil && !m.live.loading && m.screen != screenTranscript && len(m.roots.refs) > 0
}

// rootsKey moves in the list of sessions with a tree; enter opens one.
func (m *Model) rootsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	switch {
	case m.roots.list.HandleNav(msg, k.Nav):
	case key.Matches(msg, k.Open):
		i := m.roots.list.Cursor()
		if i < 0 || i >= len(m.roots.refs) {
			return nil
		}
		r := m.roots.refs[i]
		return m.com.Jump(common.JumpTarget{Panel: common.PanelAgents, SessionFile: r.File, SessionName: r.Name})
	}
	return nil
}

// rootsLines is what the empty panel says below why it is empty: the
// sessions with a tree to pick from, or how a tree comes to be.
func (m *Model) rootsLines(w, h int) []string {
	st := &m.com.Styles
	if len(m.roots.refs) == 0 {
		return wrap(st.Pane.Placeholder.Render(i18n.T("No listed session has a pi-subagent tree yet: one appears when Pi delegates work with pi-subagent, and this panel shows it without %s.", m.keys.Reload.Help().Key)), w)
	}
	head := wrap(st.Text.Muted.Render(i18n.T("Sessions with a pi-subagent tree (the Session panel marks them \"agents\") — %s shows one here:",
		m.keys.Open.Help().Key)), w)
	return append(head, m.roots.list.View(st, w, max(1, h-len(head)), true)...)
}
