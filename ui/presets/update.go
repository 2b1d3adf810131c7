package presets

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
)

// handleKey routes a key: dialog → inline editor → form → panel keys →
// focused pane.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	// A message answers the key before this one; whatever this key does
	// sets its own, else the line falls back to the draft's state.
	m.setStatus("", false)
	if m.dlg != nil {
		return m.dialogKey(msg)
	}
	if key.Matches(msg, k.Save) {
		m.stopEditing()
		return m.save()
	}
	if m.editing {
		if key.Matches(msg, k.Back) {
			m.stopEditing()
			return nil
		}
		return m.updateEditor(msg)
	}
	if m.focus == paneEditor && m.form != nil {
		if m.form.CapturesInput() || !key.Matches(msg, k.Back, k.Undo) {
			var cmd tea.Cmd
			m.form, cmd = m.form.Update(msg)
			return cmd
		}
	}
	switch {
	case key.Matches(msg, k.Profiles):
		m.showProfile = !m.showProfile
		m.focus = paneList
		m.cache.bump()
		return nil
	case key.Matches(msg, k.Reload):
		return m.confirmDiscard("Reload from disk", m.reload)
	case key.Matches(msg, k.New):
		return m.promptNew()
	case key.Matches(msg, k.Preview):
		m.showPreview = !m.showPreview
		if m.showPreview {
			m.focus = panePreview
		} else if m.focus == panePreview {
			m.focus = paneItems
		}
		return m.schedulePreview()
	}
	if m.showProfile {
		return m.profilesKey(msg)
	}
	if m.d != nil {
		switch {
		case key.Matches(msg, k.Undo):
			return m.undo()
		case key.Matches(msg, k.Fork):
			return m.promptFork()
		}
	}
	if !m.paneVisible(m.focus) {
		m.focus = paneList // the draft went away (reload, fork) under the focused pane
	}
	switch m.focus {
	case paneList:
		return m.listKey(msg)
	case paneItems:
		return m.itemsKey(msg)
	case paneEditor:
		return m.editorKey(msg)
	case panePreview:
		return m.previewKey(msg)
	}
	return nil
}

// handlePaste sends pasted text to whatever input has focus.
func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case m.dlg != nil && m.dlg.kind == "prompt":
		var cmd tea.Cmd
		m.dlg.input, cmd = m.dlg.input.Update(msg)
		return cmd
	case m.editing:
		return m.updateEditor(msg)
	case m.form != nil && m.focus == paneEditor:
		var cmd tea.Cmd
		m.form, cmd = m.form.Update(msg)
		return cmd
	}
	return nil
}

// handleWheel scrolls the preview or moves the item cursor.
func (m *Model) handleWheel(msg tea.MouseWheelMsg) {
	delta := 1
	if msg.Button == tea.MouseWheelUp {
		delta = -1
	}
	switch m.focus {
	case panePreview:
		m.previewOff = max(0, m.previewOff+3*delta)
	case paneItems:
		m.moveItemCursor(delta)
	case paneList:
		m.moveListCursor(delta)
	}
}

// moveBy applies the navigation keys to a cursor over n rows.
func (m *Model) moveBy(msg tea.KeyPressMsg, cursor, n, page int) (int, bool) {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Up):
		cursor--
	case key.Matches(msg, k.Down):
		cursor++
	case key.Matches(msg, k.PageUp):
		cursor -= max(1, page)
	case key.Matches(msg, k.PageDown):
		cursor += max(1, page)
	case key.Matches(msg, k.Top):
		cursor = 0
	case key.Matches(msg, k.Bottom):
		cursor = n - 1
	default:
		return cursor, false
	}
	return max(0, min(cursor, n-1)), true
}

func (m *Model) listKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.lib == nil {
		return nil
	}
	if c, ok := m.moveBy(msg, m.listCursor, len(m.lib.Presets), m.paneRows(paneList)); ok {
		m.listCursor = c
		return nil
	}
	if key.Matches(msg, m.keys.Open) && m.listCursor < len(m.lib.Presets) {
		p := m.lib.Presets[m.listCursor]
		return m.confirmDiscard("Open "+p.Key(), func() tea.Cmd {
			cmd := m.openPreset(p, true)
			m.focus = paneItems
			return cmd
		})
	}
	return nil
}

func (m *Model) moveListCursor(delta int) {
	if m.lib != nil {
		m.listCursor = max(0, min(m.listCursor+delta, len(m.lib.Presets)-1))
	}
}

// itemRows is the number of rows of the item list (items + settings).
func (m *Model) itemRows() int {
	if m.d == nil {
		return 0
	}
	return len(m.d.items()) + len(settingsRows)
}

func (m *Model) moveItemCursor(delta int) {
	m.itemCursor = max(0, min(m.itemCursor+delta, m.itemRows()-1))
	m.afterItemMove()
}

// afterItemMove shows the editor or form of the row under the cursor.
func (m *Model) afterItemMove() {
	m.syncEditor()
	if m.formKindAt(m.itemCursor) != "" {
		m.openForm(false)
	} else {
		m.closeForm()
	}
}

