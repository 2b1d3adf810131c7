package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
)

// X on a custom slot item of the open draft gives that slot a value for
// the preview, as the CLI's --slots FILE does: forgebench cannot run the
// extension module that registers the slot, so without one the preview
// renders it empty under pi-forge's "Unsupported slot" warning. The value
// lives in the panel for the session only (previewDock.customSlots, the
// run context's copy): it is never written to the Preset. Anywhere else X
// asks for an extension macro's value (promptMacro).

// promptPreviewValue is X: the custom slot under the item cursor, else an
// extension macro.
func (m *Model) promptPreviewValue() tea.Cmd {
	if name := m.selectedCustomSlot(); name != "" {
		return m.promptSlotValue(name)
	}
	return m.promptMacro()
}

// selectedCustomSlot is the name of the custom slot under the item cursor
// while the draft's items or editor have focus, "" otherwise.
func (m *Model) selectedCustomSlot() string {
	if m.d == nil || m.showProfile || (m.focus != paneItems && m.focus != paneEditor) {
		return ""
	}
	return customSlotOf(m.d.Item(m.items.Cursor()))
}

// customSlotOf is the slot name of a custom slot item, "" for any other.
func customSlotOf(it *preset.Item, _ bool, ok bool) string {
	if !ok || it == nil || it.Kind != preset.KindSlot || !compile.ValidCustomSlotName(it.Slot) {
		return ""
	}
	return it.Slot
}

// customSlotNote is the editor's key note on a custom slot item: X gives
// it a preview value.
func (e *draftEditor) customSlotNote(it *preset.Item, ok bool) string {
	if customSlotOf(it, false, ok) == "" {
		return ""
	}
	return keyNotes(keyNote{e.keys.Macro, i18n.Mark("preview value")})
}

// promptSlotValue asks for slot's preview value, the current one filled
// in; an empty line removes it.
func (m *Model) promptSlotValue(slot string) tea.Cmd {
	d := newPrompt(m, i18n.T("Custom slot value for the preview"),
		i18n.T("forgebench cannot run the extension module that registers the slot “%s”, so the preview renders it empty. Enter the text it would render (one line; preset preview --slots FILE takes any text). It is kept for this session only, never written to the Preset; an empty line removes it.", slot),
		m.customSlots[slot], nil)
	d.input.Prompt = slot + ": "
	d.freeText, d.emptyOK = true, true
	d.onYes = func(m *Model, text string) tea.Cmd { return m.setSlotValue(slot, text) }
	m.openDialog(d)
	return d.input.Focus()
}

// setSlotValue sets (or, with "", removes) slot's preview value: the
// preview compiles with the new values. The map is replaced whole, so a
// command holding the old one keeps it.
func (m *Model) setSlotValue(slot, value string) tea.Cmd {
	next := make(map[string]string, len(m.customSlots)+1)
	for k, v := range m.customSlots {
		next[k] = v
	}
	if value == "" {
		delete(next, slot)
		m.setStatus(i18n.T("the custom slot %s has no preview value now: the preview renders it empty", slot), false)
	} else {
		next[slot] = value
		m.setStatus(i18n.T("the preview renders the custom slot %s as the value you gave (this session only)", slot), false)
	}
	if len(next) == 0 {
		next = nil
	}
	m.customSlots = next
	return m.schedulePreview()
}
