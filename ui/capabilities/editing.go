package capabilities

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// openEditor edits the selected capability.
func (m *Model) openEditor() tea.Cmd {
	c := m.selectedCapability()
	if c == nil {
		return nil
	}
	if c.Fault || c.Raw == nil {
		m.setStatus(i18n.T("%s cannot be read; fix the file first", c.Key()), true)
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
	m.openDialog(&confirmDialog{com: m.com, keys: &m.keys, title: i18n.T("Discard the draft?"),
		body:  i18n.T("Closing the editor discards your changes to %s; its file stays as it is on disk.", string(e.scope)+":"+e.id),
		onYes: func(m *Model) tea.Cmd { m.edit = nil; return m.requestDetail() }})
	return nil
}

// save writes the draft: an exclusive create for a new capability, a
// revision-guarded save otherwise. A refused save keeps the draft.
func (m *Model) save() tea.Cmd {
	e := m.edit
	c := e.draft()
	if d := capability.Validate(c); d.HasErrors() {
		e.conflict = i18n.T("not saved: %s", d.FirstError())
		return nil
	}
	ws := m.com.Workspace
	key := string(e.scope) + ":" + e.id
	create, scope, id, rev := e.create, e.scope, e.id, e.revision
	m.setStatus(i18n.T("saving %s…", key), false)
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
			explain = i18n.T("not saved: the file changed on disk since you opened it (%s). Your draft is kept; esc and r reload the file (discarding the draft).", explain)
		}
		m.edit.conflict = explain
		return nil
	}
	m.setStatus(i18n.T("saved %s (revision %.12s…); saving never activates it", msg.key, msg.res.SourceRevision), false)
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
	m.openDialog(&confirmDialog{com: m.com, keys: &m.keys, title: i18n.T("Delete %s?", key),
		body: i18n.T("Deletes its file from disk; there is no undo:\n%s\nSessions where it is active keep their frozen copy of its text.", shortPath(m.com.Workspace, c)),
		onYes: func(m *Model) tea.Cmd {
			return func() tea.Msg {
				_, err := resources.DeleteCapability(ws, scope, id, rev)
				return deletedMsg{key: key, err: err}
			}
		}})
	return nil
}
