package presets

import (
	"fmt"
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
			uitest.AssertDrawOnly(t, hs.m, hs.m.View, fmt.Sprintf("%dx%d %s", size.w, size.h, step))
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
