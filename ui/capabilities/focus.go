package capabilities

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// part is a sub-model of the panel that can have the keys: it takes the
// key presses (and pastes, where it has text to put them in), says which
// keys act (the footer) and whether it captures typed text. The panel
// asks focused for it, so which part that is is decided in one place.
type part interface {
	// Update takes a key press or a paste; what it asks of the panel
	// comes back as an intent.
	Update(msg tea.Msg) (tea.Cmd, intent)
	// ShortHelp is the footer: the keys that act, most important first.
	ShortHelp() []key.Binding
	// CapturesInput is true while typed text goes to the part.
	CapturesInput() bool
}

// focused is the part that has the keys: the one over the panes when
// there is one, else the focused pane's.
func (m *Model) focused() part {
	if p := m.overPanes(); p != nil {
		return p
	}
	return m.focusedPane()
}

// overPanes is the part that takes every key, the panel's own keys too,
// in this order: a dialog, the library's filter line, the editor while
// the detail pane (where it is drawn) has focus. Nil when none does.
func (m *Model) overPanes() part {
	switch {
	case m.dialogs.Open():
		return dialogPart{m}
	case m.list.Filtering():
		return &m.libraryList
	case m.edit != nil && m.focus == paneDetail:
		return m.edit
	}
	return nil
}

// focusedPane is the part of the focused pane: the library, the detail
// (the capability, or the bindings view) or the session's state.
func (m *Model) focusedPane() part {
	switch {
	case m.focus == paneLibrary:
		return &m.libraryList
	case m.focus == paneDetail && m.mode == modeBindings:
		return &m.bindings
	case m.focus == paneDetail:
		return &m.detail
	}
	return &m.view
}

// CapturesInput implements common.Panel: a filter, a dialog's text field
// or an editor text field has the keyboard.
func (m *Model) CapturesInput() bool { return m.focused().CapturesInput() }

// ShortHelp implements common.Panel: the keys of the focused part.
func (m *Model) ShortHelp() []key.Binding { return m.focused().ShortHelp() }

// dialogPart is the dialog stack as the part with the keys: its top
// dialog takes every key and paste and gives the footer.
type dialogPart struct{ m *Model }

func (d dialogPart) Update(msg tea.Msg) (tea.Cmd, intent) { return d.m.dialogKey(msg), nil }
func (d dialogPart) ShortHelp() []key.Binding             { return d.m.dialogs.ShortHelp() }
func (d dialogPart) CapturesInput() bool                  { return d.m.dialogs.CapturesInput() }
