// Package uitest holds helpers shared by the UI golden tests: a View()
// snapshot is compared with testdata/<name>.golden, and `go test ./ui/...
// -update` rewrites the files so a reviewer can eyeball them in the diff.
package uitest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Golden compares got (ANSI styling stripped, so goldens stay readable and
// theme-independent) with testdata/<name>.golden.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	got = ansi.Strip(got)
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden %s (run with -update to create it): %v", path, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// AssertFits fails when the rendered screen is not exactly width×height
// cells: every frame must fill the terminal and never overflow it.
func AssertFits(t *testing.T, view string, width, height int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != height {
		t.Errorf("view has %d lines, want %d", len(lines), height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Errorf("line %d is %d cells wide, max %d: %q", i+1, w, width, ansi.Strip(l))
		}
	}
}
