package presets

import (
	"errors"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/i18n"
)

// preflightSave runs pi-forge's save preflight (0.5.6) before save: when
// the Preset being saved is the one in force at the leaf of the selected
// session, the frozen capability snapshots there must satisfy the new
// version's tool policy; a conflict is reported as the save's failure,
// naming what it would break, and nothing is written.
func (m *Model) preflightSave(save tea.Cmd) tea.Cmd {
	if m.rc == nil || m.rc.file == "" || m.d == nil || m.open == nil {
		return save
	}
	svc, file, key := m.com.Services(), m.rc.file, m.open.Key()
	draft := &capability.PresetRef{Key: capability.Key{Scope: m.open.Scope, ID: m.open.ID}, Stack: m.d.Stack()}
	return func() tea.Msg {
		if problem := svc.PreflightFile(file, draft); problem != "" {
			return savedMsg{key: key, err: errors.New(i18n.T("not saved: it would break the capabilities active in %s: %s — disable the conflicting capability and retry",
				filepath.Base(file), problem))}
		}
		return save()
	}
}
