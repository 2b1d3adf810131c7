package presets

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/uitest"
)

func TestGoldenViews(t *testing.T) {
	steps := []struct {
		name string
		do   func(hs *harness)
	}{
		{"list", func(hs *harness) { hs.m.focus = paneList }},
		{"items_diagnostic", func(hs *harness) { hs.openByID("project:beta") }},
		{"block_editor", func(hs *harness) {
			hs.openByID("project:alpha")
			hs.Press("enter")
			hs.Type(" Cite line numbers.")
		}},
		{"preview", func(hs *harness) {
			hs.openByID("project:alpha")
			hs.Press("v", "v") // v hides, v again shows and focuses the dock
		}},
		{"conflict", func(hs *harness) {
			hs.openByID("project:alpha")
			hs.Press("space")
			if err := os.WriteFile(hs.m.open.Path, []byte("{}\n"), 0o644); err != nil {
				hs.TB().Fatal(err)
			}
			hs.Press("ctrl+s")
		}},
		{"profiles", func(hs *harness) { hs.Press("p") }},
		{"slot_picker", func(hs *harness) {
			hs.openByID("project:alpha")
			hs.Press("A", "down")
		}},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, step := range steps {
			name := fmt.Sprintf("%s_%dx%d", step.name, size.w, size.h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, size.w, size.h, true)
				step.do(hs)
				view := hs.m.View()
				uitest.AssertFills(t, view, size.w, size.h)
				if strings.Contains(view, os.TempDir()) {
					t.Errorf("the view shows a temporary path:\n%s", ansi.Strip(view))
				}
				uitest.Golden(t, name, view)
			})
		}
	}
}
