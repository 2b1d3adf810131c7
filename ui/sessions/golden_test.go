package sessions

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// goldenSteps are the panel's main views as the goldens show them, in
// English (TestGoldenViews) and in Simplified Chinese (TestGoldenViewsZh).
var goldenSteps = []struct {
	name string
	do   func(hs *harness)
}{
	{"picker", func(hs *harness) { hs.focusOn(panePicker) }},
	{"tree", func(hs *harness) { hs.focusOn(paneTree) }},
	{"timeline", func(hs *harness) { hs.focusOn(paneTimeline) }},
	{"detail_tool_result", func(hs *harness) {
		hs.focusOn(paneTimeline)
		hs.Press("g", "down", "down", "down", "down", "enter")
	}},
	{"context", func(hs *harness) {
		hs.focusOn(paneTimeline)
		hs.Press("c")
	}},
	{"stats", func(hs *harness) {
		hs.focusOn(paneTimeline)
		hs.Press("s")
	}},
	{"compare", markAndCompare},
	{"composition", func(hs *harness) {
		hs.focusOn(paneTimeline)
		hs.Press("%")
	}},
}

func TestGoldenViews(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range goldenSteps {
			name := fmt.Sprintf("%s_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs, _ := newHarness(t, size.w, size.h)
				step.do(hs)
				view := hs.view()
				uitest.AssertFills(t, view, size.w, size.h)
				uitest.Golden(t, name, view)
			})
		}
	}
}
