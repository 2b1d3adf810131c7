package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/palette"
)

// Messages the root's palette actions emit.
type (
	switchPanelMsg int
	setThemeMsg    themes.Mode
	// setLanguageMsg switches the language for the rest of the session
	// (not saved).
	setLanguageMsg i18n.Lang
	showHelpMsg    struct{}
	// quitRequestMsg quits through the same guard as q and ctrl+c.
	quitRequestMsg struct{}
	// openFindMsg opens the global search view.
	openFindMsg struct{}
)

// ActionProvider is implemented by panels that add commands to the palette
// while they are focused.
type ActionProvider interface {
	Actions() []palette.Action
}

// sessionLister is the Session panel: the sessions its picker lists.
type sessionLister interface {
	ListedSessions() []session.ListItem
}

// agentLister is the Agents panel: the agents of its tree.
type agentLister interface {
	TreeAgents() (root string, agents []*subagent.Agent)
}

// offerSessions hands the palette the Session panel's listing after
// every Update, so a new listing's rows are built before `:` is pressed.
func (m *Model) offerSessions() tea.Cmd {
	for _, p := range m.panels {
		if s, ok := p.(sessionLister); ok {
			return m.palette.Offer(s.ListedSessions())
		}
	}
	return nil
}

// openPalette opens the `:` palette over the focused panel's actions and
// the places the panels hold.
func (m *Model) openPalette() tea.Cmd {
	var places palette.Places
	for _, p := range m.panels {
		if s, ok := p.(sessionLister); ok {
			places.Sessions = s.ListedSessions()
		}
		if a, ok := p.(agentLister); ok {
			places.AgentRoot, places.Agents = a.TreeAgents()
		}
	}
	return m.palette.Open(m.actions(), places)
}

// actions lists what the palette runs: the focused pane's keys (its
// short help: the bindings that act where the user is, with their help
// text, run as if pressed), the panel's own commands, then the root's,
// each with the key that does the same as the hint.
func (m *Model) actions() []palette.Action {
	p := m.panels[m.active]
	var provided []palette.Action
	if ap, ok := p.(ActionProvider); ok {
		provided = ap.Actions()
	}
	out := append(m.bindingActions(p, provided), provided...)
	for i, panel := range m.panels {
		tab := m.keys.Tabs()[i].Help()
		a := palette.Titled(i18n.Mark("Go to %s"), switchPanelMsg(i), tab.Key, panel.Title())
		a.Keywords = "go to " + tab.Desc //i18n:raw English keywords: the tab key's help names the panel
		out = append(out, a)
	}
	for _, mode := range []themes.Mode{themes.Dark, themes.Light, themes.Auto} {
		a := palette.Titled(i18n.Mark("Theme: %s"), setThemeMsg(mode), "", i18n.T(themeNames[mode]))
		a.Keywords = "theme " + string(mode)
		out = append(out, a)
	}
	for _, l := range i18n.Langs() {
		if l == i18n.Current() {
			continue // the switch offers the other languages
		}
		a := palette.Titled(i18n.Mark("Language: %s"), setLanguageMsg(l), "", l.Name())
		a.Keywords = "language " + string(l) + " " + l.Name()
		out = append(out, a)
	}
	return append(out,
		palette.Titled(i18n.Mark("Search all sessions"), openFindMsg{}, m.keys.Find.Help().Key),
		palette.Titled(i18n.Mark("Show keys"), showHelpMsg{}, m.keys.Help.Help().Key),
		palette.Titled(i18n.Mark("Quit"), quitRequestMsg{}, m.keys.Quit.Help().Key),
	)
}

// themeNames are the theme modes as the palette names them.
var themeNames = map[themes.Mode]string{themes.Dark: i18n.Mark("dark"), themes.Light: i18n.Mark("light"), themes.Auto: i18n.Mark("auto")}

// bindingActions are the focused pane's keys as palette actions: the
// bindings of its short help (the keymap's data: the key and its help
// text), less moving the cursor and what the panel's own commands
// already offer under the same key. Choosing one presses its key in the
// panel (palette.PressMsg).
func (m *Model) bindingActions(p common.Panel, provided []palette.Action) []palette.Action {
	seen := map[string]bool{}
	for _, a := range provided {
		seen[a.Hint] = true
	}
	var out []palette.Action
	for _, b := range p.ShortHelp() {
		h := b.Help()
		if !b.Enabled() || h.Desc == "" || seen[h.Key] || m.isNav(b) {
			continue
		}
		press, ok := palette.BindingPress(b)
		if !ok {
			continue
		}
		seen[h.Key] = true
		out = append(out, palette.Action{Title: i18n.T("%s: %s", p.Title(), common.HelpDesc(b)), Keywords: h.Desc, Hint: h.Key,
			Msg: palette.PressMsg{Key: press}})
	}
	return out
}

// isNav reports whether b only moves a cursor: every key of it is one of
// the navigation keys (keymap.Nav).
func (m *Model) isNav(b key.Binding) bool {
	nav := map[string]bool{}
	for _, n := range []key.Binding{m.keys.Up, m.keys.Down, m.keys.PageUp, m.keys.PageDown, m.keys.Top, m.keys.Bottom} {
		for _, k := range n.Keys() {
			nav[k] = true
		}
	}
	for _, k := range b.Keys() {
		if !nav[k] {
			return false
		}
	}
	return len(b.Keys()) > 0
}
