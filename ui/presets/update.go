package presets

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// panelKey handles the keys that act whatever pane has focus; ok is false
// for any other key.
func (m *Model) panelKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Profiles):
		return m.toggleProfiles(), true
	case key.Matches(msg, k.Reload) && m.showProfile:
		return m.reloadProfiles(), true
	case key.Matches(msg, k.Reload):
		return m.confirmDiscard(i18n.T("Reload from disk?"), m.reload), true
	case key.Matches(msg, k.Preview):
		return m.togglePreview(), true
	case key.Matches(msg, k.Import):
		return m.promptImport(), true
	case key.Matches(msg, k.DraftDiff):
		return m.openDraftDiff(), true
	case key.Matches(msg, k.Diagnostics):
		return m.showWorkspaceDiagnostics(), true
	case key.Matches(msg, k.Macro):
		return m.promptPreviewValue(), true
	case key.Matches(msg, m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager):
		return m.focusKey(msg)
	case m.showProfile || m.d == nil:
		return nil, false
	case key.Matches(msg, k.Undo):
		return m.undo(), true
	case key.Matches(msg, k.Redo):
		return m.redo(), true
	case key.Matches(msg, k.Fork):
		return m.promptFork(), true
	case key.Matches(msg, k.Export):
		return m.promptExport(), true
	}
	return nil, false
}

// toggleProfiles swaps the profiles view in or out; showing it reads the
// profile status of the selected entry.
func (m *Model) toggleProfiles() tea.Cmd {
	m.stopEditing()
	m.showProfile = !m.showProfile
	m.focus = paneList
	if m.showProfile {
		m.syncProfileForm()
		return loadProfileStatusCmd(m.lib, m.com.Selection.SessionFile, m.com.Selection.EntryID)
	}
	return nil
}

// togglePreview shows (and focuses) or hides the preview dock.
func (m *Model) togglePreview() tea.Cmd {
	m.showPreview = !m.showPreview
	if m.showPreview {
		m.focus = panePreview
	} else if m.focus == panePreview {
		m.focus = paneItems
	}
	return m.schedulePreview()
}

// afterItemMove shows the editor or form of the row under the cursor.
func (m *Model) afterItemMove() {
	m.syncEditor()
	switch {
	case m.formKind == formItem && m.formRow == m.items.Cursor():
		// the item's properties stay open while it is edited
	case m.formKindAt(m.items.Cursor()) != "":
		m.openForm(false)
	default:
		m.closeForm()
	}
}

// confirmDeleteItem asks before deleting item cur from the draft.
func (m *Model) confirmDeleteItem(cur int) {
	it, _, _ := m.d.Item(cur)
	m.openDialog(newConfirm(m, i18n.T("Delete item?"), i18n.T("Removes %s from the draft; the file changes only when you save (%s undoes it).", itemLabel(it), m.keys.Undo.Help().Key),
		func(m *Model, _ string) tea.Cmd { return m.edited(m.items.Cursor(), m.d.DeleteItem(cur)) }))
}

// edited finishes an edit of the draft: the status says what went wrong,
// the rows, the cursor (on row cur), the editor, the form and the preview
// follow the new draft, and a block's typed text gets checked.
func (m *Model) edited(cur int, err error) tea.Cmd {
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	m.refreshItems()
	m.items.SetCursor(cur)
	m.taItem = -1
	m.afterItemMove()
	m.refreshForm()
	return tea.Batch(m.schedulePreview(), m.check())
}

// check validates a draft whose typed text is not checked yet.
func (m *Model) check() tea.Cmd {
	if m.d == nil || m.d.Checked() {
		return nil
	}
	return checkCmd(m.d.Snapshot())
}

// draftName names the open draft as the dialogs do: its Preset's key,
// else its id.
func (m *Model) draftName() string {
	if m.open != nil {
		return m.open.Key()
	}
	if m.d != nil {
		return m.d.ID()
	}
	return i18n.T("the draft")
}

// confirmDiscard runs then at once when the draft has no unsaved changes,
// else after the user confirms dropping them; question is the dialog's
// title, a whole translated question ("Reload from disk?").
func (m *Model) confirmDiscard(question string, then func() tea.Cmd) tea.Cmd {
	if m.d == nil || !m.d.Dirty() {
		return then()
	}
	m.openDialog(newConfirm(m, question, i18n.T("Going on discards the unsaved changes to %s; answer %s, then %s, to keep them.",
		m.draftName(), m.keys.Cancel.Help().Key, m.keys.Save.Help().Key),
		func(m *Model, _ string) tea.Cmd { return then() }))
	return nil
}

// openSlotPicker offers the built-in slot catalogue.
func (m *Model) openSlotPicker() {
	at := min(m.items.Cursor(), m.d.Len()-1)
	slots := common.NewList(common.RenderTextRow)
	slots.SetItems(common.TextRows(compile.BuiltinSlots))
	m.openDialog(&dialog{com: m.com, keys: &m.keys, kind: dialogSlots, title: i18n.T("Add slot"), body: i18n.T("The built-in slots of pi-forge 0.5.8: enter adds the chosen one to the draft."), slots: slots,
		onYes: func(m *Model, slot string) tea.Cmd {
			i, err := m.d.AddSlot(at, slot)
			return m.edited(i, err)
		}})
}

// promptFork asks for the id (and scope) of a copy of the draft.
func (m *Model) promptFork() tea.Cmd {
	scope := m.d.Scope()
	if scope == preset.ScopeProject && !m.com.Workspace.Trust.Trusted {
		scope = preset.ScopeGlobal
	}
	tree := m.d.Tree()
	text := i18n.T("enter writes the draft, your unsaved edits included, as a new Preset under this id and opens it; %s stays as it is on disk.", m.draftName())
	return m.scopedPrompt(i18n.T("Fork to a new id"), text, m.d.ID()+"-copy", scope,
		func(m *Model, id string, scope preset.Scope) tea.Cmd { return m.create(tree, id, scope, "fork") })
}

// promptNew asks for the id and scope of a new Preset from the default
// mirror.
func (m *Model) promptNew() tea.Cmd {
	m.stopEditing()
	return m.scopedPrompt(i18n.T("New preset from the default mirror"), i18n.T("enter creates a Preset that mirrors Pi's own prompt under this id, and opens it."), "my-preset", m.defaultScope(),
		func(m *Model, id string, scope preset.Scope) tea.Cmd {
			return m.create(defaultMirror(), id, scope, "new")
		})
}

// scopedPrompt opens an id prompt whose scope tab switches.
func (m *Model) scopedPrompt(title, text, value string, scope preset.Scope, then func(m *Model, id string, scope preset.Scope) tea.Cmd) tea.Cmd {
	d := newPrompt(m, title, scopeBody(m.com, &m.keys, text, scope), value, nil)
	d.onYes = func(m *Model, id string) tea.Cmd { return then(m, id, d.scope) }
	d.text, d.scope = text, scope
	m.openDialog(d)
	return d.input.Focus()
}

// promptAddBlock asks for the new block's name; its id is made from the
// name (unique), or is the text itself when that is already an id.
func (m *Model) promptAddBlock(at int) tea.Cmd {
	d := newPrompt(m, i18n.T("Add a block"), i18n.T("Name of the new system block: enter adds it to the draft (its id is made from the name; %s edits both later).", m.keys.Item.Help().Key), "", nil)
	d.input.Prompt = i18n.T("name: ")
	d.freeText = true
	d.onYes = func(m *Model, name string) tea.Cmd {
		i, err := m.d.AddNamedBlock(at, name)
		return m.edited(i, err)
	}
	m.openDialog(d)
	return d.input.Focus()
}
