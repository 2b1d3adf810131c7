package chart

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"
)

// Interval is a stretch of an axis, From to To (To < From counts as
// From: a moment).
type Interval struct{ From, To float64 }

// cells maps an interval of the axis [lo, hi] onto width cells: the first
// cell and one past the last; a stretch that falls inside one cell, or a
// moment, still takes that cell.
func (iv Interval) cells(lo, hi float64, width int) (int, int, bool) {
	if math.IsNaN(iv.From) || math.IsNaN(lo) || math.IsNaN(hi) || hi < lo || width <= 0 {
		return 0, 0, false
	}
	to := iv.To
	if math.IsNaN(to) || to < iv.From {
		to = iv.From
	}
	span := hi - lo
	if span <= 0 {
		return 0, 1, true
	}
	from := int((iv.From - lo) / span * float64(width))
	end := int(math.Ceil((to - lo) / span * float64(width)))
	from = min(max0(from, 0), width-1)
	end = min(max0(end, from+1), width)
	return from, end, true
}

// Track draws one row of a timeline over the axis [lo, hi] in width
// cells: life drawn with idle (the time between the start and the end
// when nothing ran: waiting, a stall) and each of runs over it with run,
// padded with spaces to width.
func Track(life Interval, runs []Interval, lo, hi float64, width int, run rune, runStyle lipgloss.Style, idle rune, idleStyle lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	const (
		none = iota
		idling
		running
	)
	kind := make([]byte, width)
	if a, b, ok := life.cells(lo, hi, width); ok {
		for i := a; i < b; i++ {
			kind[i] = idling
		}
	}
	for _, r := range runs {
		if a, b, ok := r.cells(lo, hi, width); ok {
			for i := a; i < b; i++ {
				kind[i] = running
			}
		}
	}
	var out strings.Builder
	for i := 0; i < width; {
		j := i
		for j < width && kind[j] == kind[i] {
			j++
		}
		switch kind[i] {
		case running:
			out.WriteString(runStyle.Render(strings.Repeat(string(run), j-i)))
		case idling:
			out.WriteString(idleStyle.Render(strings.Repeat(string(idle), j-i)))
		default:
			out.WriteString(strings.Repeat(" ", j-i))
		}
		i = j
	}
	return out.String()
}
