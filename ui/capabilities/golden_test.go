package capabilities

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// goldenStep is one state of the panel pinned by a golden: its name and
// how to get there from a fresh harness.
type goldenStep struct {
	name string
	do   func(hs *harness)
}

// goldenSteps are the panel's main views: the library and a capability's
// detail, the session view with its cards, the bindings view, the editor,
// the previews and the dialogs.
var goldenSteps = []goldenStep{
	{"library", func(hs *harness) { hs.selectCapability("project:write-access") }},
	{"session", func(hs *harness) { hs.focusOn(paneSession) }},
	{"session_expanded", func(hs *harness) {
		hs.focusOn(paneSession)
		hs.Press("down", "space")
	}},
	{"bindings", func(hs *harness) {
		hs.focusOn(paneDetail)
		hs.Press("b")
	}},
	{"editor", func(hs *harness) {
		hs.selectCapability("project:review-mode")
		hs.Press("enter")
	}},
	{"preview_enable", func(hs *harness) {
		hs.selectCapability("project:test-runner")
		hs.Press("+")
	}},
	{"reset_second_step", func(hs *harness) { hs.Press("R", "y") }},
	{"preview_disable", func(hs *harness) {
		hs.focusOn(paneSession)
		hs.Press("G", "-")
	}},
	{"confirm_delete", func(hs *harness) {
		hs.selectCapability("project:test-runner")
		hs.Press("x")
	}},
	{"add_directive", func(hs *harness) { hs.Press("A") }},
}

func TestGoldenViews(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range goldenSteps {
			name := fmt.Sprintf("%s_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, size.w, size.h, true)
				step.do(hs)
				view := hs.m.View()
				uitest.AssertFills(t, view, size.w, size.h)
				uitest.Golden(t, name, view)
			})
		}
	}
}
