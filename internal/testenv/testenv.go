// Package testenv holds what the test binaries of several packages set up
// the same way before their tests run.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// RunWithPrivateCache runs a package's tests (a TestMain's m) with
// XDG_CACHE_HOME set to a new temporary directory, named after name, which
// is removed afterwards, and exits with their status: forgebench keeps its
// listing and report caches under the user's cache directory, and tests
// must neither read the user's nor leave files in it.
func RunWithPrivateCache(m *testing.M, name string) {
	dir, err := os.MkdirTemp("", "forgebench-"+name+"-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
