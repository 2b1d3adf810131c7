// Package ui is the bubbletea root of the workbench: layout (header, tabs,
// body, footer), focus, key routing and the help overlay. Each panel lives in
// its own sub-package and receives the shared common.Common.
package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/themes"
	agentspanel "github.com/forgebench/forgebench/ui/agents"
	capspanel "github.com/forgebench/forgebench/ui/capabilities"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/palette"
	payloadspanel "github.com/forgebench/forgebench/ui/payloads"
	presetspanel "github.com/forgebench/forgebench/ui/presets"
	sessionpanel "github.com/forgebench/forgebench/ui/sessions"
)

// Options configure the root model.
type Options struct {
	Workspace resources.Workspace
	Theme     themes.Mode
	NoColor   bool
	// Keys are every binding, with the user's overrides applied.
	Keys keymap.Set
	// Home is the user's home directory, used only to shorten paths.
	Home string
}

// Model is the root model. It stays thin: everything a panel shows is the
// panel's business.
type Model struct {
	com      *common.Common
	keys     keymap.Set
	panels   []common.Panel
	active   int
	showHelp bool
	help     help.Model
	palette  palette.Model
	// confirmQuit is the open "quit and discard …?" question (nil: none).
	confirmQuit *common.Confirm
	theme       themes.Mode
	noColor     bool
	hasDark     bool
	width       int
	height      int
	// cwdLabel is the header's cwd, abbreviated once at construction so
	// View never touches the environment.
	cwdLabel string
	// lastView is the last frame drawn, shown again when drawing faulted.
	lastView tea.View
	// status is a warning the footer shows until the next key press (the
	// model catalog's models.json diagnostics).
	status string
}

