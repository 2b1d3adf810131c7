package cli

import (
	"os"
	"testing"
)

// TestMain runs the package's tests in the C locale: Run resolves the
// language from LC_ALL/LC_MESSAGES/LANG on every call, and the tests
// compare English output whatever the shell's locale is (the language
// tests set their own).
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "C")
	os.Exit(m.Run())
}
