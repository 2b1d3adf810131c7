package payloads

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// observed is what a user sees move: the mode, the pair, the block list's
// cursor and the line diff's focus, the picker and the cache views'
// cursors.
func observed(m *Model) string {
	_, row, _ := m.view.Selected()
	s := fmt.Sprintf("mode %d refs %q block %d focus %d reqs %d brk %d", m.mode, m.refs, row, m.view.Focus(),
		m.reqs.list.Cursor(), m.brk.list.Cursor())
	if m.picker != nil {
		s += fmt.Sprintf(" picker %d typing %v", m.picker.list.Cursor(), m.picker.typing)
	}
	return s
}

// checkPure draws the panel twice: the model is the same after as before
// (uitest.DumpState, which leaves out only the kit's list frame caches),
// and both screens are the same.
func checkPure(t *testing.T, hs *harness, step string) {
	t.Helper()
	seen := observed(hs.m)
	uitest.AssertDrawOnly(t, hs.m, hs.m.View, step)
	if got := observed(hs.m); got != seen {
		t.Fatalf("%s: View moved what the user sees: %s → %s", step, seen, got)
	}
}

// TestViewChangesNothing: in every view of the panel — the pair with its
// header and cause line, the line diff scrolled, the picker and its typed
// reference, the branch's requests, the project's cache breaks — View
// only draws, at each size and after a resize.
func TestViewChangesNothing(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			hs := newHarness(t, size.w, size.h, true, "c0430f5a")
			check := func(step string) {
				t.Helper()
				checkPure(t, hs, step)
				hs.Resize(size.w+9, size.h+5)
				checkPure(t, hs, step+" (resized)")
				hs.Resize(size.w, size.h)
				checkPure(t, hs, step+" (resized back)")
			}
			check("the pair")
			hs.Press("j", "j")
			check("a block selected")
			hs.Press("enter", "j", "j", "j", "j", "j", "j")
			check("the line diff scrolled")
			hs.Press("esc", "]")
			check("the picker")
			hs.Press("G", "enter")
			check("the picker's typed reference")
			hs.Press("esc", "esc", "s", "s")
			check("the branch's requests")
			hs.Press("k", "k")
			check("the branch's requests, moved")
			hs.Press("s")
			check("the project's cache breaks")
		})
	}
}
