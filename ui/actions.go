package ui

import (
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/palette"
)

// Messages the root's palette actions emit.
type (
	switchPanelMsg int
	setThemeMsg    themes.Mode
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

// actions lists what the palette offers: the focused panel's commands
// first, then the root's, with the key that does the same as the hint.
func (m *Model) actions() []palette.Action {
	var out []palette.Action
	if p, ok := m.panels[m.active].(ActionProvider); ok {
		out = append(out, p.Actions()...)
	}
	for i, p := range m.panels {
		out = append(out, palette.Action{Title: "Go to " + p.Title(), Hint: m.keys.Tabs()[i].Help().Key, Msg: switchPanelMsg(i)})
	}
	for _, mode := range []themes.Mode{themes.Dark, themes.Light, themes.Auto} {
		out = append(out, palette.Action{Title: "Theme: " + string(mode), Msg: setThemeMsg(mode)})
	}
	out = append(out,
		palette.Action{Title: "Search all sessions", Hint: m.keys.Find.Help().Key, Msg: openFindMsg{}},
		palette.Action{Title: "Show keys", Hint: m.keys.Help.Help().Key, Msg: showHelpMsg{}},
		palette.Action{Title: "Quit", Hint: m.keys.Quit.Help().Key, Msg: quitRequestMsg{}},
	)
	return out
}
