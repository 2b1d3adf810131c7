package palette

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// PressMsg runs a binding's action as if its key was pressed in the
// focused panel: the root hands Key to that panel (not to its own global
// keys, which a panel's key may shadow).
type PressMsg struct{ Key tea.KeyPressMsg }

// namedKeys are the key names of bubbles/key besides single characters.
var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
	"space": tea.KeySpace, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	"insert": tea.KeyInsert,
	"f1":     tea.KeyF1, "f2": tea.KeyF2, "f3": tea.KeyF3, "f4": tea.KeyF4, "f5": tea.KeyF5, "f6": tea.KeyF6,
	"f7": tea.KeyF7, "f8": tea.KeyF8, "f9": tea.KeyF9, "f10": tea.KeyF10, "f11": tea.KeyF11, "f12": tea.KeyF12,
}

// modifiers are the prefixes of a key name, as bubbles/key spells them.
var modifiers = map[string]tea.KeyMod{"ctrl": tea.ModCtrl, "alt": tea.ModAlt, "shift": tea.ModShift}

// KeyPress is the key press a terminal sends for a key name as a binding
// lists it ("enter", "ctrl+s", "shift+tab", "G", "/"); ok is false for
// a name it cannot build, which then never matches its binding.
func KeyPress(name string) (tea.KeyPressMsg, bool) {
	var mod tea.KeyMod
	base := name
	for {
		prefix, rest, found := strings.Cut(base, "+")
		m, isMod := modifiers[prefix]
		if !found || !isMod || rest == "" {
			break
		}
		mod |= m
		base = rest
	}
	var msg tea.KeyPressMsg
	if code, named := namedKeys[base]; named {
		msg = tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			msg.Text = " "
		}
	} else {
		r := []rune(base)
		if len(r) != 1 {
			return tea.KeyPressMsg{}, false
		}
		msg = tea.KeyPressMsg{Code: r[0], Mod: mod}
		if mod == 0 {
			msg.Text = base
		}
	}
	return msg, msg.String() == name
}

// BindingPress is the press of a binding's first key that the binding
// itself matches (false when it has none).
func BindingPress(b key.Binding) (tea.KeyPressMsg, bool) {
	for _, name := range b.Keys() {
		if msg, ok := KeyPress(name); ok && key.Matches(msg, b) {
			return msg, true
		}
	}
	return tea.KeyPressMsg{}, false
}
