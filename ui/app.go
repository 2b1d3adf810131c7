// Package ui is the bubbletea root of the workbench: layout (header, tabs,
// body, footer), focus, key routing and the help overlay. Each panel lives in
// its own sub-package and receives the shared common.Common.
package ui

import (
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	agentspanel "github.com/forgebench/forgebench/ui/agents"
	capspanel "github.com/forgebench/forgebench/ui/capabilities"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/dialog"
	"github.com/forgebench/forgebench/ui/find"
	"github.com/forgebench/forgebench/ui/palette"
	payloadspanel "github.com/forgebench/forgebench/ui/payloads"
	presetspanel "github.com/forgebench/forgebench/ui/presets"
	sessionpanel "github.com/forgebench/forgebench/ui/sessions"
)

// Options configure the root model.
type Options struct {
	Workspace resources.Workspace
	// Services are the workspace's shared services (nil: built here for
	// Workspace); the CLI passes the ones its Globals built, so the
	// process has one.
	Services *services.Services
	Theme    themes.Mode
	NoColor  bool
	// Keys are every binding, with the user's overrides applied.
	Keys keymap.Set
	// Home is the user's home directory, used only to shorten paths.
	Home string
	// Timer schedules delayed messages (nil: tea.Tick); tests fire them.
	Timer func(time.Duration, tea.Msg) tea.Cmd
	// WatchFiles lets panels watch their files for changes on disk (the
	// real program; tests leave it off).
	WatchFiles bool
	// FrameInterval is the shortest time between two frames while
	// messages keep coming (frames.go; the real program passes
	// FrameInterval). 0 draws on every View, as tests expect.
	FrameInterval time.Duration
	// Trace records each message handled and each frame composed (nil:
	// nothing is traced; trace.go).
	Trace *Trace
}

// Model is the root model. It stays thin: everything a panel shows is the
// panel's business.
type Model struct {
	com      *common.Common
	keys     keymap.Set
	panels   []common.Panel
	active   int
	showHelp bool
	// helpOffset is the first line of the help's key list on screen (the
	// list scrolls when the terminal is too short for it).
	helpOffset int
	help       help.Model
	palette    palette.Model
	// find is the global search view (ctrl+f); drawn instead of the body
	// while open.
	find *find.Model
	// whole is the open "view whole" overlay (whole.go; nil: none),
	// drawn over the body.
	whole *common.Viewer
	// dialogs are the root's modals over the whole screen: the "quit and
	// discard …?" question (quit.go).
	dialogs dialog.Stack
	theme   themes.Mode
	noColor bool
	hasDark bool
	width   int
	height  int
	// cwdLabel is the header's cwd, abbreviated once at construction so
	// View never touches the environment.
	cwdLabel string
	// lastView is the last frame drawn, shown again when drawing faulted.
	lastView tea.View
	// status is the root's own message in the footer (the model catalog's
	// models.json diagnostics); it expires like every status.
	status common.Status
	// auto is what pi-forge would auto-activate where a branch records no
	// Preset (the header shows it marked "(auto)").
	auto autoPresets
	// announced is the selection the panels were last told about
	// (announceSelection); lastJump the newest jump delivered.
	announced common.Selection
	lastJump  uint64
	// frames draws at most one frame per interval (frames.go).
	frames frameGate
	// trace is Options.Trace.
	trace *Trace
}

// New builds the root model with the five panels.
func New(opts Options) *Model {
	m := &Model{keys: opts.Keys, theme: opts.Theme, noColor: opts.NoColor, hasDark: true,
		frames: frameGate{interval: opts.FrameInterval}, trace: opts.Trace}
	m.com = &common.Common{Keys: &m.keys, Workspace: opts.Workspace, Timer: opts.Timer}
	if opts.Services == nil {
		opts.Services = services.New(opts.Workspace)
	}
	m.com.SetServices(opts.Services)
	m.cwdLabel = abbreviateHome(opts.Workspace.Cwd, opts.Home)
	m.applyTheme()
	m.help = help.New()
	m.help.Styles = m.com.Styles.Help
	m.palette = palette.New(m.com)
	m.find = find.New(m.com)
	presets := presetspanel.New(m.com)
	presets.SetKeys(m.keys.Presets)
	sessions := sessionpanel.New(m.com)
	if opts.WatchFiles {
		presets.EnableWatch()
		sessions.EnableWatch() // the open session is live: followed at its leaf
	}
	m.panels = []common.Panel{
		presets,
		capspanel.New(m.com),
		sessions,
		payloadspanel.New(m.com),
		agentspanel.New(m.com),
	}
	return m
}

