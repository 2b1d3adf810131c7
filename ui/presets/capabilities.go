package presets

import (
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
)

// withCapabilities adds pi-forge's capability delivery to the run context
// of a session entry: the context's messages get a marker where each
// stored anchor sits, and the capability state is kept so the preview can
// put each update where the request carries it (native section or
// fallback user update, as the model in force dictates). It is
// capstate.ForPreview, which the CLI's preset preview uses too. A session
// whose capability history cannot be read previews without it. It reads
// the library, so it runs inside the context command.
func (rc *runContext) withCapabilities(svc *services.Services, s *session.Session, index int) {
	if s == nil || index < 0 {
		return
	}
	in, err := svc.CapabilityInputs()
	if err != nil {
		return
	}
	d, err := capstate.ForPreview(s, index, in)
	if err != nil {
		return
	}
	rc.messages, rc.caps, rc.capsTrusted = d.Messages, d.State, d.Trusted
}

// projectCapabilities replaces the delivery markers among the preview's
// message parts with the capability updates (pi-forge projects them after
// compiling, §4.5 step 5).
func (rc *runContext) projectCapabilities(res compile.PreviewResult) compile.PreviewResult {
	if rc.caps == nil {
		return res
	}
	out, err := capstate.ProjectPreview(res, rc.caps, rc.capsTrusted)
	if err != nil {
		return res
	}
	return out
}

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
			return savedMsg{key: key, err: fmt.Errorf("not saved: it would break the capabilities active in %s: %s — disable the conflicting capability and retry",
				filepath.Base(file), problem)}
		}
		return save()
	}
}
