// Package keymap holds every key binding of the workbench as data. Help text
// is generated from these bindings, and user overrides rebind them by name, so
// what the help says and what a key does can never drift apart.
package keymap

import (
	"sort"
	"strings"

	"github.com/forgebench/forgebench/i18n"

	"charm.land/bubbles/v2/key"
)

// Global are the keys the root model handles whatever panel has focus.
type Global struct {
	Quit    key.Binding
	Help    key.Binding
	Palette key.Binding
	// Find opens the global search over every session's text.
	Find     key.Binding
	Filter   key.Binding
	Back     key.Binding
	Reload   key.Binding
	NextPane key.Binding
	PrevPane key.Binding
	Presets  key.Binding
	Caps     key.Binding
	Session  key.Binding
	Payloads key.Binding
	Agents   key.Binding
	Edit     key.Binding
	// Copy, View and Pager act on the thing under the focus in every
	// panel (docs/KEYS.md): copy it to the clipboard (OSC 52), show it
	// whole in a scrollable overlay, open it in $PAGER.
	Copy  key.Binding
	View  key.Binding
	Pager key.Binding
	Nav
	Select key.Binding
	Expand key.Binding
}

// DefaultGlobal returns the stock global bindings (k9s/soft-serve habits:
// `?` help, `:` palette, `/` filter, esc back, q quit).
func DefaultGlobal() Global {
	return Global{
		Nav:      DefaultNav(),
		Quit:     bind([]string{"q", "ctrl+c"}, "q", i18n.Mark("quit")),
		Help:     bind([]string{"?"}, "?", i18n.Mark("help")),
		Palette:  bind([]string{":"}, ":", i18n.Mark("command palette")),
		Find:     bind([]string{"ctrl+f"}, "ctrl+f", i18n.Mark("search all sessions")),
		Filter:   bind([]string{"/"}, "/", i18n.Mark("filter")),
		Back:     bind([]string{"esc"}, "esc", i18n.Mark("back")),
		Reload:   bind([]string{"r"}, "r", i18n.Mark("reload")),
		NextPane: bind([]string{"tab"}, "tab", i18n.Mark("next pane")),
		PrevPane: bind([]string{"shift+tab"}, "shift+tab", i18n.Mark("previous pane")),
		Presets:  bind([]string{"1"}, "1", i18n.Mark("presets")),
		Caps:     bind([]string{"2"}, "2", i18n.Mark("capabilities")),
		Session:  bind([]string{"3"}, "3", i18n.Mark("session")),
		Payloads: bind([]string{"4"}, "4", i18n.Mark("payloads")),
		Agents:   bind([]string{"5"}, "5", i18n.Mark("agents")),
		Edit:     bind([]string{"e"}, "e", i18n.Mark("edit in $EDITOR")),
		Copy:     bind([]string{"y"}, "y", i18n.Mark("copy")),
		View:     bind([]string{"v"}, "v", i18n.Mark("view whole")),
		Pager:    bind([]string{"o"}, "o", i18n.Mark("open in $PAGER")),
		Select:   bind([]string{"enter"}, "enter", i18n.Mark("open")),
		Expand:   bind([]string{"space"}, "space", i18n.Mark("expand/collapse")),
	}
}

// Tabs returns the panel-switch bindings in panel order.
func (g *Global) Tabs() []key.Binding {
	return []key.Binding{g.Presets, g.Caps, g.Session, g.Payloads, g.Agents}
}

// Named exposes the bindings under the stable names used by overrides.
func (g *Global) Named() map[string]*key.Binding {
	return g.Nav.addNamed("", map[string]*key.Binding{
		"quit": &g.Quit, "help": &g.Help, "palette": &g.Palette, "find": &g.Find, "filter": &g.Filter,
		"back": &g.Back, "reload": &g.Reload, "next-pane": &g.NextPane, "prev-pane": &g.PrevPane,
		"panel-presets": &g.Presets, "panel-capabilities": &g.Caps, "panel-session": &g.Session,
		"panel-payloads": &g.Payloads, "panel-agents": &g.Agents, "edit": &g.Edit, "copy": &g.Copy,
		"view-whole": &g.View, "pager": &g.Pager,
		"select": &g.Select, "expand": &g.Expand,
	})
}

// ShortHelp is the root's part of the footer help. Keys that only a panel
// acts on (navigation, filter, edit, …) appear in that panel's help instead,
// so help never advertises a key that does nothing where the user is.
func (g *Global) ShortHelp() []key.Binding {
	return []key.Binding{g.NextPane, g.Palette, g.Help, g.Quit}
}

// FullHelp is the root's part of the `?` overlay, in columns.
func (g *Global) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		g.Tabs(),
		{g.NextPane, g.PrevPane, g.Back},
		{g.Palette, g.Find, g.Help, g.Quit},
	}
}

// Rebinder is implemented by every keymap that accepts user overrides.
type Rebinder interface {
	Named() map[string]*key.Binding
}

// Apply rebinds the named bindings of m. Every name must exist and every
// binding needs at least one key; on any error nothing is changed, so a bad
// override file never leaves a half-applied keymap. Unknown names are
// shown quoted and escaped (Quote). Apply does not look for conflicts:
// Set.Conflicts does.
func Apply(m Rebinder, overrides map[string][]string) error {
	named := m.Named()
	var unknown []string
	for name, keys := range overrides {
		if _, ok := named[name]; !ok {
			unknown = append(unknown, Quote(name))
			continue
		}
		if len(keys) == 0 {
			return i18n.Errorf("key override %s: at least one key is required", Quote(name))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		known := make([]string, 0, len(named))
		for n := range named {
			known = append(known, n)
		}
		sort.Strings(known)
		return i18n.Errorf("unknown key binding name(s) %s (known: %s)",
			strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	for name, keys := range overrides {
		b := named[name]
		b.SetKeys(keys...)
		b.SetHelp(strings.Join(keys, "/"), b.Help().Desc)
	}
	return nil
}

// WithHelp is b with another help text and the same keys: a panel that
// names what one key does where the user is (enter "opens the tree" in
// one list, "shows details" in another).
func WithHelp(b key.Binding, help string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, help))
}
