package common

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is ansi.StringWidth, the cells s takes on a terminal, without
// its grapheme segmentation where none is needed: a frame is mostly
// ASCII, box drawing, punctuation and SGR styling, and measuring each of
// its rows through grapheme clusters was most of a frame's cost. A
// string made of printable ASCII, CSI sequences and the characters of
// narrowRunes is measured here; any other byte hands the whole string to
// ansi.StringWidth. FuzzWidth holds it to that.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b:
			end, ok := csiEnd(s, i)
			if !ok {
				return ansi.StringWidth(s)
			}
			i = end
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !isNarrow(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// The characters Width counts as one cell each: in the Latin ranges
// (U+00A0–U+024F) and the symbol blocks (U+2000–U+2BFF: punctuation,
// arrows, box drawing, blocks, shapes, dingbats), those that
// ansi.StringWidth measures one cell alone and that join no cluster with
// a letter on either side (no mark, joiner or prepended character),
// found by asking it once.
const (
	latinLo, latinHi   = 0x00a0, 0x024f
	symbolLo, symbolHi = 0x2000, 0x2bff
)

var narrowRunes = sync.OnceValue(func() []bool {
	narrow := make([]bool, (latinHi-latinLo+1)+(symbolHi-symbolLo+1))
	i := 0
	for _, span := range [][2]rune{{latinLo, latinHi}, {symbolLo, symbolHi}} {
		for r := span[0]; r <= span[1]; r, i = r+1, i+1 {
			c := string(r)
			narrow[i] = ansi.StringWidth(c) == 1 && ansi.StringWidth("a"+c) == 2 && ansi.StringWidth(c+"a") == 2 &&
				ansi.StringWidth(c+c) == 2
		}
	}
	return narrow
})

// isNarrow reports whether Width counts r as one cell (narrowRunes).
func isNarrow(r rune) bool {
	switch {
	case r >= latinLo && r <= latinHi:
		return narrowRunes()[r-latinLo]
	case r >= symbolLo && r <= symbolHi:
		return narrowRunes()[(latinHi-latinLo+1)+int(r-symbolLo)]
	}
	return false
}

// csiEnd is the index after the CSI sequence ("ESC [" parameters,
// intermediates, a final byte) that starts at s[i]; ok is false for
// anything else.
func csiEnd(s string, i int) (int, bool) {
	j := i + 1
	if j >= len(s) || s[j] != '[' {
		return 0, false
	}
	j++
	for j < len(s) && s[j] >= 0x30 && s[j] <= 0x3f {
		j++
	}
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
		return 0, false
	}
	return j + 1, true
}

// JoinRows is lipgloss.JoinVertical(lipgloss.Left, parts...) measured
// with Width: the parts' lines one under the other, each padded with
// blanks to the widest. The root stacks its header, tabs, body and
// footer with it at every frame.
func JoinRows(parts ...string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	var lines []string
	var widths []int
	widest := 0
	for _, p := range parts {
		p = strings.ReplaceAll(strings.ReplaceAll(p, "\t", "    "), "\r\n", "\n")
		for _, l := range strings.Split(p, "\n") {
			w := Width(l)
			lines, widths = append(lines, l), append(widths, w)
			widest = max(widest, w)
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", max(0, widest-widths[i])))
	}
	return b.String()
}

// PadRight pads s with spaces to width cells (Width measures it: double
// width characters count two, styling none); a wider s is left as it is.
func PadRight(s string, width int) string {
	if w := Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// PadLeft is PadRight with the spaces before s (fmt's %*s in cells).
func PadLeft(s string, width int) string {
	if w := Width(s); w < width {
		return strings.Repeat(" ", width-w) + s
	}
	return s
}

// PadCell is PadRight for a table cell: a cell that fills its column or
// more still gets one space, which keeps it apart from the next.
func PadCell(s string, width int) string {
	return PadRight(s, width-1) + " "
}
