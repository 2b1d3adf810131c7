package presets

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	pis "github.com/forgebench/forgebench/session"
)

// Text from preset, capability and profile files (a cloned project's
// files included) reaches the screen only through these helpers: escape
// sequences, control characters and bidi overrides are removed, as the
// Session panel does for transcripts.

// cleanText makes multi-line file text safe to draw; newlines are kept.
func cleanText(s string) string { return pis.CleanText(s) }

// cleanLine makes file text safe for one row: newlines become spaces.
func cleanLine(s string) string {
	s = pis.CleanText(s)
	if strings.Contains(s, "\n") {
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return s
}

// hasControl reports whether s holds characters the inline editor cannot
// show faithfully (escape and other control characters but newline and
// tab, bidi overrides): such a block is edited in $EDITOR instead.
func hasControl(s string) bool {
	for _, r := range s {
		switch {
		case r == '\n' || r == '\t':
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\u200e', r == '\u200f',
			r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			return true
		}
	}
	return false
}

// screenSafe is the panel's last line of defence, applied to its whole
// view: it keeps SGR styling (ESC [ … m) and newlines and drops every
// other escape sequence and control character, so file text that some
// view forgot to clean cannot move the cursor, clear the screen, set the
// title or reach the clipboard.
func screenSafe(s string) string {
	if !needsScreenSafe(s) {
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
		case len(seq) > 2 && seq[0] == '\x1b' && seq[1] == '[' && seq[len(seq)-1] == 'm' && isSGRParams(seq[2:len(seq)-1]):
			b.WriteString(seq)
		case seq[0] == '\x1b' || seq[0] < 0x20 || seq[0] == 0x7f || isC1(seq):
			// dropped
		default:
			b.WriteString(seq)
		}
		s = s[n:]
	}
	return b.String()
}

// needsScreenSafe is a fast scan: only escape sequences other than SGR,
// control characters or C1 codes make screenSafe do any work.
func needsScreenSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\x1b':
			j := i + 1
			if j >= len(s) || s[j] != '[' {
				return true
			}
			for j++; j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':'); j++ {
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
		}
	}
	return false
}

func isSGRParams(p string) bool {
	for i := 0; i < len(p); i++ {
		if c := p[i]; !(c >= '0' && c <= '9' || c == ';' || c == ':') {
			return false
		}
	}
	return true
}

// isC1 reports a UTF-8 encoded C1 control character (U+0080–U+009F).
func isC1(seq string) bool {
	return len(seq) == 2 && seq[0] == 0xc2 && seq[1] >= 0x80 && seq[1] <= 0x9f
}
