package common

import (
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// MiddleEllipsis shortens s to at most w cells by replacing its middle
// with "…", so both ends (a path's root and its last element, an id's
// prefix and suffix) stay readable.
func MiddleEllipsis(s string, w int) string {
	sw := ansi.StringWidth(s)
	switch {
	case sw <= w:
		return s
	case w <= 0:
		return ""
	case w == 1:
		return "…"
	}
	left := (w - 1) / 2
	right := w - 1 - left
	return ansi.Cut(s, 0, left) + "…" + cutEnd(s, sw, right)
}

// cutEnd is the end of s (sw cells wide) in at most n cells: ansi.Cut
// from a cell inside a double-width character keeps the whole character,
// one cell too many, so the cut starts a cell later then.
func cutEnd(s string, sw, n int) string {
	for from := sw - n; from < sw; from++ {
		if end := ansi.Cut(s, from, sw); ansi.StringWidth(end) <= n {
			return end
		}
	}
	return ""
}

// ShortenPath shortens a path to at most w cells, keeping its last
// elements whole: as many as fit after the start of the path, with "…"
// for what is left out between (/tmp/forgeb…/projects/demo-app); when
// that would leave too little of the start, the first element alone
// (~/…/demo-app); a last element too long for either is cut in the
// middle.
func ShortenPath(p string, w int) string {
	pw := ansi.StringWidth(p)
	if pw <= w {
		return p
	}
	segs := strings.Split(p, "/")
	tail := ""
	for k := 1; k < len(segs); k++ {
		cand := "/" + strings.Join(segs[len(segs)-k:], "/")
		if ansi.StringWidth(segs[0])+ansi.StringWidth("/…")+ansi.StringWidth(cand) > w { // the "/…" form must fit
			break
		}
		tail = cand
	}
	if tail == "" {
		return MiddleEllipsis(p, w)
	}
	const minHead = 6
	if head := w - 1 - ansi.StringWidth(tail); head >= minHead {
		return ansi.Cut(p, 0, head) + "…" + tail
	}
	return segs[0] + "/…" + tail
}

// Field is one labelled value of a one-line bar such as the header.
type Field struct {
	// Label is drawn before the value in the label style ("" for none).
	Label string
	// Value is the plain text; Short, when set, is a compact form ("✓"
	// for "trusted") that replaces it at the sacrifice ranked Shorten.
	Value, Short string
	// Style draws the value.
	Style lipgloss.Style
	// Min is the narrowest the value may be cut to.
	Min int
	// Path shortens the value as a path (ShortenPath), else the end is cut.
	Path bool
	// Shorten, Cut and Drop rank the ways a field makes room, on one
	// scale: when the bar is too narrow the sacrifices are made from the
	// highest rank down, one at a time, until the rest fits. Shorten
	// switches to Short; Cut lets the value shrink towards Min; Drop
	// leaves the field out. 0 never does it.
	Shorten, Cut, Drop int
}

// sacrifice is one way of making room for field i.
type sacrifice struct {
	i    int
	rank int
	kind sacrificeKind
}

type sacrificeKind int

const (
	sacrificeShorten sacrificeKind = iota
	sacrificeCut
	sacrificeDrop
)

// FitFields lays fields out on one line of at most width cells, joined by
// sep: in full when they fit, else making the sacrifices the fields rank
// (use a short form, cut a long cwd, drop the brand, cut the session's
// name, drop the preset …), highest rank first, until the rest fits. A
// cut value shrinks only as far as needed, so a later drop gives the
// others their room back.
func FitFields(fields []Field, label lipgloss.Style, sep string, width int) string {
	var order []sacrifice
	for i, f := range fields {
		if f.Shorten > 0 && f.Short != "" {
			order = append(order, sacrifice{i: i, rank: f.Shorten, kind: sacrificeShorten})
		}
		if f.Cut > 0 && f.Min > 0 {
			order = append(order, sacrifice{i: i, rank: f.Cut, kind: sacrificeCut})
		}
		if f.Drop > 0 {
			order = append(order, sacrifice{i: i, rank: f.Drop, kind: sacrificeDrop})
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return order[a].rank > order[b].rank })
	l := layoutFields{fields: fields, gone: map[int]bool{}, short: map[int]bool{}}
	line, ok := l.fit(label, sep, width)
	if ok {
		return line
	}
	for _, sc := range order {
		switch sc.kind {
		case sacrificeShorten:
			l.short[sc.i] = true
		case sacrificeCut:
			l.cuts = append(l.cuts, sc.i)
		default:
			l.gone[sc.i] = true
		}
		if line, ok = l.fit(label, sep, width); ok {
			return line
		}
	}
	return ansi.Truncate(line, max(0, width), "…")
}

// layoutFields is FitFields' state: the fields dropped and shortened so
// far and the fields allowed to shrink, in the order they were sacrificed.
type layoutFields struct {
	fields      []Field
	gone, short map[int]bool
	cuts        []int
}

// fit renders the fields that are not gone, in their short forms where
// chosen and with the cut fields shrunk (earliest sacrificed first) as
// far as needed; ok reports whether the line fits.
func (l *layoutFields) fit(label lipgloss.Style, sep string, width int) (string, bool) {
	values := make([]string, len(l.fields))
	widths := make([]int, len(l.fields))
	total, n := 0, 0
	for i, f := range l.fields {
		if l.gone[i] {
			continue
		}
		values[i] = f.Value
		if l.short[i] {
			values[i] = f.Short
		}
		widths[i] = ansi.StringWidth(values[i])
		total += widths[i]
		if f.Label != "" {
			total += ansi.StringWidth(f.Label) + 1
		}
		if n > 0 {
			total += ansi.StringWidth(sep)
		}
		n++
	}
	for _, i := range l.cuts {
		if total <= width || l.gone[i] {
			continue
		}
		cut := min(total-width, max(0, widths[i]-l.fields[i].Min))
		widths[i] -= cut
		total -= cut
	}
	parts := make([]string, 0, n)
	for i, f := range l.fields {
		if l.gone[i] {
			continue
		}
		v := values[i]
		if ansi.StringWidth(v) > widths[i] {
			if f.Path {
				v = ShortenPath(v, widths[i])
			} else {
				v = ansi.Truncate(v, widths[i], "…")
			}
		}
		text := f.Style.Render(v)
		if f.Label != "" {
			text = label.Render(f.Label+" ") + text
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, sep), total <= width
}
