package presets

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/catalog"
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
	ws, file, key := m.com.Workspace, m.rc.file, m.open.Key()
	draft := &capability.PresetRef{Key: capability.Key{Scope: m.open.Scope, ID: m.open.ID}, Stack: m.d.Stack()}
	return func() tea.Msg {
		if problem := savePreflight(ws, file, draft); problem != "" {
			return savedMsg{key: key, err: fmt.Errorf("not saved: it would break the capabilities active in %s: %s — disable the conflicting capability and retry",
				filepath.Base(file), problem)}
		}
		return save()
	}
}

// savePreflight checks draft against the frozen snapshots at the leaf of
// the session file ("" when nothing conflicts or nothing can be checked).
func savePreflight(ws resources.Workspace, file string, draft *capability.PresetRef) string {
	s, err := session.Open(file)
	if err != nil {
		return ""
	}
	lib, err := resources.LoadLibrary(ws)
	if err != nil {
		return ""
	}
	cat, _ := catalog.Shared(ws.AgentDir)
	st, err := capstate.At(s, s.LeafIndex(), capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat}, capstate.DefaultOptions(nil))
	if err != nil {
		return ""
	}
	return capstate.SavePreflight(st, draft)
}
