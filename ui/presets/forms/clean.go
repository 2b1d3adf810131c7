package forms

import (
	"strings"

	pis "github.com/forgebench/forgebench/session"
)

// cleanLine makes text from a preset or capability file safe for one row
// of a form: escape sequences, control characters and bidi overrides go
// (pis.CleanText, as for session transcripts) and newlines become spaces.
func cleanLine(s string) string {
	return strings.ReplaceAll(pis.CleanText(s), "\n", " ")
}
