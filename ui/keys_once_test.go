package ui

import (
	"strings"
	"testing"
)

// Issue 21: the global search drew its keys in its own frame and the
// footer drew them again. A key hint appears once on the screen.
func TestFindViewKeysAppearOnce(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		m, h := demoHarness(t)
		h.Resize(size[0], size[1])
		h.Press("ctrl+f")
		s := screen(m)
		for _, hint := range []string{"go to hit", "esc close"} {
			if n := strings.Count(s, hint); n != 1 {
				t.Errorf("%dx%d: %q shows %d times:\n%s", size[0], size[1], hint, n, s)
			}
		}
	}
}
