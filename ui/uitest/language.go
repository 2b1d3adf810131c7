package uitest

import (
	"testing"

	"github.com/forgebench/forgebench/i18n"
)

// InLanguage switches the process to l for the rest of the test and back
// to English after it. The language is process-wide (i18n.Current), so a
// test that calls it must not run in parallel with others.
func InLanguage(t testing.TB, l i18n.Lang) {
	t.Helper()
	prev := i18n.Current()
	i18n.SetLanguage(l)
	t.Cleanup(func() { i18n.SetLanguage(prev) })
}
