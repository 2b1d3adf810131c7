// Package sanitize is the one place where text from files (sessions,
// Presets, capabilities, profiles, models.json …) is made safe for a
// terminal. Every human-readable CLI line and every TUI view that shows
// file-derived text goes through it; --json output does not.
//
// Text removes escape sequences (CSI, OSC — OSC 52 clipboard writes
// included — DCS …), carriage returns and every other C0/C1 control
// character, and the line separators and bidi controls that would reorder
// what the user sees; invalid UTF-8 becomes U+FFFD first. Line, Fold and
// Clip are its one-row forms, HasControl tells whether text holds anything
// Text would remove, and Screen is the last filter over a rendered view: it
// keeps SGR styling, which the program itself adds, and drops the rest.
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// tabWidth is how many spaces a tab becomes in Text.
const tabWidth = 4

// Text makes multi-line text safe to draw: escape sequences, carriage
// returns, other control characters, line/paragraph separators and bidi
// controls are dropped, tabs become four spaces and invalid UTF-8 becomes
// U+FFFD. Newlines are kept.
func Text(s string) string {
	if isPlainASCII(s) {
		return s
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = ansi.Strip(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(strings.Repeat(" ", tabWidth))
		case isHazard(r):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Line is Text for one row: newlines become spaces; other spacing is kept
// as written (an editor shows a name as it is in the file).
func Line(s string) string {
	s = Text(s)
	if strings.Contains(s, "\n") {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return s
}

// Fold is Text for one row of a summary: every run of white space,
// newlines included, becomes one space and the ends are trimmed.
func Fold(s string) string {
	s = Text(s)
	if isTidyASCIILine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// Clip is Fold cut to at most n runes; a cut text ends with "…" (which
// counts as one of the n).
func Clip(s string, n int) string {
	if out, ok := clipPlain(s, n); ok {
		return out
	}
	out := Fold(s)
	if utf8.RuneCountInString(out) <= n {
		return out
	}
	runes := []rune(out)
	return string(runes[:max(0, n-1)]) + "…"
}

// clipPlain is Clip for text that holds nothing Text removes but tabs
// and newlines (ok false otherwise): one pass that folds white space and
// stops at the first rune past n, so clipping a long text reads only its
// start; while the folded text is a prefix of s it is not copied
// (FuzzClip compares it with Fold and a cut).
func clipPlain(s string, n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	var b []byte        // the folded text, once it is no longer s[:end]
	end := 0            // while b is nil, the folded text is s[:end]
	count, keep := 0, 0 // runes folded; bytes of the first n-1 of them
	gap := -1           // where the white space after the last rune kept starts
	copyFrom := func() {
		b = append(make([]byte, 0, min(len(s), 4*n+8)), s[:end]...)
	}
	for i, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\n':
		case r == utf8.RuneError || r < 0x20 || isHazard(r):
			return "", false
		case !unicode.IsSpace(r):
			for _, out := range [2]rune{' ', r} {
				if out == ' ' {
					if gap < 0 {
						continue
					}
					if b == nil && (i != gap+1 || s[gap] != ' ') {
						copyFrom()
					}
				} else if b == nil && i != end {
					copyFrom() // white space before the first rune
				}
				if count++; count > n {
					if b == nil {
						return s[:keep] + "…", true
					}
					return string(b[:keep]) + "…", true
				}
				switch {
				case b != nil:
					b = utf8.AppendRune(b, out)
				case out == ' ':
					end = gap + 1
				default:
					end = i + utf8.RuneLen(r)
				}
				if count == n-1 {
					keep = end
					if b != nil {
						keep = len(b)
					}
				}
			}
			gap = -1
			continue
		}
		if gap < 0 && count > 0 {
			gap = i
		}
	}
	if b == nil {
		return s[:end], true
	}
	return string(b), true
}

// HasControl reports whether s holds characters an inline editor cannot
// show faithfully: escape and other control characters except newline and
// tab, line/paragraph separators and bidi controls (Text would drop them).
// Invalid UTF-8 does not count.
func HasControl(s string) bool {
	for _, r := range s {
		if r != '\n' && r != '\t' && isHazard(r) {
			return true
		}
	}
	return false
}

// isHazard reports a rune Text drops: a control character (C0, DEL, C1),
// U+2028/U+2029, or a bidi control (Unicode's Bidi_Control set: the marks
// U+061C, U+200E, U+200F, the embeddings and overrides, the isolates).
func isHazard(r rune) bool {
	switch {
	case unicode.IsControl(r), isBidiOrSeparatorRune(r):
		return true
	}
	return false
}

// isPlainASCII reports whether s is printable ASCII plus newlines, the
// common case that needs no copy.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '\n' && (c < 0x20 || c >= 0x7f) {
			return false
		}
	}
	return true
}

// isTidyASCIILine reports whether s is printable ASCII with no newline, no
// space at either end and no two spaces in a row: Fold's result already.
func isTidyASCIILine(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == ' ' && s[i+1] == ' ' {
			return false
		}
	}
	return true
}
