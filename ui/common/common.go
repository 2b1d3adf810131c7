// Package common is the shared context every panel receives: styles, keys,
// the workspace and the current selection. Passing one value down replaces
// globals, and a theme switch is one assignment.
package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
)

// Selection is what travels across panels and shows in the header: the
// session, the entry in it (empty = the leaf) and the preset.
type Selection struct {
	SessionFile string
	SessionName string
	EntryID     string
	PresetID    string
	// ItemID is an item of PresetID and CapabilityID a capability key
	// (scope:id) that a jump points at ("" = none); the Presets and
	// Capabilities panels move their cursor there when set.
	ItemID       string
	CapabilityID string
}

// Common is shared by pointer between the root model and every panel.
type Common struct {
	Styles    themes.Styles
	Keys      *keymap.Set
	Workspace resources.Workspace
	Selection Selection
	Width     int
	Height    int

	markdown *Markdown
}

// Markdown is the markdown renderer set every panel shares (created on
// first use; call it from Update and hand the result to commands).
func (c *Common) Markdown() *Markdown {
	if c.markdown == nil {
		c.markdown = NewMarkdown()
	}
	return c.markdown
}

// ThemeChangedMsg is broadcast by the root after a theme switch, once
// Common.Styles holds the new styles. Caches keyed by the theme need
// nothing; a panel that keeps rendered text without a theme key drops it
// here, and a panel that renders markdown may warm the new renderer.
type ThemeChangedMsg struct{ Styles themes.Styles }

// SelectionChangedMsg announces a new selection; the root stores it in
// Common and forwards it to every panel so they can follow it.
type SelectionChangedMsg struct{ Selection Selection }

// ShowPanelMsg asks the root to bring panel Index (0-based: 0 Presets …
// 4 Agents) to the front, after a jump has moved the selection.
type ShowPanelMsg struct{ Index int }

// Panel indexes for ShowPanelMsg, in tab order.
const (
	PanelPresets = iota
	PanelCapabilities
	PanelSession
	PanelPayloads
	PanelAgents
)

// Panel is one of the five workbench tabs. Panels own their panes, keymap
// and files; the root only lays them out, routes keys and composes help.
type Panel interface {
	// Init starts the panel's background work (loading happens in commands).
	Init() tea.Cmd
	// Update handles a message routed to the panel.
	Update(msg tea.Msg) (Panel, tea.Cmd)
	// View renders exactly width×height cells set by SetSize.
	View() string
	// SetSize gives the panel its body area.
	SetSize(width, height int)
	// Title is the tab label.
	Title() string
	// FocusNext and FocusPrev move focus between the panel's panes.
	FocusNext()
	FocusPrev()
	// CapturesInput is true while a text input in the panel has focus, so
	// the root passes printable keys through instead of treating them as
	// global shortcuts.
	CapturesInput() bool
	// ShortHelp and FullHelp are the panel's bindings for the footer and
	// the `?` overlay; the root composes them with the global keys.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}
