package keymap

import "charm.land/bubbles/v2/key"

// Presets are the keys of the Presets panel (panel 1): the preset list,
// the item list, the inline block editor and forms, the preview dock and
// the profiles view.
type Presets struct {
	Up        key.Binding
	Down      key.Binding
	PageUp    key.Binding
	PageDown  key.Binding
	Top       key.Binding
	Bottom    key.Binding
	Open      key.Binding
	Back      key.Binding
	Toggle    key.Binding
	MoveUp    key.Binding
	MoveDown  key.Binding
	AddBlock  key.Binding
	AddSlot   key.Binding
	Duplicate key.Binding
	Delete    key.Binding
	Edit      key.Binding
	Save      key.Binding
	Fork      key.Binding
	New       key.Binding
	Undo      key.Binding
	Preview   key.Binding
	Profiles  key.Binding
	Reload    key.Binding
	Confirm   key.Binding
	Cancel    key.Binding
}

// DefaultPresets returns the stock Presets panel bindings.
func DefaultPresets() Presets {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return Presets{
		Up:        b([]string{"up", "k"}, "↑/k", "up"),
		Down:      b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:    b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown:  b([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"),
		Top:       b([]string{"home", "g"}, "g", "top"),
		Bottom:    b([]string{"end", "G"}, "G", "bottom"),
		Open:      b([]string{"enter"}, "enter", "open"),
		Back:      b([]string{"esc"}, "esc", "back"),
		Toggle:    b([]string{"space"}, "space", "enable/disable"),
		MoveUp:    b([]string{"K", "alt+up"}, "K", "move up"),
		MoveDown:  b([]string{"J", "alt+down"}, "J", "move down"),
		AddBlock:  b([]string{"a"}, "a", "add block"),
		AddSlot:   b([]string{"A"}, "A", "add slot"),
		Duplicate: b([]string{"d"}, "d", "duplicate"),
		Delete:    b([]string{"x"}, "x", "delete"),
		Edit:      b([]string{"e"}, "e", "edit in $EDITOR"),
		Save:      b([]string{"ctrl+s"}, "ctrl+s", "save"),
		Fork:      b([]string{"f"}, "f", "fork"),
		New:       b([]string{"n"}, "n", "new preset"),
		Undo:      b([]string{"u"}, "u", "undo"),
		Preview:   b([]string{"v"}, "v", "preview"),
		Profiles:  b([]string{"p"}, "p", "profiles"),
		Reload:    b([]string{"r"}, "r", "reload"),
		Confirm:   b([]string{"y", "enter"}, "y", "confirm"),
		Cancel:    b([]string{"n", "esc"}, "n/esc", "cancel"),
	}
}

// Named exposes the bindings under the stable names used by overrides.
func (p *Presets) Named() map[string]*key.Binding {
	return map[string]*key.Binding{
		"presets-up": &p.Up, "presets-down": &p.Down, "presets-page-up": &p.PageUp,
		"presets-page-down": &p.PageDown, "presets-top": &p.Top, "presets-bottom": &p.Bottom,
		"presets-open": &p.Open, "presets-back": &p.Back, "presets-toggle": &p.Toggle,
		"presets-move-up": &p.MoveUp, "presets-move-down": &p.MoveDown,
		"presets-add-block": &p.AddBlock, "presets-add-slot": &p.AddSlot,
		"presets-duplicate": &p.Duplicate, "presets-delete": &p.Delete, "presets-edit": &p.Edit,
		"presets-save": &p.Save, "presets-fork": &p.Fork, "presets-new": &p.New,
		"presets-undo": &p.Undo, "presets-preview": &p.Preview, "presets-profiles": &p.Profiles,
		"presets-reload": &p.Reload, "presets-confirm": &p.Confirm, "presets-cancel": &p.Cancel,
	}
}
