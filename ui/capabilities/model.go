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

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/dialog"
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

// Model is the Capabilities panel. It keeps the focus, which view the
// detail pane shows (mode), the parts and the dialog stack, and routes.
// The parts are sub-models, one per thing on screen, each with its own
// Update, View, ShortHelp and CapturesInput on its own state and the
// shared Common: the library list (library.go), the capability's detail
// (detail.go), the bindings view (bindings.go), the capability state at
// the followed entry (sessionview.go) and the editor (editor.go); the
// dialogs are on a ui/components/dialog stack (dialog.go). A part never
// acts on the panel or on another part: what it sets off there (an
// action's plan, the editor, a dialog) it asks for as an intent, which
// run (intents.go) carries out. focused (focus.go) says which part has
// the keys; the keys, the footer and CapturesInput all ask it.
type Model struct {
	com  *common.Common
	keys keymap.Capabilities
	now  func() time.Time
	// newID draws the ids of planned events and activations (randomUUID).
	newID func() string

	width, height int
	focus         pane
	mode          detailMode

	libraryList
	detail   capabilityDetail
	bindings bindingsView
	// view is the capability state at the followed entry.
	view sessionView
	edit *editor
	// dialogs are the panel's modals (dialog.go).
	dialogs dialog.Stack
	// jump is a capability another panel pointed at (jump.go).
	jump jumpState
	panelStatus
}

// New returns the Capabilities panel with the Capabilities keys of
// com.Keys (the defaults when com has none).
func New(com *common.Common) *Model {
	m := &Model{com: com, keys: keymap.DefaultCapabilities(), now: time.Now, newID: capstate.NewUUID}
	if com.Keys != nil {
		m.keys = com.Keys.Capabilities
	}
	m.libraryList = newLibraryList(com, &m.keys)
	m.detail = newCapabilityDetail(com, &m.keys)
	m.bindings = bindingsView{com: com, keys: &m.keys}
	m.view = newSessionView(com, &m.keys)
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
	m.layoutParts()
}

// Title implements common.Panel.
func (m *Model) Title() string { return i18n.T("Capabilities") }

// FocusNext implements common.Panel; in the editor it moves between fields.
func (m *Model) FocusNext() {
	if m.edit != nil && m.focus == paneDetail {
		m.edit.focusField(m.edit.field + 1)
		m.layoutParts()
		return
	}
	m.focus = (m.focus + 1) % paneCount
	m.view.focused = m.focus == paneSession
	m.layoutParts()
}

// FocusPrev implements common.Panel.
func (m *Model) FocusPrev() {
	if m.edit != nil && m.focus == paneDetail {
		m.edit.focusField(m.edit.field - 1)
		m.layoutParts()
		return
	}
	m.focus = (m.focus + paneCount - 1) % paneCount
	m.view.focused = m.focus == paneSession
	m.layoutParts()
}

// Unsaved implements common.Guard: an edited capability draft.
func (m *Model) Unsaved() (string, bool) {
	if m.edit == nil || !m.edit.dirty {
		return "", false
	}
	return "the capability draft " + string(m.edit.scope) + ":" + m.edit.id, true
}

// FullHelp implements common.Panel.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter, k.Reload},
		{k.Open, k.New, k.Delete, k.Save, k.External, k.NextField, k.Toggle, k.ToolName, k.Bindings},
		{k.Enable, k.EnableBound, k.Disable, k.Reset, k.Add, k.Expand, k.Locate, k.Cost, k.Back},
		{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
	}
}
