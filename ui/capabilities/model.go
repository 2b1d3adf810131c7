// Package capabilities is panel 2 of the workbench: the capability
// library (list, markdown detail, create/edit/save with the revision
// guard, delete), the capability bindings of the selected Preset (source
// vs effective, the Presets panel's bindings view, read-only here), and
// the capability state of the session at the entry selected in the
// Session panel — one card per active snapshot, effective tools, delivery
// and presentation — with the offline actions enable, enable-bound,
// disable, reset and add, each previewed before it writes.
//
// Files are read and written in tea.Cmds; Update and View only move
// cursors and draw precomputed lines.
package capabilities

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/dialog"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// pane is one of the panel's panes, in focus order.
type pane int

const (
	paneLibrary pane = iota
	paneDetail
	paneSession
	paneCount
)

// detailMode is what the detail pane shows.
type detailMode int

const (
	modeCapability detailMode = iota
	modeBindings
)

// detailCacheMax bounds the rendered-detail cache; it is cleared when full.
const detailCacheMax = 128

// Model is the Capabilities panel.
type Model struct {
	com  *common.Common
	keys keymap.Capabilities
	now  func() time.Time
	// newID draws the ids of planned events and activations (randomUUID).
	newID func() string

	width, height int
	focus         pane
	mode          detailMode

	lib    *resources.Library
	libErr string
	libGen int
	list   *common.List[libRow]

	detail        map[detailKey][]string
	detailPending map[detailKey]bool
	detailOffset  int
	// detailMax is the last offset the detail's text allows (the last
	// frame's; the wheel stops there).
	detailMax   int
	bindings    forms.Form
	bindingsFor string

	sess    *session.Session
	sessGen int
	view    sessionView
	// following waits for the selection to rest before the state at its
	// entry is computed (common.Debounce).
	following common.Debounce
	// lastWrite is the stamp this panel's last append left.
	lastWrite common.FileStamp

	edit *editor
	// dialogs are the panel's modals (dialog.go).
	dialogs dialog.Stack
	// jump is a capability another panel pointed at (jump.go).
	jump jumpState

	status    string
	statusErr bool
	// statusClock expires the message (common.StatusClock).
	statusClock common.StatusClock
}

// New returns the Capabilities panel with the Capabilities keys of
// com.Keys (the defaults when com has none).
func New(com *common.Common) *Model {
	m := &Model{com: com, keys: keymap.DefaultCapabilities(), now: time.Now, newID: capstate.NewUUID,
		list:          common.NewList(renderLibRow),
		detail:        map[detailKey][]string{},
		detailPending: map[detailKey]bool{},
	}
	m.view.expanded = map[string]bool{}
	m.list.SetIdentity(func(r libRow) string { return r.key })
	m.list.SetFilter(common.FilterWords(func(r libRow) string { return r.key + " " + r.name + " " + r.tools }))
	if com.Keys != nil {
		m.keys = com.Keys.Capabilities
	}
	m.dialogs.Dismiss = m.keys.Dismiss
	return m
}

// SetKeys replaces the panel's bindings (user overrides).
func (m *Model) SetKeys(k keymap.Capabilities) {
	m.keys = k
	m.dialogs.Dismiss = k.Dismiss
}

// Init loads the library and follows the current selection.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.reloadLibrary(), m.follow(m.com.Selection))
}

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.sizeBindings()
	m.layoutDialog()
}

// Title implements common.Panel.
func (m *Model) Title() string { return "Capabilities" }

// FocusNext implements common.Panel; in the editor it moves between fields.
func (m *Model) FocusNext() {
	if m.edit != nil && m.focus == paneDetail {
		m.edit.focusField(m.edit.field + 1)
		return
	}
	m.focus = (m.focus + 1) % paneCount
	m.view.focused = m.focus == paneSession
}

// FocusPrev implements common.Panel.
func (m *Model) FocusPrev() {
	if m.edit != nil && m.focus == paneDetail {
		m.edit.focusField(m.edit.field - 1)
		return
	}
	m.focus = (m.focus + paneCount - 1) % paneCount
	m.view.focused = m.focus == paneSession
}

// CapturesInput implements common.Panel: a filter, a dialog's text field
// or an editor text field has the keyboard.
func (m *Model) CapturesInput() bool {
	switch {
	case m.dialogs.Open():
		return m.dialogs.CapturesInput()
	case m.list.Filtering():
		return true
	case m.edit != nil && m.focus == paneDetail:
		return m.edit.capturesInput()
	}
	return false
}

// Unsaved implements common.Guard: an edited capability draft.
func (m *Model) Unsaved() (string, bool) {
	if m.edit == nil || !m.edit.dirty {
		return "", false
	}
	return "the capability draft " + string(m.edit.scope) + ":" + m.edit.id, true
}

// ShortHelp implements common.Panel: the keys of the focused pane.
func (m *Model) ShortHelp() []key.Binding {
	k := &m.keys
	switch {
	case m.dialogs.Open():
		return m.dialogs.ShortHelp()
	case m.list.Filtering():
		return []key.Binding{k.Submit, k.Dismiss}
	case m.edit != nil && m.focus == paneDetail:
		if m.edit.field == fieldTools {
			return []key.Binding{k.Toggle, k.ToolName, k.NextField, k.Save, k.Back}
		}
		return []key.Binding{k.NextField, k.Save, k.External, k.Back}
	case m.focus == paneLibrary:
		return []key.Binding{k.Open, k.Enable, k.New, k.Delete, k.Filter, m.com.Keys.View, k.Bindings}
	case m.focus == paneDetail && m.mode == modeBindings:
		return []key.Binding{k.Up, k.Down, k.EnableBound, k.Bindings, k.Back}
	case m.focus == paneDetail:
		return []key.Binding{k.Up, k.Down, k.Open, k.Enable, m.com.Keys.View, k.Bindings}
	}
	return []key.Binding{k.Disable, k.Expand, m.com.Keys.View, k.EnableBound, k.Add, k.Reset, k.Reload}
}

// FullHelp implements common.Panel.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter, k.Reload},
		{k.Open, k.New, k.Delete, k.Save, k.External, k.NextField, k.Toggle, k.ToolName, k.Bindings},
		{k.Enable, k.EnableBound, k.Disable, k.Reset, k.Add, k.Expand, k.Back},
		{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
	}
}

// setStatus shows a message in the panel's status line.
func (m *Model) setStatus(text string, isErr bool) {
	m.status, m.statusErr = text, isErr
	m.statusClock.Set()
}
