package agents

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/chart"
	"github.com/forgebench/forgebench/ui/uitest"
)

// T draws the demo tree's agents on one axis: each from its creation to
// its last run, by status; enter on a bar opens that agent; esc goes back.
func TestTimelineDrawsTheTreeAndOpensAnAgent(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Press("T")
	if hs.m.screen != screenTimeline {
		t.Fatal("T does not open the timeline")
	}
	view := hs.view()
	contains(t, view, "Agents · timeline · tree 01a2219b", "█ completed", "░ errored", "─ waiting", "◆ critical path", " ◆ test_run", "docs_check", "invoice_review", "  edge_cases")
	tl := &hs.m.timeline
	if len(tl.bars) < 3 || tl.hi <= tl.lo {
		t.Fatalf("bars %d, axis %v..%v", len(tl.bars), tl.lo, tl.hi)
	}
	byName := map[string]*timelineBar{}
	for i := range tl.bars {
		byName[strings.TrimSpace(tl.bars[i].name)] = &tl.bars[i]
	}
	review, edge := byName["invoice_review"], byName["edge_cases"]
	if review == nil || edge == nil || !review.known || !edge.known {
		t.Fatalf("bars: %+v", tl.bars)
	}
	// The child ran inside its parent's life: parallel work shows.
	if edge.life.From < review.life.From || edge.life.To > review.life.To+1 {
		t.Errorf("edge_cases %v is not within invoice_review %v", edge.life, review.life)
	}
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, "docs_check") && !strings.Contains(line, "░") {
			t.Errorf("the errored agent is not drawn with ░: %q", line)
		}
	}

	// enter on edge_cases opens it in the dashboard's detail.
	for tl.cursor = 0; tl.cursor < len(tl.bars) && tl.bars[tl.cursor].path != edge.path; tl.cursor++ {
	}
	hs.Press("enter")
	if hs.m.screen != screenDashboard || hs.m.focus != paneDetail {
		t.Fatalf("enter: screen %v focus %v", hs.m.screen, hs.m.focus)
	}
	if a := hs.m.selected(); a == nil || a.Path != edge.path {
		t.Fatalf("enter opened %v, want %s", a, edge.path)
	}
	hs.Press("T", "down", "esc")
	if hs.m.screen != screenDashboard {
		t.Error("esc leaves the timeline")
	}
}

// On a narrow screen enter opens the full-width detail.
func TestTimelineNarrowOpensTheDetailScreen(t *testing.T) {
	hs := newHarness(t, 80, 24)
	hs.Press("T", "G", "enter")
	if hs.m.screen != screenDetail || hs.m.selected() == nil {
		t.Fatalf("screen %v", hs.m.screen)
	}
}

// The timeline at 80x24 and 160x48 in dark, light and NO_COLOR.
func TestTimelineGoldens(t *testing.T) {
	for _, th := range []struct {
		name string
		st   themes.Styles
	}{
		{"dark", themes.For(themes.Dark, true, false)},
		{"light", themes.For(themes.Light, false, false)},
		{"nocolor", themes.For(themes.Dark, true, true)},
	} {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			hs := newHarness(t, size[0], size[1])
			hs.com.Styles = th.st
			hs.Send(common.ThemeChangedMsg{Styles: th.st})
			hs.Press("T")
			view := hs.m.View()
			uitest.AssertFills(t, view, size[0], size[1])
			name := fmt.Sprintf("timeline_%s_%dx%d", th.name, size[0], size[1])
			if th.name == "nocolor" {
				if strings.Contains(view, "\x1b[38") {
					t.Error("NO_COLOR draws a colour")
				}
				uitest.Golden(t, name, view)
			} else {
				uitest.GoldenANSI(t, name, view)
			}
			if w := ansi.StringWidth(strings.Split(view, "\n")[0]); w != size[0] {
				t.Errorf("width %d", w)
			}
		}
	}
}

func TestCriticalPathFollowsWhatFinishedLast(t *testing.T) {
	bars := []timelineBar{
		{path: "/root/a", parent: "/root", known: true, life: chart.Interval{From: 0, To: 50}},
		{path: "/root/a/x", parent: "/root/a", known: true, life: chart.Interval{From: 5, To: 20}},
		{path: "/root/b", parent: "/root", known: true, life: chart.Interval{From: 10, To: 90}},
		{path: "/root/b/y", parent: "/root/b", known: true, life: chart.Interval{From: 20, To: 60}},
		{path: "/root/b/z", parent: "/root/b", known: true, life: chart.Interval{From: 30, To: 80}},
		{path: "/root/b/z/q", parent: "/root/b/z", known: false},
	}
	markCritical(bars)
	var got []string
	for _, b := range bars {
		if b.critical {
			got = append(got, b.path)
		}
	}
	if fmt.Sprint(got) != "[/root/b /root/b/z]" {
		t.Errorf("critical path %v", got)
	}
	markCritical(nil) // nothing to mark, no loop
}