func (m *Model) itemsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if c, ok := m.moveBy(msg, m.itemCursor, m.itemRows(), m.paneRows(paneItems)); ok {
		m.itemCursor = c
		m.afterItemMove()
		return nil
	}
	n := len(m.d.items())
	onItem := m.itemCursor < n
	var err error
	switch {
	case key.Matches(msg, k.Open), key.Matches(msg, m.com.Keys.Select):
		if _, ok := m.blockContent(m.itemCursor); ok {
			return m.startEditing()
		}
		return m.openForm(true)
	case key.Matches(msg, k.Edit):
		return m.openExternalEditor()
	case key.Matches(msg, k.Back):
		m.focus = paneList
		return nil
	case key.Matches(msg, k.AddBlock):
		m.itemCursor, err = m.d.addBlock(min(m.itemCursor, n-1))
	case key.Matches(msg, k.AddSlot):
		m.openSlotPicker()
		return nil
	case !onItem:
		return nil
	case key.Matches(msg, k.Toggle):
		err = m.d.toggleItem(m.itemCursor)
	case key.Matches(msg, k.MoveUp):
		m.itemCursor, err = m.d.moveItem(m.itemCursor, -1)
	case key.Matches(msg, k.MoveDown):
		m.itemCursor, err = m.d.moveItem(m.itemCursor, 1)
	case key.Matches(msg, k.Duplicate):
		m.itemCursor, err = m.d.duplicateItem(m.itemCursor)
	case key.Matches(msg, k.Delete):
		i := m.itemCursor
		m.dlg = newConfirm("Delete item", "Delete "+itemLabel(m.d.item(i))+" from the draft? (u undoes it)",
			func(m *Model, _ string) tea.Cmd { return m.edited(m.d.deleteItem(i)) })
		return nil
	default:
		return nil
	}
	return m.edited(err)
}

// edited finishes an item-list edit: status on error, caches, form and
// preview follow the new draft.
func (m *Model) edited(err error) tea.Cmd {
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	m.itemCursor = max(0, min(m.itemCursor, m.itemRows()-1))
	m.cache.bump()
	m.taItem = -1
	m.afterItemMove()
	m.refreshForm()
	return m.schedulePreview()
}

func (m *Model) editorKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Back):
		m.focus = paneItems
	case key.Matches(msg, k.Open), key.Matches(msg, m.com.Keys.Select):
		return m.startEditing()
	case key.Matches(msg, k.Edit):
		return m.openExternalEditor()
	}
	return nil
}

func (m *Model) previewKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, m.keys.Back) {
		m.focus = paneItems
		return nil
	}
	total := len(m.previewLines(m.previewWidth()))
	if c, ok := m.moveBy(msg, m.previewOff, total, m.paneRows(panePreview)); ok {
		m.previewOff = c
	}
	return nil
}

// undo restores the draft before the last edit.
func (m *Model) undo() tea.Cmd {
	m.stopEditing()
	label, ok := m.d.undoLast()
	if !ok {
		m.setStatus("nothing to undo", false)
		return nil
	}
	m.setStatus("undid "+label, false)
	return m.edited(nil)
}

// confirmDiscard runs then at once when the draft has no unsaved changes,
// else after the user confirms dropping them.
func (m *Model) confirmDiscard(what string, then func() tea.Cmd) tea.Cmd {
	if m.d == nil || !m.d.dirty {
		return then()
	}
	m.dlg = newConfirm(what, "The draft has unsaved changes. Discard them?",
		func(m *Model, _ string) tea.Cmd { return then() })
	return nil
}

// openSlotPicker offers the built-in slot catalogue.
func (m *Model) openSlotPicker() {
	m.dlg = &dialog{kind: "slots", title: "Add slot", body: "built-in slots (pi-forge 0.5.8)"}
	at := min(m.itemCursor, len(m.d.items())-1)
	m.dlg.onYes = func(m *Model, slot string) tea.Cmd {
		var err error
		m.itemCursor, err = m.d.addSlot(at, slot)
		return m.edited(err)
	}
}

// slotNames is the slot picker's list.
func slotNames() []string { return compile.BuiltinSlots }

// promptFork asks for the id of a copy of the draft.
func (m *Model) promptFork() tea.Cmd {
	scope := m.d.scope
	if scope == preset.ScopeProject && !m.com.Workspace.Trust.Trusted {
		scope = preset.ScopeGlobal
	}
	suggest := m.d.stack.ID + "-copy"
	m.dlg = newPrompt("Fork to a new id", "The draft (with your unsaved edits) is written as "+string(scope)+":<id>.", suggest,
		func(m *Model, id string) tea.Cmd { return m.createFromTree(m.d.tree, id, scope, "fork") })
	return m.dlg.input.Focus()
}

// promptNew asks for the id of a new Preset from the default mirror.
func (m *Model) promptNew() tea.Cmd {
	scope := preset.ScopeProject
	if !m.com.Workspace.Trust.Trusted {
		scope = preset.ScopeGlobal
	}
	m.dlg = newPrompt("New preset from the default mirror", "Creates "+string(scope)+":<id> mirroring Pi's own prompt.", "my-preset",
		func(m *Model, id string) tea.Cmd { return m.createFromTree(defaultMirror(), id, scope, "new") })
	return m.dlg.input.Focus()
}
