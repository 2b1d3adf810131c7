package sessions

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// s in the picker shows what the listed sessions cost per day and which
// cost most, computed in a command; esc goes back to the picker.
func TestPickerCostView(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(panePicker)
	_, cmd := hs.m.Update(uitest.Key("s"))
	if hs.m.mode != modeSpend || !hs.m.spend.pending || cmd == nil {
		t.Fatalf("s in the picker: mode %v pending %v", hs.m.mode, hs.m.spend.pending)
	}
	hs.Press("esc")
	if _, again := hs.m.Update(uitest.Key("s")); again != nil {
		t.Error("s again while the sessions are read starts a second read")
	}
	if !strings.Contains(ansi.Strip(hs.view()), "reading 2 session(s)…") {
		t.Errorf("no placeholder while reading:\n%s", ansi.Strip(hs.view()))
	}
	hs.Run(cmd)
	view := ansi.Strip(hs.view())
	for _, want := range []string{"Cost · this project", "Cost and tokens per day · 2 session(s) · $", "2026-11-26 ", "2026-11-27 ",
		"Sessions that cost most", "Invoice rounding (test)"} {
		if !strings.Contains(view, want) {
			t.Errorf("no %q in\n%s", want, view)
		}
	}
	sp := hs.m.spend.value
	if len(sp.Days) != 2 || sp.Sessions[0].Cost < sp.Sessions[1].Cost {
		t.Errorf("spend %+v", sp)
	}
	hs.Press("esc")
	if hs.m.mode != modeEntry || hs.m.focus != panePicker {
		t.Errorf("esc: mode %v focus %v", hs.m.mode, hs.m.focus)
	}
	// A stale answer (an earlier s) is dropped.
	hs.m.mode = modeSpend
	seq := hs.m.spend.seq
	hs.Send(spendMsg{seq: seq - 1})
	if hs.m.spend.value != sp {
		t.Error("a stale answer replaced the shown one")
	}
}

// The cost view at 80x24 and 160x48 in dark, light and NO_COLOR.
func TestPickerCostGoldens(t *testing.T) {
	for _, th := range chartThemes {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			hs, _ := newHarness(t, size[0], size[1])
			hs.com.Styles = th.st
			hs.Send(common.ThemeChangedMsg{Styles: th.st})
			hs.focusOn(panePicker)
			hs.Press("s")
			view := hs.view()
			uitest.AssertFills(t, view, size[0], size[1])
			name := fmt.Sprintf("spend_%s_%dx%d", th.name, size[0], size[1])
			if th.name == "nocolor" {
				if strings.Contains(view, "\x1b[38") {
					t.Error("NO_COLOR draws a colour")
				}
				uitest.Golden(t, name, view)
			} else {
				uitest.GoldenANSI(t, name, view)
			}
		}
	}
}

func TestRenderSpendFitsAnyWidth(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(panePicker)
	hs.Press("s")
	st := themes.For(themes.Dark, true, true)
	for _, w := range []int{1, 10, 30, 80, 300} {
		for _, l := range renderSpend(hs.m.spend.value, w, st) {
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("width %d: a line of %d: %q", w, lw, l)
			}
		}
	}
}

// v shows the cost view and the stats whole with their charts laid out
// to fit the overlay, not at the unlimited width of their text.
func TestChartsShownWholeFitTheScreen(t *testing.T) {
	hs, _ := newHarness(t, 100, 30)
	hs.focusOn(panePicker)
	hs.Press("s", "v")
	hs.focusOn(paneTimeline)
	hs.Press("s", "v")
	if len(hs.Shown) != 2 {
		t.Fatalf("%d wholes shown", len(hs.Shown))
	}
	if !strings.Contains(hs.Shown[0].Text, "Cost and tokens per day") || !strings.Contains(hs.Shown[1].Text, "tokens per request") {
		t.Fatalf("wholes: %q / %q", hs.Shown[0].Title, hs.Shown[1].Title)
	}
	for _, w := range hs.Shown {
		for _, l := range strings.Split(w.Text, "\n") {
			if strings.ContainsAny(l, "█▓▒░▁▂▃▄▅▆▇") && ansi.StringWidth(l) > wholeChartWidth(100) {
				t.Errorf("%s: a chart line of %d: %q", w.Title, ansi.StringWidth(l), l)
			}
		}
	}
}
