package sessions

import (
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/chart"
)

// statsChartGutter is the width of the axis labels left of the charts.
const statsChartGutter = 8

// statsChartRows is how many rows the stacked columns take in a pane of
// height h: a quarter of it, between 3 and 10.
func statsChartRows(h int) int { return min(10, max(3, h/4)) }

// requestChart draws the stats view's charts of the branch: its requests'
// tokens as stacked columns (input, cache read, cache write, output; each
// column the largest request of its run when there are more requests than
// columns, or the break among them), the cache breaks marked under them, and the cost per request
// as a sparkline. Only the columns that fit the width are computed; the
// lines are at most width wide.
func requestChart(reqs []stats.Request, broke []bool, width, rows int, st themes.Styles) []string {
	if len(reqs) == 0 || width <= statsChartGutter {
		return nil
	}
	cols := min(width-statsChartGutter, len(reqs))
	series := chart.TokenSeries(st)
	peaks := chart.Peaks(len(reqs), cols, func(i int) float64 { return reqs[i].Tokens() })
	stacks := make([][]float64, len(peaks))
	costs := make([]float64, len(peaks))
	marked := make([]bool, len(peaks))
	var top, topCost float64
	anyMark := false
	for c, b := range chart.Buckets(len(reqs), cols) {
		shown := peaks[c]
		for i := b.From; i < b.To; i++ {
			costs[c] = math.Max(costs[c], reqs[i].Cost)
			if broke[i] {
				if !marked[c] {
					shown = i // the break is what the column is for
				}
				marked[c], anyMark = true, true
			}
		}
		u := reqs[shown].Usage
		stacks[c] = []float64{u.Input, u.CacheRead, u.CacheWrite, u.Output}
		top = math.Max(top, reqs[peaks[c]].Tokens())
		topCost = math.Max(topCost, costs[c])
	}
	per := i18n.T("one column each")
	if cols < len(reqs) {
		per = i18n.T("~%d a column: a break, else the largest", (len(reqs)+cols-1)/cols)
	}
	// Few requests: each gets a bar of up to three columns and a gap.
	if k := min(4, (width-statsChartGutter)/len(reqs)); k >= 2 {
		stacks, costs, marked = widen(stacks, k), widen(costs, k), widen(marked, k)
		cols = len(stacks)
	}
	gutter := func(label string) string {
		return st.Text.Muted.Render(common.PadLeft(label, statsChartGutter-1) + " ")
	}
	out := []string{
		st.Text.Strong.Render(i18n.T("Branch · tokens per request")) + st.Text.Muted.Render(" · "+i18n.T("%d request(s), %s", len(reqs), per)),
		strings.Repeat(" ", statsChartGutter) + chart.Legend(series),
	}
	if anyMark {
		out[1] += "  " + chart.MarkStyle(st).Render("▲") + " " + i18n.T("cache break")
	}
	for r, line := range chart.Columns(stacks, series, top, cols, rows) {
		label := ""
		switch r {
		case 0:
			label = common.FormatTokens(int(top))
		case rows - 1:
			label = "0"
		}
		out = append(out, gutter(label)+line)
	}
	if anyMark {
		out = append(out, gutter(i18n.T("breaks"))+chart.Marks(marked, cols, '▲', chart.MarkStyle(st)))
	}
	out = append(out, gutter(i18n.T("cost"))+chart.Sparkline(costs, cols, st.Text.Warning),
		gutter("")+st.Text.Muted.Render(i18n.T("cost per request · max $%.4f", topCost)))
	for i := range out {
		out[i] = ansi.Truncate(out[i], width, "…")
	}
	return out
}

// widen repeats each point k-1 times and leaves a zero gap after it.
func widen[T any](points []T, k int) []T {
	out := make([]T, 0, len(points)*k)
	var gap T
	for _, p := range points {
		for range k - 1 {
			out = append(out, p)
		}
		out = append(out, gap)
	}
	return out
}

// brokeAt tells, for each request, whether the cache broke there: idx
// are the entries of the breaks.
func brokeAt(reqs []stats.Request, idx []int) []bool {
	at := make(map[int]bool, len(idx))
	for _, i := range idx {
		at[i] = true
	}
	out := make([]bool, len(reqs))
	for k := range reqs {
		out[k] = at[reqs[k].Index]
	}
	return out
}

// statsChart holds the branch's requests for the stats view and the
// chart last drawn from them, which a frame at the same width, height and
// theme draws again without walking the requests.
type statsChart struct {
	requests []stats.Request
	broke    []bool

	width, rows int
	theme       string
	lines       []string
}

// draw returns the chart for a width, rows high, in the theme of st.
func (c *statsChart) draw(width, rows int, st themes.Styles) []string {
	if c == nil {
		return nil
	}
	theme := common.ThemeKey(&st)
	if c.lines == nil || c.width != width || c.rows != rows || c.theme != theme {
		c.lines = requestChart(c.requests, c.broke, width, rows, st)
		c.width, c.rows, c.theme = width, rows, theme
	}
	return c.lines
}