// applyTheme resolves the styles for the theme settings and, when they
// changed, tells every panel (Common.Styles already holds the new ones).
func (m *Model) applyTheme() tea.Cmd {
	st := themes.For(m.theme, m.hasDark, m.noColor)
	changed := common.ThemeKey(&st) != common.ThemeKey(&m.com.Styles)
	m.com.Styles = st
	m.help.Styles = st.Help
	if !changed || m.panels == nil {
		return nil
	}
	return m.broadcast(common.ThemeChangedMsg{Styles: st})
}

// applyLanguage switches the process to l for the session (not saved) and,
// when it changed, tells every panel as a theme switch does: caches keyed
// by common.ThemeKey get new keys, and a cache without one is dropped on
// ThemeChangedMsg.
func (m *Model) applyLanguage(l i18n.Lang) tea.Cmd {
	if l == i18n.Current() {
		return nil
	}
	i18n.SetLanguage(l)
	m.clampHelp()
	if m.panels == nil {
		return nil
	}
	return m.broadcast(common.ThemeChangedMsg{Styles: m.com.Styles})
}

// Init asks the terminal for its background (auto theme) and starts every
// panel's loading.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, loadCatalogCmd(m.com.Services()), loadAutoPresetsCmd(m.com.Services()), m.palette.Prefetch()}
	for _, p := range m.panels {
		cmds = append(cmds, p.Init())
	}
	return guardCmd(tea.Batch(cmds...))
}

// Update routes messages in a fixed order: quit → open dialog → focused
// text input → global keys → focused panel. It, View and every command
// it returns run under session.GuardFaults (guard.go).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.trace != nil {
		defer m.trace.message(msg, time.Now())
	}
	if fc, ok := msg.(fileChangedMsg); ok {
		return m, m.status.Error(m.com, fileChangedStatus(fc.err))
	}
	var cmd tea.Cmd
	if err := session.GuardFaults(func() error {
		_, cmd = m.update(msg)
		cmd = tea.Batch(cmd, m.announceSelection(), m.offerSessions(), m.frames.afterUpdate(m.com, msg))
		return nil
	}); err != nil {
		return m, m.status.Error(m.com, fileChangedStatus(err))
	}
	return m, guardCmd(cmd)
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.com.Width, m.com.Height = msg.Width, msg.Height
		m.layout()
		m.clampHelp()
		var relayout tea.Cmd
		if m.whole != nil {
			relayout = m.whole.Layout(m.width)
		}
		return m, tea.Batch(relayout, m.broadcast(msg)) // panels re-render what the new size needs
	case tea.BackgroundColorMsg:
		m.hasDark = msg.IsDark()
		return m, m.applyTheme()
	case common.SelectionChangedMsg: // a test's; panels write Common.Selection
		m.com.Selection = msg.Selection
		return m, nil // announceSelection tells the panels
	case common.JumpMsg:
		return m, m.jump(msg)
	case redrawMsg:
		m.frames.pending = false // the View after this Update draws
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseMsg:
		return m, m.handleMouse(msg)
	case catalogLoadedMsg:
		if text := catalogStatus(msg.diags); text != "" {
			return m, m.status.Error(m.com, text)
		}
		return m, nil
	case common.StatusExpiredMsg:
		m.status.Expire(msg)
		return m, m.broadcast(msg)
	case autoPresetsMsg:
		m.auto = msg.auto
		return m, nil
	case common.LibraryChangedMsg:
		return m, tea.Batch(loadAutoPresetsCmd(m.com.Services()), m.palette.Prefetch(), m.broadcast(msg))
	case switchPanelMsg:
		m.active = int(msg)
		return m, nil
	case setThemeMsg:
		m.theme = themes.Mode(msg)
		return m, m.applyTheme()
	case setLanguageMsg:
		return m, m.applyLanguage(i18n.Lang(msg))
	case quitRequestMsg:
		return m, m.requestQuit()
	case showHelpMsg:
		m.showHelp, m.helpOffset = true, 0
		return m, nil
	case palette.ClosedMsg, find.ClosedMsg:
		return m, nil
	case palette.PressMsg: // a palette action: its key, pressed in the focused panel
		return m, m.routeToActive(msg.Key)
	case openFindMsg:
		return m, m.find.Open()
	}
	// The palette's sources and matches, and the view-whole overlay's
	// messages (show, laid out, pager done), are the root's own: disjoint
	// types, neither broadcast to the panels.
	if palette.Owns(msg) {
		var cmd tea.Cmd
		m.palette, cmd = m.palette.Update(msg)
		return m, cmd
	}
	if cmd, ok := m.wholeMsg(msg); ok {
		return m, cmd
	}
	var paletteCmd tea.Cmd
	if !isInput(msg) || m.palette.IsOpen() { // its debounce; cursor blinks and the like
		m.palette, paletteCmd = m.palette.Update(msg)
	}
	if isInput(msg) {
		if m.palette.IsOpen() { // a paste goes into the palette's query only
			return m, paletteCmd
		}
		return m, m.routeToActive(msg)
	}
	findCmd := m.find.Update(msg) // its search's results and timers
	paletteCmd = tea.Batch(paletteCmd, findCmd)
	// Command results and other messages reach every panel, so work a
	// panel started finishes even while another tab is showing; each panel
	// ignores message types it does not own.
	return m, tea.Batch(paletteCmd, m.broadcast(msg))
}

