package chart

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/uitest"
)

var plain = lipgloss.NewStyle()

func TestHBarEighths(t *testing.T) {
	for _, c := range []struct {
		v, max float64
		width  int
		want   string
	}{
		{10, 10, 4, "████"},
		{5, 10, 4, "██  "},
		{1, 16, 2, "▏ "},        // one eighth of a cell: the smallest step
		{0.001, 1000, 3, "▏  "}, // above zero still shows
		{0, 10, 3, "   "},
		{math.NaN(), 10, 3, "   "},
		{-4, 10, 3, "   "},
		{30, 10, 3, "███"}, // clipped to the width
		{3, 8, 1, "▍"},     // 3/8 of one cell is 3 eighths
	} {
		if got := HBar(c.v, c.max, c.width, plain); got != c.want {
			t.Errorf("HBar(%v, %v, %d) = %q, want %q", c.v, c.max, c.width, got, c.want)
		}
	}
	if HBar(1, 1, 0, plain) != "" {
		t.Error("a zero width draws nothing")
	}
}

func TestStackedHBarPartsAddUp(t *testing.T) {
	series := TokenSeries(themes.Styles{})
	got := StackedHBar([]float64{2, 4, 1, 1}, series, 8, 8)
	if got != "██▓▓▓▓▒░" {
		t.Errorf("stack = %q", got)
	}
	// A tiny part still gets a cell and the whole never overflows.
	got = StackedHBar([]float64{100, 0.01, 0, 100}, series, 200, 10)
	if w := ansi.StringWidth(got); w != 10 {
		t.Errorf("width %d, want 10: %q", w, got)
	}
	if !strings.Contains(got, "▓") {
		t.Errorf("the small cache read has no cell: %q", got)
	}
}

func TestSparklineScalesToTheLargest(t *testing.T) {
	if got := Sparkline([]float64{1, 2, 4, 8, 0}, 7, plain); got != "▁▂▄█   " {
		t.Errorf("sparkline = %q", got)
	}
	if got := Sparkline([]float64{1, 2, 3, 4}, 2, plain); got != "▄█" {
		t.Errorf("only what fits is drawn, scaled to it: %q", got)
	}
}

func TestBucketsCoverEveryPointOnce(t *testing.T) {
	for _, n := range []int{1, 7, 80, 81, 1000} {
		for _, w := range []int{1, 3, 80} {
			bs := Buckets(n, w)
			if len(bs) != min(n, w) {
				t.Fatalf("Buckets(%d, %d): %d columns", n, w, len(bs))
			}
			next := 0
			for _, b := range bs {
				if b.From != next || b.To <= b.From {
					t.Fatalf("Buckets(%d, %d): gap or empty bucket at %v", n, w, b)
				}
				next = b.To
			}
			if next != n {
				t.Fatalf("Buckets(%d, %d) ends at %d", n, w, next)
			}
		}
	}
}

func TestColumnsStackBottomUp(t *testing.T) {
	series := TokenSeries(themes.Styles{})
	// Two rows: input fills the bottom cell, output the top one; the
	// second column is half a cell of input.
	rows := Columns([][]float64{{8, 0, 0, 8}, {4}}, series, 16, 3, 2)
	want := []string{"░  ", "█▄ "}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("columns:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if got := Columns([][]float64{{1}, {1}, {1}}, series, 1, 2, 1); len(got) != 1 || got[0] != "██" {
		t.Errorf("stacks beyond the width are drawn: %q", got)
	}
}

func TestPeaksPickTheLargestOfEachBucket(t *testing.T) {
	v := []float64{1, 9, 2, 3, 8, 1, 5}
	got := Peaks(len(v), 3, func(i int) float64 { return v[i] })
	// Buckets of 7 over 3: [0,2) [2,4) [4,7).
	if fmt.Sprint(got) != "[1 3 4]" {
		t.Errorf("peaks = %v", got)
	}
	if got := Peaks(2, 5, func(i int) float64 { return 0 }); fmt.Sprint(got) != "[0 1]" {
		t.Errorf("one point per column: %v", got)
	}
}

func TestMarksAndSpan(t *testing.T) {
	if got := Marks([]bool{false, true, true, false, true}, 6, '▲', plain); got != " ▲▲ ▲ " {
		t.Errorf("marks = %q", got)
	}
	if got := Span(25, 50, 100, 8, '█', plain); got != "  ██    " {
		t.Errorf("span = %q", got)
	}
	if got := Span(99.9, 99.9, 100, 8, '█', plain); got != "       █" {
		t.Errorf("a span of no length still shows at its place: %q", got)
	}
	if got := Span(0, 10, 0, 4, '█', plain); got != "█   " {
		t.Errorf("an empty axis: %q", got)
	}
}

