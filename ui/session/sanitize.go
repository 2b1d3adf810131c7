package session

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Sanitize makes text that came from a session file safe to put on the
// screen: ANSI escape sequences (CSI, OSC such as OSC 52 clipboard writes,
// DCS, APC, …) are removed, tabs become four spaces, and carriage returns
// and every other C0/C1 control character are dropped. Newlines are kept.
// Invalid UTF-8 becomes U+FFFD so width calculations stay honest.
func Sanitize(s string) string {
	if isPlain(s) {
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
			b.WriteString("    ")
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\u200e', r == '\u200f',
			r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			// dropped: controls, line separators and bidi overrides that
			// would reorder what the user sees
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// SanitizeLine is Sanitize for one-line display: newlines become spaces
// and runs of spaces collapse, so a summary never breaks a row.
func SanitizeLine(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, "\n") && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// isPlain reports whether s is printable ASCII plus newlines, the common
// case that needs no copy.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			continue
		}
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
