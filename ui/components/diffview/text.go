package diffview

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
)

// maxLineBytes bounds the part of one line the view draws (about 800 rows
// at 80 columns): a megabyte-long tool result on one line must not make
// each frame wrap a megabyte. The cut is said on screen.
const maxLineBytes = 64 << 10

// screenText makes one line of file text safe and bounded for the screen:
// the product's one sanitiser (escape sequences, control characters and
// bidi overrides removed, tabs as four spaces), after cutting lines longer
// than maxLineBytes at a rune boundary with a note of what was left out.
func screenText(s string) string {
	if len(s) <= maxLineBytes {
		return sanitize.Text(s)
	}
	cut := maxLineBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return sanitize.Text(s[:cut]) + i18n.T(" … [%d more bytes not shown]", len(s)-cut)
}

// wrapText splits plain (already cleaned) text into pieces of at most
// width cells. With wrap it breaks after the last space that fits, or at
// exactly the width inside a long word, and keeps every character: a diff
// must show whitespace, and x/ansi's word wrappers drop the spaces at a
// break (and trailing ones), so only the grapheme-aware cut is theirs.
// Without wrap it truncates with "…". A piece never exceeds width, even
// when a wide character cannot fit a one-cell column (it is left out).
func wrapText(s string, width int, wrap bool) []string {
	if width <= 0 {
		return []string{""}
	}
	if cellWidth(s) <= width {
		return []string{s}
	}
	if !wrap {
		return []string{ansi.Truncate(s, width, "…")}
	}
	var pieces []string
	for s != "" {
		// Measure a bounded head only, so a long line costs linear time.
		head := s
		if limit := width*16 + 16; len(head) > limit {
			for limit > 0 && !utf8.RuneStart(head[limit]) {
				limit--
			}
			head = head[:limit]
		}
		cut := ansi.Truncate(head, width, "")
		if len(cut) == len(s) {
			pieces = append(pieces, s)
			break
		}
		if cut == "" { // a character wider than the column: skip it
			_, n := utf8.DecodeRuneInString(s)
			pieces = append(pieces, "")
			s = s[n:]
			continue
		}
		if i := strings.LastIndexByte(cut, ' '); i > 0 && strings.TrimLeft(cut[:i], " ") != "" {
			cut = cut[:i+1]
		}
		pieces = append(pieces, cut)
		s = s[len(cut):]
	}
	return pieces
}

// cellWidth is ansi.StringWidth with a fast path for printable ASCII,
// which is most of what a diff draws (one cell per byte, no graphemes).
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// fit cuts a styled or plain string to width cells (ANSI-safe) and pads it
// with spaces to exactly width.
func fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	s = isolated(s)
	w := cellWidth(s)
	if w > width {
		s = ansi.Truncate(s, width, "…")
		w = ansi.StringWidth(s)
	}
	return s + strings.Repeat(" ", width-w)
}

// isolated keeps a cell from merging into the cell drawn before it. A
// cell whose text starts with a combining mark would join the preceding
// cell's last character into one grapheme and draw narrower than it was
// measured (U+302E after "+ " took 1 cell, not 3); such a mark gets
// U+25CC DOTTED CIRCLE as its base, the way Unicode shows a lone mark.
func isolated(s string) string {
	plain := s
	if strings.IndexByte(s, 0x1b) >= 0 {
		plain = ansi.Strip(s)
	}
	if plain == "" || plain[0] < utf8.RuneSelf {
		return s
	}
	_, n := utf8.DecodeRuneInString(plain)
	first := plain[:n]
	if ansi.StringWidth(" "+first) == 1+ansi.StringWidth(first) {
		return s
	}
	return "\u25cc" + s
}

// padLeft right-aligns s in width cells (plain text only).
func padLeft(s string, width int) string {
	if n := width - cellWidth(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
}

// signed formats a token delta with an explicit sign ("+9", "-3", "0").
func signed(n int) string {
	if n > 0 {
		return "+" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// percent formats a 0..1 ratio with one decimal ("37.4%").
func percent(r float64) string {
	return strconv.FormatFloat(r*100, 'f', 1, 64) + "%"
}
