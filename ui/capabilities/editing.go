package capabilities

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
)

// openEditor edits the selected capability.
func (m *Model) openEditor() tea.Cmd {
	c := m.selectedCapability()
	if c == nil {
		return nil
	}
	if c.Fault || c.Raw == nil {
		m.setStatus(c.Key()+" cannot be read; fix the file first", true)
		return nil
	}
	m.edit = newEditor(m.com, &m.keys, c.Scope, c.ID, c.Capability, c.SourceRevision, m.view.declared)
	m.focus = paneDetail
	return nil
}

// closeEditor closes the editor, asking first when its draft has
// changes (dirty).
func (m *Model) closeEditor(dirty bool) tea.Cmd {
	if !dirty {
		m.edit = nil
		return m.requestDetail()
	}
	e := m.edit
	m.openDialog(&confirmDialog{com: m.com, keys: &m.keys, title: "Discard the draft?",
		body:  "Closing the editor discards your changes to " + string(e.scope) + ":" + e.id + "; its file stays as it is on disk.",
		onYes: func(m *Model) tea.Cmd { m.edit = nil; return m.requestDetail() }})
	return nil
}

// save writes the draft: an exclusive create for a new capability, a
// revision-guarded save otherwise. A refused save keeps the draft.
func (m *Model) save() tea.Cmd {
	e := m.edit
	c := e.draft()
	if d := capability.Validate(c); d.HasErrors() {
		e.conflict = "not saved: " + d.FirstError()
		return nil
	}
	ws := m.com.Workspace
	key := string(e.scope) + ":" + e.id
	create, scope, id, rev := e.create, e.scope, e.id, e.revision
	m.setStatus("saving "+key+"…", false)
	return func() tea.Msg {
		var res resources.WriteResult
		var err error
		if create {
			res, err = resources.CreateCapability(ws, scope, c)
		} else {
			res, err = resources.SaveCapability(ws, scope, id, c, rev)
		}
		return savedMsg{key: key, res: res, err: err}
	}
}

func (m *Model) onSaved(msg savedMsg) tea.Cmd {
	if m.edit == nil {
		return nil
	}
	if msg.err != nil {
		explain := sanitize.Fold(msg.err.Error())
		if errors.Is(msg.err, resources.ErrConflict) {
			explain = "not saved: the file changed on disk since you opened it (" + explain + "). Your draft is kept; esc and r reload the file (discarding the draft)."
		}
		m.edit.conflict = explain
		return nil
	}
	m.setStatus(fmt.Sprintf("saved %s (revision %.12s…); saving never activates it", msg.key, msg.res.SourceRevision), false)
	m.edit = nil
	return m.reloadLibrary()
}

// confirmDelete asks before deleting the selected capability.
func (m *Model) confirmDelete() tea.Cmd {
	c := m.selectedCapability()
	if c == nil {
		return nil
	}
	ws, scope, id, rev, key := m.com.Workspace, c.Scope, c.ID, c.SourceRevision, c.Key()
	m.openDialog(&confirmDialog{com: m.com, keys: &m.keys, title: "Delete " + key + "?",
		body: "Deletes its file from disk; there is no undo:\n" + shortPath(m.com.Workspace, c) + "\nSessions where it is active keep their frozen copy of its text.",
		onYes: func(m *Model) tea.Cmd {
			return func() tea.Msg {
				_, err := resources.DeleteCapability(ws, scope, id, rev)
				return deletedMsg{key: key, err: err}
			}
		}})
	return nil
}