// isInput reports whether msg comes from the user (keys, mouse, paste):
// such messages go to the focused panel only.
func isInput(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg, tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		return true
	}
	return false
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if m.dialogs.Open() { // the quit question takes every key
		return m.dialogKey(msg)
	}
	if msg.String() == "ctrl+c" {
		return m.requestQuit()
	}
	if m.whole != nil {
		return m.wholeKey(msg)
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Help, k.Back, k.Quit):
			m.showHelp = false
		case key.Matches(msg, k.Up):
			m.helpOffset = max(0, m.helpOffset-1)
		case key.Matches(msg, k.Down):
			m.helpOffset++
		case key.Matches(msg, k.PageUp):
			m.helpOffset = max(0, m.helpOffset-10)
		case key.Matches(msg, k.PageDown):
			m.helpOffset += 10
		}
		m.clampHelp()
		return nil
	}
	if m.palette.IsOpen() {
		var cmd tea.Cmd
		m.palette, cmd = m.palette.Update(msg)
		return cmd
	}
	if m.find.IsOpen() {
		return m.find.Update(msg)
	}
	if m.panels[m.active].CapturesInput() {
		return m.routeToActive(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Help):
		m.showHelp, m.helpOffset = true, 0
		return nil
	case key.Matches(msg, k.Palette):
		return m.openPalette()
	case key.Matches(msg, k.Find):
		return m.find.Open()
	case key.Matches(msg, k.NextPane):
		m.panels[m.active].FocusNext()
		return nil
	case key.Matches(msg, k.PrevPane):
		m.panels[m.active].FocusPrev()
		return nil
	}
	for i, tab := range k.Tabs() {
		if key.Matches(msg, tab) {
			m.active = i
			return nil
		}
	}
	return m.routeToActive(msg)
}

func (m *Model) routeToActive(msg tea.Msg) tea.Cmd {
	p, cmd := m.panels[m.active].Update(msg)
	m.panels[m.active] = p
	return cmd
}

// announceSelection tells every panel, once, that Common.Selection
// changed during the message just handled: its owner (the Session panel
// for the session and entry, the Presets panel for the Preset) wrote it
// in its Update. The panels hear it in this same Update, in order, so no
// selection travels through a command where an older one could overtake
// a newer one. A panel may react by writing its own part (bounded rounds:
// the owners never write back what they are told).
func (m *Model) announceSelection() tea.Cmd {
	var cmds []tea.Cmd
	for round := 0; round < 4 && m.com.Selection != m.announced; round++ {
		m.announced = m.com.Selection
		cmds = append(cmds, m.broadcast(common.SelectionChangedMsg{Selection: m.announced}))
	}
	return tea.Batch(cmds...)
}

