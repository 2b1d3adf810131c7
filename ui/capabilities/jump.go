package capabilities

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// jumpState is a capability another panel pointed at (the Payloads
// panel's jump to a cause: common.JumpTarget.CapabilityID) and still to be
// shown: the library row (once the library is loaded) and the session
// card (once the state at the followed entry is computed). A jump
// arrives once, so nothing else is remembered.
type jumpState struct {
	library, card string
}

// onJump shows a capability a jump points at as far as the loaded data
// allows; the rest is shown when it arrives.
func (m *Model) onJump(msg common.JumpMsg) tea.Cmd {
	id := msg.Target.CapabilityID
	if id == "" {
		return nil
	}
	m.jump.library, m.jump.card = id, id
	return m.showJump()
}

// showJump moves the library cursor to the capability jumped to (clearing
// a filter that hides it) and the session cursor to the card it is active
// as; either waits until its data is loaded.
func (m *Model) showJump() tea.Cmd {
	var cmd tea.Cmd
	if want := m.jump.library; want != "" && m.lib != nil {
		m.jump.library = ""
		match := func(r libRow) bool { return r.key == want }
		found := m.list.Select(match)
		if !found && m.list.Query() != "" {
			m.list.SetQuery("")
			found = m.list.Select(match)
		}
		if found {
			m.focus, m.mode, m.detail.offset = paneLibrary, modeCapability, 0
			m.view.focused = false
			m.setStatus(i18n.T("jumped to %s", sanitize.Fold(want)), false)
			cmd = m.requestDetail()
		} else {
			m.setStatus(i18n.T("%s is not in the library (deleted, or its scope is not loaded); an active snapshot keeps its frozen text", sanitize.Fold(want)), true)
		}
	}
	if want := m.jump.card; want != "" && m.view.state != nil && !m.view.loading {
		m.jump.card = ""
		for i, a := range m.view.state.Active() {
			if a.Snapshot.Source.Kind == capability.SourceCapability && a.Snapshot.Source.Key.String() == want {
				m.view.cursor = i
				break
			}
		}
	}
	return cmd
}
