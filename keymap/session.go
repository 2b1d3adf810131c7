package keymap

import "charm.land/bubbles/v2/key"

// Session are the keys of the Session panel (panel 3): moving in its
// lists, folding the branch tree, opening an entry, and switching the
// detail pane between the entry, the rebuilt context and the stats.
type Session struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Open     key.Binding
	Back     key.Binding
	Filter   key.Binding
	// Scope switches the picker between this project and all projects.
	Scope  key.Binding
	Fold   key.Binding
	Unfold key.Binding
	// TreeFilter cycles the tree's display modes (default, all, user
	// messages only, labeled only), like Pi's /tree filters.
	TreeFilter key.Binding
	Expand     key.Binding
	Thinking   key.Binding
	Context    key.Binding
	Stats      key.Binding
	Follow     key.Binding
	Reload     key.Binding
}

// DefaultSession returns the stock Session panel bindings. Fold and unfold
// follow Pi's /tree habits (left/right, or h/l for vi users).
func DefaultSession() Session {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return Session{
		Up:         b([]string{"up", "k"}, "↑/k", "up"),
		Down:       b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:     b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:   b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:        b([]string{"home", "g"}, "g", "top"),
		Bottom:     b([]string{"end", "G"}, "G", "bottom"),
		Open:       b([]string{"enter"}, "enter", "open/select"),
		Back:       b([]string{"esc"}, "esc", "back"),
		Filter:     b([]string{"/"}, "/", "filter"),
		Scope:      b([]string{"a"}, "a", "all projects"),
		Fold:       b([]string{"left", "h"}, "←/h", "fold"),
		Unfold:     b([]string{"right", "l"}, "→/l", "unfold"),
		TreeFilter: b([]string{"f"}, "f", "tree filter"),
		Expand:     b([]string{"space"}, "space", "expand tools"),
		Thinking:   b([]string{"t"}, "t", "thinking"),
		Context:    b([]string{"c"}, "c", "context here"),
		Stats:      b([]string{"s"}, "s", "stats"),
		Follow:     b([]string{"F"}, "F", "follow"),
		Reload:     b([]string{"r"}, "r", "reload"),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (s *Session) Named() map[string]*key.Binding {
	return map[string]*key.Binding{
		"session-up": &s.Up, "session-down": &s.Down, "session-page-up": &s.PageUp,
		"session-page-down": &s.PageDown, "session-top": &s.Top, "session-bottom": &s.Bottom,
		"session-open": &s.Open, "session-back": &s.Back, "session-filter": &s.Filter, "session-scope": &s.Scope,
		"session-fold": &s.Fold, "session-unfold": &s.Unfold, "session-tree-filter": &s.TreeFilter, "session-expand": &s.Expand,
		"session-thinking": &s.Thinking, "session-context": &s.Context, "session-stats": &s.Stats,
		"session-follow": &s.Follow, "session-reload": &s.Reload,
	}
}
