package chart

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Bucket is a run of consecutive points, [From, To), that one column
// stands for when a series is longer than the chart is wide.
type Bucket struct{ From, To int }

// Buckets splits n points over at most width columns, in order: one point
// per column while they fit, else as evenly as whole points allow.
func Buckets(n, width int) []Bucket {
	if n <= 0 || width <= 0 {
		return nil
	}
	cols := min(n, width)
	out := make([]Bucket, cols)
	for c := range out {
		out[c] = Bucket{From: c * n / cols, To: (c + 1) * n / cols}
	}
	return out
}

// Peaks picks, for each of the Buckets of n points over width columns,
// the point with the largest total (the first of equals): a column then
// shows a request that was sent, not an average of several.
func Peaks(n, width int, total func(i int) float64) []int {
	bs := Buckets(n, width)
	out := make([]int, len(bs))
	for c, b := range bs {
		best, bestV := b.From, clean(total(b.From))
		for i := b.From + 1; i < b.To; i++ {
			if v := clean(total(i)); v > bestV {
				best, bestV = i, v
			}
		}
		out[c] = best
	}
	return out
}

// Columns draws stacked columns, one per stack (the values of each series
// bottom up), against max in height rows; stacks beyond width are not
// drawn. Each cell shows the series that fills most of it, with that
// series' rune; the top of a column that ends inside a cell is an eighth
// block in the style of the series under it. Rows come top first, each
// padded to width.
func Columns(stacks [][]float64, series []Series, max float64, width, height int) []string {
	if width <= 0 || height <= 0 {
		return nil
	}
	n := min(len(stacks), width)
	// cells[row][col]: which series (or -1 empty) and how many eighths.
	type cell struct {
		series int
		part   int // 8 for a full cell
	}
	grid := make([][]cell, height)
	for r := range grid {
		grid[r] = make([]cell, n)
		for c := range grid[r] {
			grid[r][c].series = -1
		}
	}
	bounds := make([]int, len(series)+1)
	for c := 0; c < n; c++ {
		var sum float64
		for k := range series {
			if k < len(stacks[c]) {
				sum += clean(stacks[c][k])
			}
			bounds[k+1] = eighths(sum, max, height)
		}
		top := bounds[len(series)]
		for r := 0; r*8 < top && r < height; r++ {
			lo, hi := r*8, r*8+8
			best, bestCover := -1, 0
			for k := range series {
				cover := min(hi, bounds[k+1]) - max0(lo, bounds[k])
				if cover > bestCover {
					best, bestCover = k, cover
				}
			}
			grid[height-1-r][c] = cell{series: best, part: min(8, top-lo)}
		}
	}
	rows := make([]string, height)
	for r := range grid {
		var b strings.Builder
		for c := 0; c < n; {
			cl := grid[r][c]
			j := c
			var run strings.Builder
			for j < n && grid[r][j].series == cl.series && (grid[r][j].part == 8) == (cl.part == 8) {
				run.WriteRune(cellRune(grid[r][j].series, grid[r][j].part, series))
				j++
			}
			if cl.series < 0 {
				b.WriteString(run.String())
			} else {
				b.WriteString(series[cl.series].Style.Render(run.String()))
			}
			c = j
		}
		b.WriteString(strings.Repeat(" ", width-n))
		rows[r] = b.String()
	}
	return rows
}

func cellRune(k, part int, series []Series) rune {
	switch {
	case k < 0:
		return ' '
	case part >= 8:
		return series[k].Rune
	}
	return vertical[part]
}

// Span draws a bar from start to end on an axis from 0 to total in width
// cells, with rune in style, spaces around it; a span inside one cell (or
// with no length) still gets that cell, so a short run shows.
func Span(start, end, total float64, width int, r rune, style lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	from, to := 0, 0
	if clean(total) > 0 {
		from = int(clean(start) / total * float64(width))
		to = int(clean(end)/total*float64(width) + 0.999999)
	}
	from = min(max0(from, 0), width-1)
	to = min(max0(to, from+1), width)
	return strings.Repeat(" ", from) + style.Render(strings.Repeat(string(r), to-from)) + strings.Repeat(" ", width-to)
}
