// Package common is the shared context every panel receives: styles, keys,
// the workspace and the current selection. Passing one value down replaces
// globals, and a theme switch is one assignment.
package common

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
)

// Selection is what travels across panels and shows in the header: the
// session, the entry in it and the preset. The Session panel announces it
// as soon as its cursor moves, so every panel follows the entry the user
// is looking at.
type Selection struct {
	SessionFile string
	// SessionName is what the session is called everywhere (session.Title:
	// its name, else its first user message, else its id).
	SessionName string
	// EntryID is the selected entry's id. Once a session is open it is
	// always set, also at the leaf, so a panel that caches by entry sees
	// the leaf move when follow mode appends entries; "" only while no
	// session has been opened yet (consumers then use the leaf).
	EntryID string
	// AtLeaf is true when EntryID is the session's current leaf: the
	// selection then follows the leaf as the session grows.
	AtLeaf bool
	// PresetID is the Preset the user opened in the Presets panel
	// ("scope:id"; "" until they choose one).
	PresetID string
	// ActivePreset is the Preset selection the session's branch records at
	// the entry (session.ActivePresetAt: "scope:id", "none", or "" when
	// nothing is recorded).
	ActivePreset string
	// FreshBranch is true when the branch up to the entry holds only what
	// a newly started Pi session writes (one thinking-level change, at most
	// one model change, session names): with nothing recorded, pi-forge
	// would auto-activate its agent profile's Preset there, elsewhere only
	// the auto-activating Preset.
	FreshBranch bool
	// ItemID is an item of PresetID and CapabilityID a capability key
	// (scope:id) that a jump points at ("" = none); the Presets and
	// Capabilities panels move their cursor there when set.
	ItemID       string
	CapabilityID string
	// AgentPath, AgentFile and AgentEntryID point a jump at an agent's
	// transcript (a global search hit inside a pi-subagent tree): the
	// Agents panel, following the root SessionFile, opens the transcript
	// of AgentFile at the entry ("" = none).
	AgentPath, AgentFile, AgentEntryID string
	// SearchQuery is the query of the search hit a jump lands on ("" =
	// the selection is not a search hit). The panel showing the entry
	// reveals the match: it expands what hides it, scrolls to it and
	// marks the query's words. The panel that takes the landing clears it
	// when it announces its selection, so later moves reveal nothing.
	SearchQuery string
}

// Common is shared by pointer between the root model and every panel.
type Common struct {
	Styles    themes.Styles
	Keys      *keymap.Set
	Workspace resources.Workspace
	Selection Selection
	Width     int
	Height    int
	// Now is the clock (nil: time.Now); tests pin it.
	Now func() time.Time
	// Timer schedules msg to arrive after d (nil: tea.Tick). Tests replace
	// it to fire timers by hand instead of sleeping (uitest does).
	Timer func(d time.Duration, msg tea.Msg) tea.Cmd

	markdown *Markdown
}

// Clock is the current time from Now.
func (c *Common) Clock() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Later delivers msg after d through Timer (status expiry, debounces).
func (c *Common) Later(d time.Duration, msg tea.Msg) tea.Cmd {
	if c.Timer != nil {
		return c.Timer(d, msg)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
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

// SessionWrittenMsg says a panel appended to a session file (a capability
// action); a panel showing that file reads it again, so the new leaf
// becomes the selection everywhere.
type SessionWrittenMsg struct{ File string }

// SelectionChangedMsg announces a new selection; the root stores it in
// Common and forwards it to every panel so they can follow it.
type SelectionChangedMsg struct{ Selection Selection }

// LibraryChangedMsg says a panel changed the preset or profile library on
// disk (a save, a delete, an import, a change it noticed); what is derived
// from the library elsewhere (the header's auto-activated Preset) is read
// again.
type LibraryChangedMsg struct{}

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
	// ShortHelp lists the most important key first: a footer too narrow
	// for all of them leaves out the last ones (FitHints), never cuts one.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
}
