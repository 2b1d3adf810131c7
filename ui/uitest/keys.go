package uitest

import (
	"math/rand/v2"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// namedKeys are the key names Key understands besides single characters.
var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab,
	"space": tea.KeySpace, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"home": tea.KeyHome, "end": tea.KeyEnd, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
}

// modifiers are the prefixes Key accepts, as bubbles/key spells them.
var modifiers = map[string]tea.KeyMod{"ctrl": tea.ModCtrl, "alt": tea.ModAlt, "shift": tea.ModShift}

// Key builds the key press a terminal sends for a key name as bubbles/key
// writes it: "enter", "esc", "space", "up", "ctrl+s", "shift+tab",
// "alt+up", or a single character ("q", "G", "?").
func Key(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	base := name
	for {
		prefix, rest, ok := strings.Cut(base, "+")
		m, isMod := modifiers[prefix]
		if !ok || !isMod || rest == "" {
			break
		}
		mod |= m
		base = rest
	}
	if code, ok := namedKeys[base]; ok {
		msg := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			msg.Text = " "
		}
		return msg
	}
	r := []rune(base)
	if len(r) == 0 {
		return tea.KeyPressMsg{}
	}
	if mod != 0 {
		return tea.KeyPressMsg{Code: r[0], Mod: mod}
	}
	return runeKey(r[0])
}

// runeKey is the press of one printable character.
func runeKey(r rune) tea.KeyPressMsg {
	if r == ' ' {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return tea.KeyPressMsg{Code: r, Text: string(r)}
}

// MoveKeys are n random movement keys (↑/↓ in both spellings: up, k,
// down, j) and the row they take a list's cursor to from cursor in a
// list of length rows, one row per key, stopping at the ends — what a
// burst must do (Harness.Burst).
func MoveKeys(rng *rand.Rand, n, cursor, length int) ([]string, int) {
	keys := make([]string, n)
	for i := range keys {
		switch rng.IntN(4) {
		case 0:
			keys[i], cursor = "down", min(length-1, cursor+1)
		case 1:
			keys[i], cursor = "j", min(length-1, cursor+1)
		case 2:
			keys[i], cursor = "up", max(0, cursor-1)
		default:
			keys[i], cursor = "k", max(0, cursor-1)
		}
	}
	return keys, cursor
}
