package chart

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/themes"
)

// Series is one part of a stack: its label, the rune its cells are drawn
// with (the shape that names it without colour) and its style.
type Series struct {
	Label string
	Rune  rune
	Style lipgloss.Style
}

// The parts of a request's tokens, in the order they stack (bottom up, or
// left to right).
const (
	Input = iota
	CacheRead
	CacheWrite
	Output
)

// TokenSeries is the stack of a request's tokens: input, cache read, cache
// write and output, coloured from the theme and shaped █ ▓ ▒ ░.
func TokenSeries(st themes.Styles) []Series {
	return []Series{
		{Label: i18n.T("input"), Rune: '█', Style: st.Text.Info},
		{Label: i18n.T("cache read"), Rune: '▓', Style: st.Text.Success},
		{Label: i18n.T("cache write"), Rune: '▒', Style: st.Text.Warning},
		{Label: i18n.T("output"), Rune: '░', Style: st.Role.Assistant.UnsetBold()},
	}
}

// MarkStyle is the style of a mark under a column (a cache break).
func MarkStyle(st themes.Styles) lipgloss.Style { return st.Text.Danger.Bold(true) }

// vertical and horizontal are the eighth-block runes, empty to full.
var (
	vertical   = []rune(" ▁▂▃▄▅▆▇█")
	horizontal = []rune(" ▏▎▍▌▋▊▉█")
)

// clean makes a value drawable: NaN, infinities and negatives count 0.
func clean(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0
	}
	return v
}

// eighths scales v against max onto cells*8 steps; a value above zero is
// at least one step, so a small request still shows.
func eighths(v, max float64, cells int) int {
	v, max = clean(v), clean(max)
	if v == 0 || max == 0 || cells <= 0 {
		return 0
	}
	n := int(math.Round(v / max * float64(cells*8)))
	return min(max0(n, 1), cells*8)
}

func max0(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// HBar is a horizontal bar of v against max in width cells, drawn with
// eighth blocks and padded with spaces to width.
func HBar(v, max float64, width int, style lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	e := eighths(v, max, width)
	full, part := e/8, e%8
	bar := strings.Repeat("█", full)
	if part > 0 {
		bar += string(horizontal[part])
	}
	pad := width - full
	if part > 0 {
		pad--
	}
	return style.Render(bar) + strings.Repeat(" ", pad)
}

// StackedHBar is a horizontal bar of the parts of values (one per series)
// against max in width cells; each part is drawn with its series' rune,
// rounded on the running total so the parts add up to the whole.
func StackedHBar(values []float64, series []Series, max float64, width int) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	var sum float64
	drawn := 0
	for k := range series {
		if k >= len(values) {
			break
		}
		sum += clean(values[k])
		upto := min(width, (eighths(sum, max, width)+4)/8)
		if clean(values[k]) > 0 && upto == drawn && drawn < width {
			upto = drawn + 1 // a part above zero gets a cell
		}
		if upto > drawn {
			b.WriteString(series[k].Style.Render(strings.Repeat(string(series[k].Rune), upto-drawn)))
			drawn = upto
		}
	}
	b.WriteString(strings.Repeat(" ", width-drawn))
	return b.String()
}

// Sparkline draws one value per cell with eighth blocks against the
// largest value; values beyond width are not drawn (Buckets fits a longer
// series first). The row is padded with spaces to width.
func Sparkline(values []float64, width int, style lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	n := min(len(values), width)
	var top float64
	for _, v := range values[:n] {
		top = math.Max(top, clean(v))
	}
	row := make([]rune, n)
	for i, v := range values[:n] {
		row[i] = vertical[eighths(v, top, 1)]
	}
	return style.Render(string(row)) + strings.Repeat(" ", width-n)
}

// Marks is the row under columns: the mark rune under each marked column,
// a space elsewhere, padded to width.
func Marks(marked []bool, width int, mark rune, style lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	n := min(len(marked), width)
	for i := 0; i < n; {
		j := i
		for j < n && marked[j] == marked[i] {
			j++
		}
		if marked[i] {
			b.WriteString(style.Render(strings.Repeat(string(mark), j-i)))
		} else {
			b.WriteString(strings.Repeat(" ", j-i))
		}
		i = j
	}
	b.WriteString(strings.Repeat(" ", width-n))
	return b.String()
}

// Legend names each series by its rune and label: "█ input  ▓ cache read".
func Legend(series []Series) string {
	parts := make([]string, len(series))
	for i, s := range series {
		parts[i] = s.Style.Render(string(s.Rune)) + " " + s.Label
	}
	return strings.Join(parts, "  ")
}
