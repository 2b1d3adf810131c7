package presets

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// focusPart is the part of the panel that has the keys: it takes the key
// presses and pastes, says which keys act (the footer and the help),
// whether it captures typed text and what y, v and o take whole. The panel asks focused for it and
// routes everything there, so which part that is is decided in one place.
type focusPart interface {
	// Key handles a key press.
	Key(msg tea.KeyPressMsg) tea.Cmd
	// Paste takes pasted text (nil: the part takes none).
	Paste(msg tea.PasteMsg) tea.Cmd
	// ShortHelp is the footer: the keys that act, most important first.
	ShortHelp() []key.Binding
	// FullHelp is the help overlay's groups.
	FullHelp() [][]key.Binding
	// CapturesInput is true while typed text goes to the part.
	CapturesInput() bool
	// Whole is what the part shows, whole, for y, v and o
	// (common.FocusKey).
	Whole() (common.Whole, bool)
}

// focused is the part that has the keys, in this order: a dialog, the
// draft diff, the Preset list's filter line (the overlays, over
// everything), then focusedUnder.
func (m *Model) focused() focusPart {
	if m.dialogs.Open() {
		return dialogFocus{m}
	}
	return m.focusedUnderDialog()
}

// focusedUnderDialog is the part that has the keys once the dialog is
// answered: the draft diff, the filter line, else focusedUnder.
func (m *Model) focusedUnderDialog() focusPart {
	switch {
	case m.diff != nil:
		return diffFocus{m}
	case m.presets.Filtering():
		return filterFocus{m}
	}
	return m.focusedUnder()
}

// focusedUnder is the part that has the keys when no overlay is open: the
// profiles view while it is shown, the draft editor while a block is
// typed in or the editor pane's form has focus, else the focused pane.
func (m *Model) focusedUnder() focusPart {
	switch {
	case m.showProfile:
		return profilesFocus{m}
	case m.editing, m.focus == paneEditor && m.form != nil:
		return editorFocus{m}
	}
	return paneFocus{m}
}

// handleKey routes a key to the focused part. A message answers the key
// before this one; whatever this key does sets its own, else the line
// falls back to the draft's state. v shows the one the key found whole
// (noted).
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	m.wholeNote = m.status
	m.setStatus("", false)
	return m.focused().Key(msg)
}

// handlePaste sends pasted text to the focused part.
func (m *Model) handlePaste(msg tea.PasteMsg) tea.Cmd { return m.focused().Paste(msg) }

// CapturesInput implements common.Panel: true while text is typed into a
// dialog, the filter line, the block editor or a form field.
func (m *Model) CapturesInput() bool { return m.focused().CapturesInput() }

// ShortHelp implements common.Panel: the keys that act in the focused part.
func (m *Model) ShortHelp() []key.Binding { return m.focused().ShortHelp() }

// FullHelp implements common.Panel: the panel's keys; while a form has
// focus only its own keys and the three the panel keeps (esc, save, undo)
// act, so only those are listed.
func (m *Model) FullHelp() [][]key.Binding { return m.focused().FullHelp() }

// dialogFocus: the dialog stack takes every key and paste; its top
// dialog gives the footer; the help and the whole are the part's under it.
type dialogFocus struct{ m *Model }

func (f dialogFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.dialogKey(msg) }
func (f dialogFocus) Paste(msg tea.PasteMsg) tea.Cmd  { return f.m.dialogKey(msg) }
func (f dialogFocus) ShortHelp() []key.Binding        { return f.m.dialogs.ShortHelp() }
func (f dialogFocus) CapturesInput() bool             { return f.m.dialogs.CapturesInput() }
func (f dialogFocus) FullHelp() [][]key.Binding       { return f.m.focusedUnder().FullHelp() }
func (f dialogFocus) Whole() (common.Whole, bool)     { return f.m.focusedUnderDialog().Whole() }

// diffFocus: the draft diff over the panes.
type diffFocus struct{ m *Model }

func (f diffFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.draftDiffKey(msg) }
func (f diffFocus) Paste(tea.PasteMsg) tea.Cmd      { return nil }
func (f diffFocus) ShortHelp() []key.Binding        { return f.m.draftDiffHelp() }
func (f diffFocus) FullHelp() [][]key.Binding       { return f.m.focusedUnder().FullHelp() }
func (f diffFocus) CapturesInput() bool             { return false }
func (f diffFocus) Whole() (common.Whole, bool)     { return f.m.diffWhole() }

// filterFocus: the Preset list's filter line takes every key, the panel's
// letters (p, u, r, …) too.
type filterFocus struct{ m *Model }

