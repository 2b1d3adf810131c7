package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Nav are the list-navigation keys every pane shares; panels embed it so
// moving around feels the same everywhere and is rebound in one place.
type Nav struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
}

// DefaultNav returns the stock navigation keys (arrows and vi keys).
func DefaultNav() Nav {
	return Nav{
		Up:       bind([]string{"up", "k"}, "↑/k", i18n.Mark("up")),
		Down:     bind([]string{"down", "j"}, "↓/j", i18n.Mark("down")),
		PageUp:   bind([]string{"pgup", "ctrl+u"}, "pgup", i18n.Mark("page up")),
		PageDown: bind([]string{"pgdown", "ctrl+d"}, "pgdn", i18n.Mark("page down")),
		Top:      bind([]string{"home", "g"}, "g", i18n.Mark("top")),
		Bottom:   bind([]string{"end", "G"}, "G", i18n.Mark("bottom")),
	}
}

// addNamed adds the navigation bindings to an override map under prefix
// ("session.up", "presets.top", …).
func (n *Nav) addNamed(prefix string, m map[string]*key.Binding) map[string]*key.Binding {
	m[prefix+"up"], m[prefix+"down"] = &n.Up, &n.Down
	m[prefix+"page-up"], m[prefix+"page-down"] = &n.PageUp, &n.PageDown
	m[prefix+"top"], m[prefix+"bottom"] = &n.Top, &n.Bottom
	return m
}

// bind is one binding with its help text.
func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}
