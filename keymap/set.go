package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Set is every binding of the workbench, one value the root hands to all
// panels (common.Common.Keys). The global keys are embedded, so
// set.Quit is the global quit; each panel and component has its group.
type Set struct {
	Global
	Confirm Confirm
	// CommandPalette are the keys inside the `:` palette (Global.Palette
	// is the key that opens it).
	CommandPalette Palette
	Presets        Presets
	Capabilities   Capabilities
	Session        Session
	Payloads       Payloads
	Forms          Forms
	Agents         Agents
	// Search are the keys of every search and filter line.
	Search Search
	// FindView are the keys inside the global search view (Global.Find
	// opens it).
	FindView Find
}

// DefaultSet returns the stock bindings of every group.
func DefaultSet() Set {
	return Set{
		Global:         DefaultGlobal(),
		Confirm:        DefaultConfirm(),
		CommandPalette: DefaultPalette(),
		Presets:        DefaultPresets(),
		Capabilities:   DefaultCapabilities(),
		Session:        DefaultSession(),
		Payloads:       DefaultPayloads(),
		Forms:          DefaultForms(),
		Agents:         DefaultAgents(),
		Search:         DefaultSearch(),
		FindView:       DefaultFind(),
	}
}

// Named exposes every binding under the names a user's config file uses:
// the global keys by their own name ("quit", "next-pane"), the others
// prefixed by their group ("presets.save", "session.follow", "payloads.swap",
// "form.commit", "palette.run", "confirm.yes", "agents.transcript",
// "search.next").
func (s *Set) Named() map[string]*key.Binding {
	out := s.Global.Named()
	for _, group := range []Rebinder{&s.Confirm, &s.CommandPalette, &s.Presets, &s.Capabilities, &s.Session, &s.Payloads, &s.Forms, &s.Agents, &s.Search, &s.FindView} {
		for name, b := range group.Named() {
			out[name] = b
		}
	}
	return out
}

// Confirm are the keys that answer the root's yes/no questions (quit
// with unsaved work).
type Confirm struct {
	Yes key.Binding
	No  key.Binding
}

// DefaultConfirm returns the stock answer keys.
func DefaultConfirm() Confirm {
	return Confirm{
		Yes: bind([]string{"y"}, "y", i18n.Mark("yes, discard")),
		No:  bind([]string{"n", "esc"}, "n/esc", i18n.Mark("no, keep working")),
	}
}

// Named exposes the answer keys for overrides.
func (c *Confirm) Named() map[string]*key.Binding {
	return map[string]*key.Binding{"confirm.yes": &c.Yes, "confirm.no": &c.No}
}

// Palette are the keys of the `:` command palette.
type Palette struct {
	Up, Down, Run, Close key.Binding
}

// DefaultPalette returns the stock palette keys.
func DefaultPalette() Palette {
	return Palette{
		Up:    bind([]string{"up", "ctrl+p"}, "↑", i18n.Mark("previous")),
		Down:  bind([]string{"down", "ctrl+n"}, "↓", i18n.Mark("next")),
		Run:   bind([]string{"enter"}, "enter", i18n.Mark("run")),
		Close: bind([]string{"esc"}, "esc", i18n.Mark("close")),
	}
}

// Named exposes the palette keys for overrides.
func (p *Palette) Named() map[string]*key.Binding {
	return map[string]*key.Binding{"palette.up": &p.Up, "palette.down": &p.Down, "palette.run": &p.Run, "palette.close": &p.Close}
}