// New builds the root model with the five panels.
func New(opts Options) *Model {
	m := &Model{keys: opts.Keys, theme: opts.Theme, noColor: opts.NoColor, hasDark: true}
	m.com = &common.Common{Keys: &m.keys, Workspace: opts.Workspace}
	m.cwdLabel = abbreviateHome(opts.Workspace.Cwd, opts.Home)
	m.applyTheme()
	m.help = help.New()
	m.help.Styles = m.com.Styles.Help
	m.palette = palette.New(m.keys.CommandPalette)
	presets := presetspanel.New(m.com)
	presets.SetKeys(m.keys.Presets)
	m.panels = []common.Panel{
		presets,
		capspanel.New(m.com),
		sessionpanel.New(m.com),
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

// Init asks the terminal for its background (auto theme) and starts every
// panel's loading.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, loadCatalogCmd(m.com.Workspace.AgentDir)}
	for _, p := range m.panels {
		cmds = append(cmds, p.Init())
	}
	return guardCmd(tea.Batch(cmds...))
}

// Update routes messages in a fixed order: quit → open dialog → focused
// text input → global keys → focused panel. It and the commands it returns
// run under session.GuardFaults (guard.go).
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if fc, ok := msg.(fileChangedMsg); ok {
		m.status = fileChangedStatus(fc.err)
		return m, nil
	}
	var cmd tea.Cmd
	if err := session.GuardFaults(func() error { cmd = m.update(msg); return nil }); err != nil {
		m.status = fileChangedStatus(err)
	}
	return m, guardCmd(cmd)
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.com.Width, m.com.Height = msg.Width, msg.Height
		m.layout()
		return m.broadcast(msg) // panels re-render what the new size needs
	case tea.BackgroundColorMsg:
		m.hasDark = msg.IsDark()
		return m.applyTheme()
	case common.SelectionChangedMsg:
		m.com.Selection = msg.Selection
		return m.broadcast(msg)
	case tea.KeyPressMsg:
		m.status = ""
		return m.handleKey(msg)
	case catalogLoadedMsg:
		m.status = catalogStatus(msg.diags)
		return nil
	case switchPanelMsg:
		m.active = int(msg)
		return nil
	case common.ShowPanelMsg:
		if msg.Index >= 0 && msg.Index < len(m.panels) {
			m.active = msg.Index
		}
		return nil
	case setThemeMsg:
		m.theme = themes.Mode(msg)
		return m.applyTheme()
	case quitRequestMsg:
		return m.requestQuit()
	case showHelpMsg:
		m.showHelp = true
		return nil
	case palette.ClosedMsg:
		return nil
	}
	var paletteCmd tea.Cmd
	if m.palette.IsOpen() { // cursor blinks and the like
		m.palette, paletteCmd = m.palette.Update(msg)
	}
	if isInput(msg) {
		return tea.Batch(paletteCmd, m.routeToActive(msg))
	}
	// Command results and other messages reach every panel, so work a
	// panel started finishes even while another tab is showing; each panel
	// ignores message types it does not own.
	return tea.Batch(paletteCmd, m.broadcast(msg))
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
	if m.confirmQuit != nil {
		switch m.confirmQuit.Answer(msg) {
		case common.Yes:
			return tea.Quit
		case common.No:
			m.confirmQuit = nil
		}
		return nil
	}
	if msg.String() == "ctrl+c" {
		return m.requestQuit()
	}
	if m.showHelp {
		if key.Matches(msg, k.Help, k.Back, k.Quit) {
			m.showHelp = false
		}
		return nil
	}
	if m.palette.IsOpen() {
		var cmd tea.Cmd
		m.palette, cmd = m.palette.Update(msg)
		return cmd
	}
	if m.panels[m.active].CapturesInput() {
		return m.routeToActive(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return nil
	case key.Matches(msg, k.Palette):
		return m.palette.Open(m.actions())
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

// requestQuit quits at once unless a panel holds unsaved work; then it
// asks first, naming what would be discarded.
func (m *Model) requestQuit() tea.Cmd {
	var unsaved []string
	for _, p := range m.panels {
		if g, ok := p.(common.Guard); ok {
			if what, dirty := g.Unsaved(); dirty {
				unsaved = append(unsaved, what)
			}
		}
	}
	if len(unsaved) == 0 {
		return tea.Quit
	}
	m.confirmQuit = &common.Confirm{
		Title: "Quit forgebench?",
		Body:  "Quit and discard " + strings.Join(unsaved, " and ") + "?",
		Yes:   m.keys.Confirm.Yes,
		No:    m.keys.Confirm.No,
	}
	return nil
}

func (m *Model) routeToActive(msg tea.Msg) tea.Cmd {
	p, cmd := m.panels[m.active].Update(msg)
	m.panels[m.active] = p
	return cmd
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

// chromeHeight is the header, the tab bar and the footer.
const chromeHeight = 3

func (m *Model) layout() {
	m.help.SetWidth(m.width)
	bodyH := max(0, m.height-chromeHeight)
	for _, p := range m.panels {
		p.SetSize(m.width, bodyH)
	}
}

// View renders the whole screen; it does no IO and no heavy work.
func (m *Model) View() tea.View {
	var v tea.View
	if session.GuardFaults(func() error { v = m.view(); return nil }) != nil {
		return m.lastView // the next frame reads the healed mapping
	}
	m.lastView = v
	return v
}

func (m *Model) view() tea.View {
	var body string
	bodyH := max(0, m.height-chromeHeight)
	switch {
	case m.showHelp:
		body = m.helpView(bodyH)
	case m.palette.IsOpen():
		box := lipgloss.NewStyle().MaxWidth(m.width).MaxHeight(bodyH).Render(m.palette.View(m.com.Styles, m.width))
		body = lipgloss.Place(m.width, bodyH, lipgloss.Center, lipgloss.Top, "\n"+box)
	default:
		body = m.panels[m.active].View()
	}
	content := lipgloss.JoinVertical(lipgloss.Left, m.headerView(), m.tabsView(), body, m.footerView())
	if m.confirmQuit != nil {
		content = common.Overlay(content, m.confirmQuit.View(&m.com.Styles, m.width, m.height), m.width, m.height)
	}
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "forgebench"
	return v
}

func (m *Model) headerView() string {
	st := m.com.Styles
	ws := m.com.Workspace
	sel := m.com.Selection
	field := func(k, v string) string { return st.App.HeaderKey.Render(k+" ") + st.App.HeaderValue.Render(v) }
	trust := st.Text.Success.Render("trusted")
	if !ws.Trust.Trusted {
		trust = st.Text.Warning.Render("untrusted (read-only)")
	}
	session := orNone(sel.SessionName)
	if session == "—" && sel.SessionFile != "" {
		session = baseName(sel.SessionFile)
	}
	parts := []string{
		st.Pane.TitleFocused.Render("forgebench"),
		field("cwd", m.cwdLabel),
		st.App.HeaderKey.Render("trust ") + trust,
		field("session", session),
		field("entry", orLeaf(sel)),
		field("preset", orNone(sel.PresetID)),
	}
	line := strings.Join(parts, st.App.TabGap.Render(" │ "))
	return st.App.Header.Width(m.width).Render(ansi.Truncate(line, max(0, m.width-2), "…"))
}

func (m *Model) tabsView() string {
	st := m.com.Styles
	tabs := make([]string, len(m.panels))
	for i, p := range m.panels {
		label := m.keys.Tabs()[i].Help().Key + " " + p.Title()
		if i == m.active {
			tabs[i] = st.App.TabActive.Render(label)
		} else {
			tabs[i] = st.App.Tab.Render(label)
		}
	}
	return ansi.Truncate(strings.Join(tabs, st.App.TabGap.Render("│")), m.width, "…")
}

// footerView is the short help: the focused panel's keys, then the global
// keys, which always stay visible (the panel's part is cut first). While a
// text input has focus the global keys type text, so only the panel's are
// shown. A status warning replaces it until the next key press.
func (m *Model) footerView() string {
	width := max(0, m.width-2)
	if m.status != "" {
		return m.com.Styles.App.Footer.Render(ansi.Truncate(m.com.Styles.Text.Warning.Render(m.status), width, "…"))
	}
	panel := m.help.ShortHelpView(m.panels[m.active].ShortHelp())
	if m.panels[m.active].CapturesInput() {
		return m.com.Styles.App.Footer.Render(ansi.Truncate(panel, width, "…"))
	}
	global := m.help.ShortHelpView(m.keys.ShortHelp())
	if panel == "" {
		return m.com.Styles.App.Footer.Render(ansi.Truncate(global, width, "…"))
	}
	sep := m.com.Styles.Help.ShortSeparator.Render(" • ")
	room := width - ansi.StringWidth(global) - ansi.StringWidth(sep)
	if room < 8 {
		return m.com.Styles.App.Footer.Render(ansi.Truncate(global, width, "…"))
	}
	h := m.help
	h.SetWidth(room) // whole bindings that fit, then "…"
	return m.com.Styles.App.Footer.Render(h.ShortHelpView(m.panels[m.active].ShortHelp()) + sep + global)
}

// helpView composes the focused panel's keys with the global keys, as
// generated from the keymap, in a dialog clamped to the body area. Columns
// that do not fit side by side wrap onto further rows instead of being cut.
func (m *Model) helpView(height int) string {
	st := m.com.Styles
	groups := withoutRepeats(m.panels[m.active].FullHelp(), m.keys.FullHelp())
	h := m.help
	avail := max(10, m.width-6)
	h.SetWidth(0) // measure unclipped; rows are packed to fit below
	const gap = 4
	var rows []string
	var row [][]key.Binding
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			rows = append(rows, h.FullHelpView(row))
			row, rowW = nil, 0
		}
	}
	for _, g := range groups {
		w := lipgloss.Width(h.FullHelpView([][]key.Binding{g}))
		if len(row) > 0 && rowW+gap+w > avail {
			flush()
		}
		if len(row) > 0 {
			rowW += gap
		}
		row, rowW = append(row, g), rowW+w
	}
	flush()
	title := st.Dialog.Title.Render("Keys — " + m.panels[m.active].Title())
	body := strings.Join(rows, "\n\n")
	box := st.Dialog.Box.MaxWidth(m.width).MaxHeight(height).
		Render(title + "\n\n" + body + "\n\n" + st.Text.Muted.Render("esc or ? closes"))
	return lipgloss.Place(m.width, height, lipgloss.Center, lipgloss.Center, box)
}

func orNone(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orLeaf(s common.Selection) string {
	if s.SessionFile == "" {
		return "—"
	}
	if s.EntryID == "" {
		return "leaf"
	}
	return s.EntryID
}

// withoutRepeats appends the global groups to the panel's, leaving out a
// global binding the panel already lists with the same key and meaning
// (both have "esc back"), so the overlay never shows a key twice.
func withoutRepeats(panel, global [][]key.Binding) [][]key.Binding {
	seen := map[string]bool{}
	for _, g := range panel {
		for _, b := range g {
			seen[b.Help().Key+"\x00"+b.Help().Desc] = true
		}
	}
	out := append([][]key.Binding{}, panel...)
	for _, g := range global {
		var kept []key.Binding
		for _, b := range g {
			if !seen[b.Help().Key+"\x00"+b.Help().Desc] {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}
