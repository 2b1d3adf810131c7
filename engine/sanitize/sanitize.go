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
// start. While the text is already folded it is not copied: the result
// is a slice of s (FuzzClip compares it with Fold and a cut).
func clipPlain(s string, n int) (string, bool) {
	if n < 0 {
		return "", false
	}
	// The folded text is s[:end] while s needs no folding.
	count, keep, end, i := 0, 0, 0, 0 // runes folded, bytes of the first n-1
	gap := false                      // white space after the last rune
tidy:
	for i < len(s) {
		c, size := s[i], 1
		switch {
		case c > ' ' && c < 0x7f:
		case c == ' ' && count > 0 && i+1 < len(s) && keptRuneAt(s, i+1):
			// One space between runes.
		case c >= utf8.RuneSelf:
			r, rs := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || isHazard(r) {
				return "", false
			}
			if unicode.IsSpace(r) {
				break tidy
			}
			size = rs
		default:
			break tidy
		}
		if count++; count > n {
			return s[:keep] + "…", true
		}
		i += size
		if end = i; count == n-1 {
			keep = end
		}
	}
	if i == len(s) {
		return s[:end], true
	}
	b := append(make([]byte, 0, min(len(s), 4*n+8)), s[:end]...)
	for i < len(s) {
		c, size := s[i], 1
		if c < utf8.RuneSelf {
			switch {
			case c == ' ' || c == '\t' || c == '\n':
				gap = count > 0
				i++
				continue
			case c < 0x20 || c == 0x7f:
				return "", false
			}
		} else {
			r, rs := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || isHazard(r) {
				return "", false
			}
			if size = rs; unicode.IsSpace(r) {
				gap = count > 0
				i += size
				continue
			}
		}
		if gap {
			if count++; count > n {
				return string(b[:keep]) + "…", true
			}
			if b = append(b, ' '); count == n-1 {
				keep = len(b)
			}
			gap = false
		}
		if count++; count > n {
			return string(b[:keep]) + "…", true
		}
		if b = append(b, s[i:i+size]...); count == n-1 {
			keep = len(b)
		}
		i += size
	}
	return string(b), true
}

// keptRuneAt reports whether s[i:] starts with a rune that Fold keeps and
// clipPlain takes: not white space, not a hazard, valid UTF-8.
func keptRuneAt(s string, i int) bool {
	if c := s[i]; c < utf8.RuneSelf {
		return c > ' ' && c != 0x7f
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r != utf8.RuneError && !isHazard(r) && !unicode.IsSpace(r)
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
