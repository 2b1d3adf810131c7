package presets

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// conflictText explains a refused save; the draft stays.
const conflictText = "the file changed on disk since you opened it; your draft is kept — r reloads (discarding), f forks to a new id"

// reloadingText is the status while r re-reads the library; the new
// snapshot replaces it.
const reloadingText = "reloading…"

// untrustedText explains why project Presets are read-only.
const untrustedText = "this project is not trusted, so its Presets are read-only; fork to global (f) to keep your draft"

// applyLibrary installs a new snapshot. The open draft stays; its source
// entry is refreshed so the revision shown is current, but the revision
// the draft saves against is the one the user loaded.
func (m *Model) applyLibrary(msg libraryMsg) tea.Cmd {
	m.libErr = msg.err
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	m.lib = msg.lib
	m.cache.bump()
	if m.status == reloadingText {
		m.setStatus(fmt.Sprintf("reloaded from disk: %d presets, %d profiles", len(m.lib.Presets), len(m.lib.Profiles)), false)
	}
	m.listCursor = min(m.listCursor, max(0, len(m.lib.Presets)-1))
	m.profCursor = min(m.profCursor, max(0, len(m.lib.Profiles)-1))
	if m.open != nil {
		if p := m.findPreset(m.open.Scope, m.open.ID); p != nil {
			m.open = p
		}
		return nil
	}
	if len(m.lib.Presets) == 0 {
		return nil
	}
	m.listCursor = m.initialPreset()
	announce := m.wantOpen != ""
	m.wantOpen = ""
	cmd := m.openPreset(m.lib.Presets[m.listCursor], announce)
	m.autoOpened = !announce && m.com.Selection.PresetID == ""
	if m.focusNewDraft && m.d != nil {
		m.focus = paneItems
	}
	m.focusNewDraft = false
	return cmd
}

// initialPreset picks what opens first: the selection's Preset, the
// session's active one, the one a fresh Pi session would activate
// (auto-activating profile or preset), else the first in the list.
func (m *Model) initialPreset() int {
	fresh := ""
	if p, _ := m.lib.FreshSessionPreset(); p != nil {
		fresh = p.Key()
	}
	for _, want := range []string{m.wantOpen, m.com.Selection.PresetID, m.activeKey(), fresh} {
		for i, p := range m.lib.Presets {
			if want != "" && (p.Key() == want || p.ID == want) {
				return i
			}
		}
	}
	return 0
}

// findPreset looks a Preset up in the current snapshot.
func (m *Model) findPreset(scope preset.Scope, id string) *resources.Preset {
	if m.lib == nil {
		return nil
	}
	for _, p := range m.lib.Presets {
		if p.Scope == scope && p.ID == id {
			return p
		}
	}
	return nil
}

// openPreset starts a draft from a loaded Preset. announce emits the
// selection so the header and the other panels follow.
func (m *Model) openPreset(p *resources.Preset, announce bool) tea.Cmd {
	tree, parsed := treeOf(p)
	m.open, m.revision, m.conflict, m.autoOpened = p, p.SourceRevision, false, false
	m.unparsed = !parsed
	m.d = newDraft(tree, p.FileName(), p.Scope)
	m.itemCursor, m.itemOffset, m.previewOff = 0, 0, 0
	m.editing, m.taItem = false, -1
	m.closeForm()
	m.preview = nil
	m.cache.bump()
	m.syncEditor()
	cmds := []tea.Cmd{m.schedulePreview()}
	if announce {
		sel := m.com.Selection
		sel.PresetID = p.Key()
		cmds = append(cmds, func() tea.Msg { return common.SelectionChangedMsg{Selection: sel} })
	}
	return tea.Batch(cmds...)
}

// treeOf is the draft tree of a loaded Preset: the file's own JSON when it
// parses to an object (so unknown fields and the user's order survive),
// else the normalized fallback stack and parsed false.
func treeOf(p *resources.Preset) (*jsonv.Object, bool) {
	if p.Raw != nil {
		if v, err := jsonv.Parse(p.Raw); err == nil {
			if obj, ok := v.(*jsonv.Object); ok {
				return obj, true
			}
		}
	}
	return preset.ToJSON(p.Stack), false
}

// unparsedText explains why a draft over a file that is not a JSON object
// is not saved over it.
func (m *Model) unparsedText() string {
	return m.open.FileName() + " did not parse, so its draft is pi-forge's empty fallback and saving would " +
		"replace the file's text; fix the file and reload (" + m.keys.Reload.Help().Key + "), or fork (" +
		m.keys.Fork.Help().Key + ") to keep the draft under a new id"
}

// save writes the draft with the revision the user loaded.
func (m *Model) save() tea.Cmd {
	if m.d == nil || m.open == nil {
		return nil
	}
	if m.open.Legacy {
		m.setStatus("legacy .pi/prompt-stacks files are read-only; fork (f) to keep your draft", true)
		return nil
	}
	if m.unparsed {
		m.setStatus(m.unparsedText(), true)
		return nil
	}
	if name := m.open.FileName(); name != m.open.ID+".json" {
		m.setStatus(fmt.Sprintf("pi-forge saves a preset only as <id>.json and this one is %s; fork (f) to keep your draft as %s.json", name, m.open.ID), true)
		return nil
	}
	m.setStatus("saving "+m.open.Key()+"…", false)
	return saveCmd(m.com.Workspace, m.open.Scope, m.open.ID, m.d.stack, m.revision)
}

// applySaved reports a save; a conflict keeps the draft and explains.
func (m *Model) applySaved(msg savedMsg) tea.Cmd {
	switch {
	case msg.err == nil:
		m.revision, m.conflict = msg.res.SourceRevision, false
		if m.d != nil {
			m.d.markSaved()
		}
		m.cache.bump()
		m.setStatus("saved "+msg.key, false)
		if m.d != nil && m.d.diags.HasErrors() {
			m.setStatus(fmt.Sprintf("saved %s — it has %d error(s), so pi-forge will not use it until they are fixed",
				msg.key, m.d.diags.Count(preset.LevelError)), true)
		}
		return loadLibraryCmd(m.com.Workspace)
	case errors.Is(msg.err, resources.ErrConflict):
		m.conflict = true
		m.setStatus(conflictText, true)
	case errors.Is(msg.err, resources.ErrUntrusted):
		m.setStatus(untrustedText, true)
	default:
		m.setStatus(fmt.Sprintf("save %s: %v", msg.key, msg.err), true)
	}
	return nil
}

// applyCreated opens a forked or new Preset once the library shows it.
func (m *Model) applyCreated(msg createdMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(fmt.Sprintf("%s %s:%s: %v", msg.verb, msg.scope, msg.id, msg.err), true)
		return nil
	}
	m.setStatus(fmt.Sprintf("%s → %s:%s", msg.verb, msg.scope, msg.id), false)
	m.open, m.d = nil, nil
	m.closeForm()
	m.editing = false
	m.wantOpen = string(msg.scope) + ":" + msg.id
	m.focusNewDraft = true
	return loadLibraryCmd(m.com.Workspace)
}

// reload re-reads the library and reopens the Preset from disk,
// discarding the draft.
func (m *Model) reload() tea.Cmd {
	if m.open != nil {
		m.wantOpen = m.open.Key()
	}
	m.open, m.d, m.conflict = nil, nil, false
	m.closeForm()
	m.editing = false
	m.setStatus(reloadingText, false)
	return tea.Batch(loadLibraryCmd(m.com.Workspace),
		loadContextCmd(m.com.Workspace, m.com.Selection.SessionFile, m.com.Selection.EntryID))
}
