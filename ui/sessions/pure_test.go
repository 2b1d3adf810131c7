package sessions

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// View only draws: in each state the panel is walked through (the
// picker, the tree, the timeline, an entry scrolled past its end, the
// Context, stats, skipped-lines, spend, comparison and composition views
// scrolled past theirs, the search line, the entry prompt, the fork
// dialog), drawing it twice changes nothing in the model — the scroll
// offsets are clamped by Update and SetSize, never by View.
func TestViewChangesNothing(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs, _ := newForkHarness(t, size.w, size.h, true, false)
		check := func(step string, reached bool) {
			t.Helper()
			if !reached {
				t.Fatalf("%dx%d: the walk did not reach %s", size.w, size.h, step)
			}
			uitest.AssertDrawOnly(t, hs.m, hs.m.View, fmt.Sprintf("%dx%d %s", size.w, size.h, step))
		}
		hs.focusOn(panePicker)
		check("the picker", hs.m.focus == panePicker)
		hs.focusOn(paneTree)
		check("the tree", hs.m.focus == paneTree)
		hs.selectAt("e07")
		check("the timeline", hs.m.focus == paneTimeline)
		hs.Press("enter", "G") // the detail, scrolled to (past) its end
		hs.Settle()
		check("an entry at its end", hs.m.focus == paneDetail && hs.m.mode == modeEntry)
		for _, view := range []struct {
			name, key string
			mode      mode
		}{
			{"the Context view", "c", modeContext},
			{"the stats", "s", modeStats},
			{"the skipped lines", "!", modeSkipped},
			{"the composition", "%", modeComposition},
		} {
			hs.Press("esc", "esc")
			hs.focusOn(paneTimeline)
			hs.Press(view.key)
			hs.Settle()
			hs.focusOn(paneDetail)
			hs.Press("G")
			hs.Settle()
			check(view.name+" at its end", hs.m.mode == view.mode)
		}
		hs.Press("esc")
		markAndCompare(hs)
		hs.Settle()
		hs.Press("G")
		check("the comparison at its end", hs.m.mode == modeCompare)
		hs.Press("esc", "esc", "esc")
		hs.focusOn(panePicker)
		hs.Press("s")
		hs.Settle()
		hs.focusOn(paneDetail)
		hs.Press("G")
		check("the spend at its end", hs.m.mode == modeSpend)
		hs.Press("esc")
		hs.focusOn(paneTimeline)
		hs.Press("/")
		hs.Type("rounding")
		check("the search line", hs.m.CapturesInput())
		hs.Press("esc")
		hs.Press("#")
		hs.Type("e0")
		check("the entry prompt", hs.m.CapturesInput())
		hs.Press("esc")
		hs.selectAt("e07")
		hs.Press("C")
		hs.Settle()
		check("the fork dialog", hs.m.CapturesInput())
		hs.Press("n")
	}
}
