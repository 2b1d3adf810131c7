package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/testenv"
)

// TestMain runs the package's tests in the C locale: Run resolves the
// language from LC_ALL/LC_MESSAGES/LANG on every call, and the tests
// compare English output whatever the shell's locale is (the language
// tests set their own). It points the user's cache directory at a
// temporary one: the cache report and the session listing keep their
// caches there, and a test run must not leave files in the user's. One
// already under the temporary directory is kept (a benchmark profiles a
// warm cache so).
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "C")
	if strings.HasPrefix(os.Getenv("XDG_CACHE_HOME"), os.TempDir()) {
		os.Exit(m.Run())
	}
	// go build run by a test keeps the build cache it had: by default it
	// lives under the user's cache directory too.
	if os.Getenv("GOCACHE") == "" {
		if user, err := os.UserCacheDir(); err == nil {
			os.Setenv("GOCACHE", filepath.Join(user, "go-build"))
		}
	}
	testenv.RunWithPrivateCache(m, "cli")
}
