package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// chartRequests is a branch of n requests whose cache warms up, with a
// break (everything written again) every 23rd request.
func chartRequests(n int) ([]stats.Request, []bool) {
	var reqs []stats.Request
	var breaks []bool
	for i := 0; i < n; i++ {
		u := catalog.Usage{Input: float64(200 + i%5*90), CacheRead: float64(1500 + 120*i), CacheWrite: 300, Output: float64(100 + i%4*150)}
		if i%23 == 11 {
			u.CacheWrite, u.CacheRead = u.CacheRead, 0
		}
		breaks = append(breaks, i%23 == 11)
		cost := u.Input*3e-6 + u.CacheRead*0.3e-6 + u.CacheWrite*3.75e-6 + u.Output*15e-6
		reqs = append(reqs, stats.Request{Index: 10 + 2*i, EntryID: fmt.Sprintf("e%03d", i), Usage: u, Cost: cost, Priced: true})
	}
	return reqs, breaks
}

var chartThemes = []struct {
	name string
	st   themes.Styles
}{
	{"dark", themes.For(themes.Dark, true, false)},
	{"light", themes.For(themes.Light, false, false)},
	{"nocolor", themes.For(themes.Dark, true, true)},
}

// The stats view's charts at the detail pane's widths of an 80- and a
// 160-column screen, in each theme; NO_COLOR tells the parts of a stack
// apart by their runes.
func TestStatsChartGoldens(t *testing.T) {
	for _, n := range []int{14, 200} {
		reqs, breaks := chartRequests(n)
		for _, th := range chartThemes {
			for _, w := range []int{76, 156} {
				lines := requestChart(reqs, breaks, w, statsChartRows(45), th.st)
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("line %d is %d wide, over %d", i, lw, w)
					}
				}
				view := strings.Join(lines, "\n")
				plain := ansi.Strip(view)
				if !strings.Contains(plain, "▲") || !strings.ContainsAny(plain, "▓▒") {
					t.Errorf("%s %d: no break mark or no stacked runes:\n%s", th.name, w, plain)
				}
				name := fmt.Sprintf("statschart_%d_%s_%d", n, th.name, w)
				if th.name == "nocolor" {
					uitest.Golden(t, name, view)
				} else {
					uitest.GoldenANSI(t, name, view)
				}
			}
		}
	}
}

func TestStatsChartMarksTheBreakColumn(t *testing.T) {
	reqs, breaks := chartRequests(30)
	st := themes.For(themes.Dark, true, true)
	// 30 requests over 10 columns: three a column; breaks at requests 11
	// and 34 - only 11 is here, in the fourth column.
	lines := requestChart(reqs, breaks, statsChartGutter+10, 3, st)
	var marks string
	for _, l := range lines {
		if strings.HasPrefix(ansi.Strip(l), " breaks ") {
			marks = ansi.Strip(l)[statsChartGutter:]
		}
	}
	if marks != "   ▲      " {
		t.Errorf("marks row %q, want the fourth column marked", marks)
	}
	wide := requestChart(reqs, breaks, 120, 3, st)
	if !strings.Contains(ansi.Strip(wide[0]), "30 request(s), one column each") {
		t.Errorf("title %q", ansi.Strip(wide[0]))
	}
	if w := ansi.StringWidth(lines[0]); w > statsChartGutter+10 {
		t.Errorf("the title is %d wide", w)
	}
	if got := requestChart(nil, nil, 80, 3, st); got != nil {
		t.Errorf("no requests draw no chart: %q", got)
	}
	if got := requestChart(reqs, breaks, statsChartGutter, 3, st); got != nil {
		t.Errorf("no room for a column draws no chart: %q", got)
	}
}

// The stats view of a real session draws its requests and marks where
// Pi would count a cache break (session/cachemiss on the branch).
func TestStatsViewChartsTheBranch(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("s")
	if hs.m.stats.pending || hs.m.stats.chart == nil || len(hs.m.stats.chart.requests) != 5 {
		t.Fatalf("the branch's requests: %d", len(hs.m.stats.chart.requests))
	}
	view := ansi.Strip(hs.view())
	if !strings.Contains(view, "Branch · tokens per request · 5 request(s)") || !strings.Contains(view, "cost per request · max $") {
		t.Fatalf("no chart in the stats view:\n%s", view)
	}
	hs.com.Styles = themes.For(themes.Dark, true, true)
	hs.Send(common.ThemeChangedMsg{Styles: hs.com.Styles})
	uitest.Golden(t, "stats_nocolor_160x48", hs.view())
}

// BenchmarkStatsViewFrame is one frame of the stats view on the 100 MB
// session of small entries (bench/ generates it; skipped without it):
// View() of the whole panel with the charts of the branch's requests.
func BenchmarkStatsViewFrame(b *testing.B) {
	home, _ := os.UserHomeDir()
	data := filepath.Join(home, ".cache", "forgebench-bench", "data")
	if dir := os.Getenv("BENCH_DIR"); dir != "" {
		data = filepath.Join(dir, "data")
	}
	path := filepath.Join(data, "small.jsonl")
	if _, err := os.Stat(path); err != nil {
		b.Skip("no bench data: run bash bench/run.sh once")
	}
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys, Workspace: resources.Workspace{Cwd: "/tmp/bench"}}
	m := New(com)
	m.SetSize(160, 45)
	hs := &harness{Harness: uitest.ForPanel(b, m, com), com: com, m: m}
	m.gen = 1
	hs.Send(openSession(1, path))
	if m.ls == nil {
		b.Fatal("session did not load")
	}
	m.focus = paneTimeline
	hs.Press("s")
	if m.stats.pending || m.stats.chart == nil || len(m.stats.chart.requests) == 0 {
		b.Fatal("no stats")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			hs.Press("down") // the view scrolls: a new frame each time
		} else {
			hs.Press("up")
		}
		_ = m.View()
	}
	b.ReportMetric(float64(len(m.stats.chart.requests)), "requests")
}

// A frame at the same width, height and theme draws the chart kept from
// the last; any of the three changed draws it again.
func TestStatsChartIsDrawnOncePerLayout(t *testing.T) {
	reqs, _ := chartRequests(40)
	c := &statsChart{requests: reqs, broke: brokeAt(reqs, []int{10 + 2*11})}
	if !c.broke[11] || c.broke[12] {
		t.Fatalf("brokeAt: %v", c.broke)
	}
	dark, light := themes.For(themes.Dark, true, false), themes.For(themes.Light, false, false)
	first := c.draw(80, 4, dark)
	if again := c.draw(80, 4, dark); &again[0] != &first[0] {
		t.Error("the same layout drew again")
	}
	for _, next := range []func() []string{
		func() []string { return c.draw(100, 4, dark) },
		func() []string { return c.draw(100, 5, dark) },
		func() []string { return c.draw(100, 5, light) },
	} {
		prev := c.lines
		if got := next(); &got[0] == &prev[0] {
			t.Error("a changed layout or theme kept the old chart")
		}
	}
	if (*statsChart)(nil).draw(80, 4, dark) != nil {
		t.Error("no chart yet draws nothing")
	}
}