func (f filterFocus) Key(msg tea.KeyPressMsg) tea.Cmd { return f.m.run(f.m.libraryList.Update(msg)) }
func (f filterFocus) Paste(tea.PasteMsg) tea.Cmd      { return nil }
func (f filterFocus) ShortHelp() []key.Binding        { return f.m.libraryList.ShortHelp(false) }
func (f filterFocus) FullHelp() [][]key.Binding       { return f.m.focusedUnder().FullHelp() }
func (f filterFocus) CapturesInput() bool             { return f.m.libraryList.CapturesInput() }
func (f filterFocus) Whole() (common.Whole, bool)     { return f.m.focusedUnder().Whole() }

// profilesFocus: the profiles view (its list or its profile's form); a
// key it passes back goes to the panel's own keys.
type profilesFocus struct{ m *Model }

func (f profilesFocus) Key(msg tea.KeyPressMsg) tea.Cmd {
	cmd, in := f.m.profilesView.Update(msg)
	if _, pass := in.(passIntent); pass {
		panel, _ := f.m.panelKey(msg)
		return tea.Batch(cmd, panel)
	}
	return f.m.run(cmd, in)
}
func (f profilesFocus) Paste(tea.PasteMsg) tea.Cmd  { return nil }
func (f profilesFocus) Whole() (common.Whole, bool) { return f.m.profileWhole() }
func (f profilesFocus) CapturesInput() bool         { return f.m.profilesView.CapturesInput() }
func (f profilesFocus) ShortHelp() []key.Binding    { return f.m.profilesView.ShortHelp() }
func (f profilesFocus) FullHelp() [][]key.Binding   { return f.m.profilesView.FullHelp() }

// editorFocus: the draft editor while it captures the keys: a block
// being typed in, or the editor pane's form. A key the form leaves to the
// panel (esc, undo, redo; e for the raw JSON) goes to the pane keys.
type editorFocus struct{ m *Model }

func (f editorFocus) Key(msg tea.KeyPressMsg) tea.Cmd {
	m := f.m
	cmd, in := m.draftEditor.Update(msg, m.focus)
	if _, pass := in.(passIntent); pass {
		return tea.Batch(cmd, m.paneKey(msg))
	}
	return m.run(cmd, in)
}
func (f editorFocus) Paste(msg tea.PasteMsg) tea.Cmd {
	return f.m.run(f.m.draftEditor.Update(msg, f.m.focus))
}
func (f editorFocus) ShortHelp() []key.Binding    { return f.m.draftEditor.ShortHelp(f.m.focus) }
func (f editorFocus) CapturesInput() bool         { return f.m.draftEditor.CapturesInput(f.m.focus) }
func (f editorFocus) Whole() (common.Whole, bool) { return f.m.paneWhole() }

func (f editorFocus) FullHelp() [][]key.Binding {
	if help := f.m.draftEditor.FullHelp(f.m.focus); help != nil {
		return help
	}
	return f.m.panelFullHelp()
}

// paneFocus: the focused pane (the list, the items, the editor without a
// form, the preview).
type paneFocus struct{ m *Model }

func (f paneFocus) Key(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, f.m.keys.Save) {
		return f.m.run(nil, saveIntent{}) // whatever pane has focus
	}
	return f.m.paneKey(msg)
}
func (f paneFocus) Paste(tea.PasteMsg) tea.Cmd  { return nil }
func (f paneFocus) FullHelp() [][]key.Binding   { return f.m.panelFullHelp() }
func (f paneFocus) CapturesInput() bool         { return false }
func (f paneFocus) Whole() (common.Whole, bool) { return f.m.paneWhole() }

func (f paneFocus) ShortHelp() []key.Binding {
	switch m := f.m; m.focus {
	case paneList:
		return m.libraryList.ShortHelp(m.d != nil) // fork copies the open draft
	case panePreview:
		return m.previewDock.ShortHelp()
	default:
		return m.draftEditor.ShortHelp(m.focus)
	}
}

// panelFullHelp is the help of the Preset view's panes.
func (m *Model) panelFullHelp() [][]key.Binding {
	k := &m.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.Back, m.com.Keys.Filter}, // / filters the Presets list
		{k.Toggle, k.MoveUp, k.MoveDown, k.AddBlock, k.AddSlot, k.Duplicate, k.Delete, k.Item, k.Edit, k.Cost},
		{k.Save, k.Fork, k.Export, k.New, k.Import, k.Undo, k.Redo, k.Preview, k.DraftDiff, k.Profiles, k.Reload},
		{k.Use, k.Diagnostics, k.Macro},
		{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
	}
}

// paneKey handles a key in the Preset view's panes: the panel keys that
// act whatever pane has focus, then the focused pane's (the list when the
// focused pane went away under it: a reload, a fork).
func (m *Model) paneKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.panelKey(msg); ok {
		return cmd
	}
	if !m.paneVisible(m.focus) {
		m.focus = paneList
	}
	switch m.focus {
	case paneList:
		return m.run(m.libraryList.Update(msg))
	case paneItems, paneEditor:
		return m.run(m.draftEditor.paneUpdate(msg, m.focus))
	case panePreview:
		return m.run(m.dock().Update(msg))
	}
	return nil
}
