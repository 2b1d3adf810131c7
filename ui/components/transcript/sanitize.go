package transcript

import (
	"strings"

	"github.com/forgebench/forgebench/session"
)

// Sanitize makes text that came from a session file safe to put on the
// screen (session.CleanText: escape sequences, control characters and bidi
// overrides removed, newlines kept).
func Sanitize(s string) string { return session.CleanText(s) }

// SanitizeLine is Sanitize for one-line display: newlines become spaces
// and runs of spaces collapse, so a summary never breaks a row.
func SanitizeLine(s string) string {
	s = session.CleanText(s)
	if !strings.ContainsAny(s, "\n") && !strings.Contains(s, "  ") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}
