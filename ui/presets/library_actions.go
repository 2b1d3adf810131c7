package presets

import (
	"errors"
	"fmt"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// The Preset list's own actions: filter, delete (revision-guarded, after a
// confirmation), new in a chosen scope, and import of a native JSON file.

// deletedMsg reports a deleted Preset or profile.
type deletedMsg struct {
	key, path string
	err       error
}

// confirmDeletePreset asks before deleting p; the delete carries the
// revision the list shows, so a file changed since is not deleted.
func (m *Model) confirmDeletePreset(p *resources.Preset) tea.Cmd {
	body := i18n.T("Deletes %s from disk; there is no undo.", p.FileName())
	if m.open == p && m.d != nil && m.d.Dirty() {
		body += i18n.T(" The unsaved changes of its open draft go with it.")
	}
	if m.active == p {
		body += i18n.T(" It is the session's active Preset: from then on pi-forge no longer replaces the prompt there.")
	}
	ws, res := m.com.Workspace, p.Resource
	m.openDialog(newConfirm(m, i18n.T("Delete %s?", p.Key()), body, func(m *Model, _ string) tea.Cmd {
		m.setStatus(i18n.T("deleting %s…", p.Key()), false)
		return func() tea.Msg {
			path, err := resources.DeleteLoaded(ws, resources.KindPreset, &res, res.SourceRevision)
			return deletedMsg{key: res.Key(), path: path, err: err}
		}
	}))
	return nil
}

// applyDeleted reports a delete and reloads the library; the draft of the
// deleted Preset goes with it.
func (m *Model) applyDeleted(msg deletedMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, resources.ErrConflict):
		m.setStatus(i18n.T("%s changed on disk since it was listed, so it was not deleted; r reloads the list", msg.key), true)
		return nil
	case msg.err != nil:
		m.setStatus(i18n.T("delete %s: %v", msg.key, msg.err), true)
		return nil
	}
	m.setStatus(i18n.T("deleted %s (%s)", msg.key, filepath.Base(msg.path)), false)
	if m.open != nil && m.open.Key() == msg.key {
		m.closeDraft()
	}
	if m.com.Selection.PresetID == msg.key {
		// the header and the other panels stop naming a Preset that is gone
		m.com.Selection.PresetID = ""
	}
	return loadLibraryCmd(m.com.Services())
}

// defaultScope is where a new Preset goes unless the user switches:
// the project when it is trusted, else the global scope.
func (m *Model) defaultScope() preset.Scope {
	if m.com.Workspace.Trust.Trusted {
		return preset.ScopeProject
	}
	return preset.ScopeGlobal
}

// scopeBody is a create prompt's text with the scope it writes to.
func scopeBody(com *common.Common, keys *keymap.Presets, text string, scope preset.Scope) string {
	hint := i18n.T("%s switches to global", keys.Scope.Help().Key)
	switch {
	case scope == preset.ScopeGlobal && com.Workspace.Trust.Trusted:
		hint = i18n.T("%s switches to project", keys.Scope.Help().Key)
	case !com.Workspace.Trust.Trusted:
		hint = i18n.T("the project is not trusted, so only global")
	}
	return text + "\n" + i18n.T("Scope: %s (%s)", string(scope), hint)
}

// switchScope flips the scope of a create prompt.
func (d *dialog) switchScope() {
	if d.scope == "" || !d.com.Workspace.Trust.Trusted {
		return
	}
	if d.scope == preset.ScopeProject {
		d.scope = preset.ScopeGlobal
	} else {
		d.scope = preset.ScopeProject
	}
	d.body = scopeBody(d.com, d.keys, d.text, d.scope)
}

// promptImport asks for a native pi-forge Preset JSON file and the id to
// create it under (the file's own id unless changed).
func (m *Model) promptImport() tea.Cmd {
	m.stopEditing()
	scope := m.defaultScope()
	text := i18n.T("Path of a pi-forge Preset JSON file: enter reads it (its keys are kept) and asks for the id to create it under.")
	d := newPrompt(m, i18n.T("Import a preset"), scopeBody(m.com, &m.keys, text, scope), "", nil)
	d.onYes = func(m *Model, path string) tea.Cmd { return m.readImport(path, d.scope) }
	d.text, d.scope, d.freeText = text, scope, true
	d.input.Prompt = i18n.T("file: ")
	m.openDialog(d)
	return d.input.Focus()
}

// importReadMsg carries a file read for an import.
type importReadMsg struct {
	path  string
	scope preset.Scope
	tree  *jsonv.Object
	err   error
}

// readImport reads and parses the file in a command.
func (m *Model) readImport(path string, scope preset.Scope) tea.Cmd {
	return func() tea.Msg {
		raw, err := resources.ReadImportFile(path)
		if err != nil {
			return importReadMsg{path: path, scope: scope, err: err}
		}
		v, err := jsonv.Parse(raw)
		if err != nil {
			return importReadMsg{path: path, scope: scope, err: fmt.Errorf("Failed to parse JSON: %w", err)} //i18n:raw pi-forge's own message
		}
		obj, ok := v.(*jsonv.Object)
		if !ok {
			return importReadMsg{path: path, scope: scope, err: errors.New("Preset root must be a JSON object.")} //i18n:raw pi-forge's own message
		}
		return importReadMsg{path: path, scope: scope, tree: obj}
	}
}

// applyImportRead asks for the new id of a parsed import.
func (m *Model) applyImportRead(msg importReadMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(i18n.T("import %s: %v", msg.path, msg.err), true)
		return nil
	}
	suggest := "imported"
	if id, ok := msg.tree.Get("id"); ok {
		if s, isString := id.(string); isString && preset.IsValidResourceID(jsonv.TrimJS(s)) {
			suggest = jsonv.TrimJS(s)
		}
	}
	tree, scope := msg.tree, msg.scope
	d := newPrompt(m, i18n.T("Import as"), i18n.T("enter creates %s:<id> from %s; an id already taken is refused, nothing is overwritten.", string(scope), filepath.Base(msg.path)), suggest,
		func(m *Model, id string) tea.Cmd { return m.create(tree, id, scope, "import") })
	m.openDialog(d)
	return d.input.Focus()
}
