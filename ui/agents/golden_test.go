package agents

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

func TestGoldenViews(t *testing.T) {
	steps := []struct {
		name string
		do   func(hs *harness)
	}{
		{"dashboard", func(hs *harness) {}},
		{"dashboard_review", func(hs *harness) { hs.Press("down") }},
		{"closed", func(hs *harness) { hs.Press("f") }},
		{"detail", func(hs *harness) {
			hs.Press("down")
			if hs.m.wide() {
				hs.m.FocusNext()
			}
			hs.Press("enter")
		}},
		{"transcript", func(hs *harness) { hs.Press("down", "down", "t") }},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range steps {
			name := fmt.Sprintf("%s_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, size.w, size.h)
				step.do(hs)
				view := hs.m.View()
				uitest.AssertFills(t, view, size.w, size.h)
				uitest.Golden(t, name, view)
			})
		}
	}
	// One golden keeps the colours, so focus and tone regressions show.
	t.Run("dashboard_ansi_160x48", func(t *testing.T) {
		hs := newHarness(t, 160, 48)
		uitest.GoldenANSI(t, "dashboard_ansi_160x48", hs.m.View())
	})
}