// sample is a chart of each kind over made-up requests, laid out for a width.
func sample(width int, st themes.Styles) string {
	series := TokenSeries(st)
	var stacks [][]float64
	var costs []float64
	var marks []bool
	var top float64
	for i := 0; i < 120; i++ {
		warm := float64(2000 + 150*i)
		s := []float64{300 + float64(i%7)*40, warm, 400, 120 + float64(i%5)*60}
		if i%37 == 20 { // a cache break: everything written again
			s = []float64{300, 0, warm, 200}
		}
		sum := s[0] + s[1] + s[2] + s[3]
		top = math.Max(top, sum)
		stacks = append(stacks, s)
		costs = append(costs, s[0]*3e-6+s[1]*0.3e-6+s[2]*3.75e-6+s[3]*15e-6)
		marks = append(marks, i%37 == 20)
	}
	// Each column is the largest request of its bucket, marked when any
	// request of the bucket broke the cache.
	peaks := Peaks(len(stacks), width, func(i int) float64 { return stacks[i][0] + stacks[i][1] + stacks[i][2] + stacks[i][3] })
	cols, colCosts, colMarks := make([][]float64, len(peaks)), make([]float64, len(peaks)), make([]bool, len(peaks))
	for c, b := range Buckets(len(stacks), width) {
		cols[c] = stacks[peaks[c]]
		for i := b.From; i < b.To; i++ {
			colCosts[c] = math.Max(colCosts[c], costs[i])
			colMarks[c] = colMarks[c] || marks[i]
		}
	}
	var out []string
	out = append(out, Legend(series))
	out = append(out, Columns(cols, series, top, width, 8)...)
	out = append(out, Marks(colMarks, width, '▲', MarkStyle(st)))
	out = append(out, Sparkline(colCosts, width, st.Text.Warning))
	for i, v := range []float64{0.42, 1.37, 0.05, 0} {
		out = append(out, fmt.Sprintf("day %d ", i)+HBar(v, 1.37, width-6, st.Text.Info))
	}
	out = append(out, StackedHBar([]float64{1200, 50000, 3000, 900}, series, 55100, width))
	for i, r := range []rune{'█', '▓', '▒'} {
		out = append(out, Span(float64(i*20), float64(40+i*25), 100, width, r, st.Text.Success))
	}
	return strings.Join(out, "\n")
}

func TestChartGoldens(t *testing.T) {
	for _, theme := range []struct {
		name string
		st   themes.Styles
	}{
		{"dark", themes.For(themes.Dark, true, false)},
		{"light", themes.For(themes.Light, false, false)},
		{"nocolor", themes.For(themes.Dark, true, true)},
	} {
		for _, w := range []int{80, 160} {
			got := sample(w, theme.st)
			for i, line := range strings.Split(got, "\n") {
				if lw := ansi.StringWidth(line); lw > w {
					t.Errorf("%s %d: line %d is %d wide", theme.name, w, i, lw)
				}
			}
			name := fmt.Sprintf("sample_%s_%d", theme.name, w)
			if theme.name == "nocolor" {
				if strings.Contains(got, "\x1b[3") {
					t.Errorf("NO_COLOR draws a colour")
				}
				uitest.Golden(t, name, got)
			} else {
				uitest.GoldenANSI(t, name, got)
			}
		}
	}
}

func FuzzColumns(f *testing.F) {
	f.Add(3.0, 1.0, 0.5, 10.0, 7, 4)
	f.Fuzz(func(t *testing.T, a, b, c, top float64, width, height int) {
		width, height = width%200, height%50
		rows := Columns([][]float64{{a, b, c}, {c, b, a}}, TokenSeries(themes.Styles{}), top, width, height)
		for _, r := range rows {
			if w := ansi.StringWidth(r); w != width {
				t.Fatalf("row %q is %d wide, want %d", r, w, width)
			}
		}
		if s := Span(a, b, top, width, '█', plain); width > 0 && ansi.StringWidth(s) != width {
			t.Fatalf("span %q not %d wide", s, width)
		}
	})
}

func TestTrackDrawsRunsOverTheLife(t *testing.T) {
	// Axis 0..100 over 10 cells: alive 10..90, running 10..30 and 70..90,
	// idle (a stall) between.
	got := Track(Interval{10, 90}, []Interval{{10, 30}, {70, 90}}, 0, 100, 10, '█', plain, '─', plain)
	if got != " ██────██ " {
		t.Errorf("track = %q", got)
	}
	// A moment still shows; an unknown start draws nothing of it.
	if got := Track(Interval{50, 50}, nil, 0, 100, 10, '█', plain, '─', plain); got != "     ─    " {
		t.Errorf("a moment: %q", got)
	}
	if got := Track(Interval{math.NaN(), 5}, []Interval{{math.NaN(), 1}}, 0, 10, 4, '█', plain, '─', plain); got != "    " {
		t.Errorf("unknown times: %q", got)
	}
	// An empty axis (everything at one instant) takes the first cell.
	if got := Track(Interval{7, 7}, []Interval{{7, 7}}, 7, 7, 3, '█', plain, '─', plain); got != "█  " {
		t.Errorf("an empty axis: %q", got)
	}
}
