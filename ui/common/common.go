// Package common is the shared context every panel receives: styles, keys,
// the workspace and the current selection. Passing one value down replaces
// globals, and a theme switch is one assignment.
package common

import (
	"os/exec"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/themes"
)

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
	// Exec hands the terminal to another program (nil: tea.ExecProcess):
	// the pager (Page). Tests replace it to run the program without a
	// terminal.
	Exec func(cmd *exec.Cmd, done tea.ExecCallback) tea.Cmd
	// Editor is the $EDITOR hand-off (nil: EnvEditor, the user's editor
	// through Exec); tests put a fake here (ExternalEditor).
	Editor ExternalEditor

	// services are the workspace's shared services (Services).
	services *services.Services
	markdown *Markdown
	// jumpSeq numbers the jumps sent (Jump).
	jumpSeq uint64
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

// Services are the workspace's shared services: the library (read once,
// read again by a panel's reload), the model catalog, the session
// locations, the reference resolver and the save preflight. Every panel
// asks here and never loads its own; call it from Update and hand the
// value to commands, which may use it concurrently.
func (c *Common) Services() *services.Services {
	if c.services == nil || c.services.Workspace() != c.Workspace {
		// A Common built without the root's (a panel's test), or whose
		// Workspace was replaced: the services of the workspace it holds.
		c.services = services.New(c.Workspace)
	}
	return c.services
}

// SetServices hands the Common the services of its workspace (the root
// passes the ones the CLI built, so the process has one).
func (c *Common) SetServices(s *services.Services) {
	c.services = s
	if s != nil {
		c.Workspace = s.Workspace()
	}
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

// LibraryChangedMsg says a panel changed the preset or profile library on
// disk (a save, a delete, an import, a change it noticed); what is derived
// from the library elsewhere (the header's auto-activated Preset) is read
// again.
type LibraryChangedMsg struct{}

// Panel indexes, in tab order (JumpTarget.Panel).
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
	// Title is the tab label, in the current language (i18n.T).
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
