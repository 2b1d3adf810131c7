package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/keymap"
)

// without returns a copy of list without element i; list is never changed
// (it may belong to the shared, immutable draft).
func without[T any](list []T, i int) []T {
	out := append([]T(nil), list[:i]...)
	return append(out, list[i+1:]...)
}

// swapped returns a copy of list with elements i and j exchanged.
func swapped[T any](list []T, i, j int) []T {
	out := append([]T(nil), list...)
	out[i], out[j] = out[j], out[i]
	return out
}

// moveStep is -1 for the move-up key and +1 for move-down.
func moveStep(kp tea.KeyPressMsg, k *keymap.Forms) int {
	if key.Matches(kp, k.MoveUp) {
		return -1
	}
	return 1
}
