package presets

import (
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// View only draws: in each state the panel is walked through (the list,
// a block read and typed in, a settings form, the preview, a prompt, the
// profiles view with a profile's form), drawing it twice changes nothing
// in the model — the forms, the block editor, the block's scroll and the
// prompt's input are laid out by Update (layoutParts).
func TestViewChangesNothing(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs := newHarness(t, size.w, size.h, true)
		check := func(step string, reached bool) {
			t.Helper()
			if !reached {
				t.Fatalf("%dx%d: the walk did not reach %s", size.w, size.h, step)
			}
			before := uitest.DumpState(hs.m)
			first := hs.m.View()
			if after := uitest.DumpState(hs.m); after != before {
				t.Fatalf("%dx%d %s: View changed the model:\n%s", size.w, size.h, step, firstDifference(before, after))
			}
			if hs.m.View() != first {
				t.Fatalf("%dx%d %s: two Views drew different screens", size.w, size.h, step)
			}
		}
		check("list", hs.m.lib != nil)
		hs.openByID("project:alpha")
		hs.m.focus = paneItems
		hs.m.items.SetCursor(hs.itemIndex("rules"))
		hs.m.afterItemMove()
		hs.Press("down", "up") // an Update lays the pane out
		check("a block read", hs.m.blockScroll.d == hs.m.d)
		hs.m.focus = paneEditor
		hs.Press("enter")
		check("a block typed in", hs.m.editing)
		hs.Press("esc")
		hs.m.focus = paneItems
		hs.m.items.SetCursor(hs.m.d.Len() + 2) // Tool policy
		hs.Press("down", "up", "enter")
		check("a settings form", hs.m.form != nil && hs.m.focus == paneEditor)
		hs.Press("esc")
		hs.m.focus = paneItems
		hs.Press("a")
		check("a prompt", hs.m.topDialog() != nil && hs.m.topDialog().kind == dialogPrompt)
		hs.Press("esc")
		hs.Press("p")
		check("the profiles view", hs.m.showProfile)
		hs.Press("i")
		check("a profile's form", hs.m.profForm != nil && hs.m.profFocus)
	}
}

// firstDifference shows where two dumps part.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return "before: …" + a[from:min(len(a), i+200)] + "\nafter:  …" + b[from:min(len(b), i+200)]
}
