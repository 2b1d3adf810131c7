package sessions

import (
	"testing"

	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// After a theme switch every pane must be drawn in the new colours: the
// panel, switched from dark to light, draws exactly what a panel opened
// in light draws (rows, detail, context; nothing cached in old colours).
func TestThemeSwitchLeavesNothingInOldColours(t *testing.T) {
	light := themes.For(themes.Light, false, false)
	walk := func(hs *harness) {
		hs.focusOn(paneTimeline)
		hs.Press("g", "down", "down", "down", "enter") // e04 in the detail
	}
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		switched, _ := newHarness(t, size[0], size[1])
		walk(switched)
		switched.Press("c", "esc") // the context view renders once in dark
		switched.view()            // every pane drawn (and cached) in dark
		switched.com.Styles = light
		switched.Send(common.ThemeChangedMsg{Styles: light})

		fresh, _ := newHarness(t, size[0], size[1])
		fresh.com.Styles = light
		fresh.Send(common.ThemeChangedMsg{Styles: light})
		walk(fresh)
		fresh.Press("c", "esc")
		for _, step := range []string{"", "esc", "c"} {
			if step != "" {
				switched.Press(step)
				fresh.Press(step)
			}
			if got, want := switched.view(), fresh.view(); got != want {
				t.Fatalf("%dx%d after %q: the switched panel differs from one opened in light", size[0], size[1], step)
			}
		}
	}
}

// A few goldens keep their colours, so a focus or theme regression (the
// wrong pane highlighted, a row in the other theme) fails a test.
func TestGoldenColours(t *testing.T) {
	for _, mode := range []themes.Mode{themes.Dark, themes.Light} {
		hs, _ := newHarness(t, 80, 24)
		st := themes.For(mode, mode == themes.Dark, false)
		hs.com.Styles = st
		hs.Send(common.ThemeChangedMsg{Styles: st})
		hs.focusOn(paneTimeline)
		hs.Press("g", "down")
		uitest.GoldenANSI(t, "timeline_80x24_"+string(mode), hs.view())
	}
}
