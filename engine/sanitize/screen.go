package sanitize

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Screen is the last line of defence over a whole rendered view: it keeps
// SGR styling (ESC [ … m, which the program's own styles produce) and
// newlines, and drops every other escape sequence and control character,
// the bidi controls and the line/paragraph separators, so file text that
// some view forgot to clean cannot move the cursor, clear the screen, set
// the title, reach the clipboard or reorder what is drawn. Invalid UTF-8
// becomes U+FFFD first: a raw byte 0x80–0x9f is an 8-bit C1 control (0x9b
// is CSI) that the decoder would otherwise pass through with whatever
// follows it. Text without such hazards is returned unchanged, without a
// copy.
func Screen(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	} else if !needsScreen(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var state byte
	for len(s) > 0 {
		seq, _, n, newState := ansi.DecodeSequence(s, state, nil)
		state = newState
		switch {
		case n <= 0:
			return b.String()
		case seq == "\n":
			b.WriteByte('\n')
		case isSGR(seq):
			b.WriteString(seq)
		case seq[0] == '\x1b' || seq[0] < 0x20 || seq[0] == 0x7f || isC1(seq) || isBidiOrSeparator(seq):
			// dropped
		case !utf8.ValidString(seq):
			// The decoder can split a multi-byte character after an
			// unterminated string sequence (ESC X …); a lone byte
			// 0x80–0x9f is an 8-bit C1 control (0x9b is CSI).
			b.WriteString("\uFFFD")
		default:
			b.WriteString(seq)
		}
		s = s[n:]
	}
	return b.String()
}

// needsScreen is a fast scan: only escape sequences other than SGR,
// control characters or C1 codes make Screen do any work.
func needsScreen(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\x1b':
			j := i + 1
			if j >= len(s) || s[j] != '[' {
				return true
			}
			for j++; j < len(s) && isSGRParam(s[j]); j++ {
			}
			if j >= len(s) || s[j] != 'm' {
				return true
			}
			i = j
		case c == '\n':
		case c < 0x20 || c == 0x7f:
			return true
		case c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
			return true // C1 control in UTF-8
		case c == 0xd8 && i+1 < len(s) && s[i+1] == 0x9c:
			return true // U+061C
		case c == 0xe2 && i+2 < len(s) && (s[i+1] == 0x80 || s[i+1] == 0x81):
			if r, _ := utf8.DecodeRuneInString(s[i:]); isBidiOrSeparatorRune(r) {
				return true
			}
		}
	}
	return false
}

// isSGR reports a complete Select Graphic Rendition sequence: ESC [, digits,
// ";" or ":" only, then "m".
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[0] != '\x1b' || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if !isSGRParam(seq[i]) {
			return false
		}
	}
	return true
}

func isSGRParam(c byte) bool { return c >= '0' && c <= '9' || c == ';' || c == ':' }

// isC1 reports a UTF-8 encoded C1 control character (U+0080–U+009F).
func isC1(seq string) bool {
	return len(seq) == 2 && seq[0] == 0xc2 && seq[1] >= 0x80 && seq[1] <= 0x9f
}

// isBidiOrSeparator reports a sequence that is one bidi control or
// line/paragraph separator rune.
func isBidiOrSeparator(seq string) bool {
	r, n := utf8.DecodeRuneInString(seq)
	return n == len(seq) && isBidiOrSeparatorRune(r)
}

// isBidiOrSeparatorRune reports U+2028, U+2029 and the Bidi_Control set.
func isBidiOrSeparatorRune(r rune) bool {
	return r == '\u2028' || r == '\u2029' || r == '\u061c' || r == '\u200e' || r == '\u200f' ||
		r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}