// jump takes the user where a panel pointed (common.JumpMsg): the target
// panel comes to the front, the global search closes, and every panel
// hears the jump once. A jump older than one already taken is dropped.
func (m *Model) jump(msg common.JumpMsg) tea.Cmd {
	if msg.Seq != 0 {
		if msg.Seq <= m.lastJump {
			return nil
		}
		m.lastJump = msg.Seq
	}
	if p := msg.Target.Panel; p >= 0 && p < len(m.panels) {
		m.active = p
	}
	return m.broadcast(msg)
}

func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.panels))
	for i, p := range m.panels {
		var cmd tea.Cmd
		m.panels[i], cmd = p.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// chromeHeight is the header, the tab bar and the footer; bodyTop is the
// body's first row (under the header and the tab bar).
const (
	chromeHeight = 3
	bodyTop      = 2
)

func (m *Model) layout() {
	m.help.SetWidth(m.width)
	bodyH := max(0, m.height-chromeHeight)
	for _, p := range m.panels {
		p.SetSize(m.width, bodyH)
	}
}

// paletteTop is the palette's row: just under the tab bar.
const paletteTop = bodyTop + 1

// View renders the whole screen; it does no IO and no heavy work. The
// palette and the dialogs draw over the current screen, dimmed.
func (m *Model) View() tea.View {
	now := m.com.Clock()
	if m.frames.skip(now) {
		return m.lastView // drawn less than a frame ago; a redraw is scheduled
	}
	m.frames.drew(now)
	if m.trace != nil {
		defer m.trace.event("view", time.Now(), "", false)
	}
	var v tea.View
	if session.GuardFaults(func() error { v = m.view(); return nil }) != nil {
		return m.lastView // the next frame reads the healed mapping
	}
	m.frames.took(now, m.com.Clock())
	m.lastView = v
	return v
}

func (m *Model) view() tea.View {
	bodyH := max(0, m.height-chromeHeight)
	body := m.panels[m.active].View()
	switch {
	case m.whole != nil:
		body = m.whole.View(&m.com.Styles, m.width, bodyH)
	case m.find.IsOpen():
		body = m.find.View(m.width, bodyH)
	}
	content := common.JoinRows(m.headerView(), m.tabsView(), body, m.footerView())
	switch {
	case m.showHelp: // centred on the body: the header stays readable
		box := m.helpView(bodyH)
		content = common.OverlayAt(content, box, m.width, m.height, -1, bodyTop+max(0, (bodyH-lipgloss.Height(box))/2))
	case m.palette.IsOpen():
		box := m.palette.View(m.com.Styles, m.width)
		content = common.OverlayAt(content, box, m.width, m.height, -1, min(paletteTop, max(0, m.height-lipgloss.Height(box))))
	}
	content = m.dialogs.View(content, m.width, m.height) // over everything
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "forgebench"
	return v
}

// handleMouse routes the mouse: a click on the tab bar switches panels;
// clicks and the wheel over the body go to the active panel in its own
// coordinates (its top-left cell is 0, 0), which finds the pane under
// the pointer. Nothing reaches a panel while a dialog is open.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if m.whole != nil && !m.dialogs.Open() {
		return m.wholeMouse(msg)
	}
	if m.showHelp || m.palette.IsOpen() || m.find.IsOpen() || m.dialogs.Open() {
		return nil
	}
	mouse := msg.Mouse()
	switch {
	case mouse.Y == bodyTop-1:
		if click, ok := msg.(tea.MouseClickMsg); ok && click.Button == tea.MouseLeft {
			if tab := m.tabAt(mouse.X); tab >= 0 {
				m.active = tab
			}
		}
		return nil
	case mouse.Y < bodyTop || mouse.Y >= m.height-1:
		return nil
	}
	return m.routeToActive(common.Offset(msg, 0, bodyTop))
}

func orNone(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
