// Package uitest is the shared test kit of the UI: a harness that drives a
// panel, a form or the root like the bubbletea runtime does (keys by name,
// commands run to completion), and golden View() snapshots compared with
// testdata/<name>.golden.
//
// Goldens are refreshed with one environment variable for the whole
// repository, so a reviewer can eyeball the new files in the diff:
//
//	UPDATE_GOLDEN=1 go test ./...
package uitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/internal/timing"
)

// UpdateEnv is the environment variable that rewrites golden files.
const UpdateEnv = "UPDATE_GOLDEN"

// Updating reports whether this test run rewrites golden files.
func Updating() bool { return os.Getenv(UpdateEnv) == "1" }

// Golden compares got, with ANSI styling stripped (readable and
// theme-independent), with testdata/<name>.golden.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	compareGolden(t, name, ansi.Strip(got))
}

// GoldenANSI compares got with its styling kept, so a focus or theme
// regression (the wrong pane highlighted, old colours after a switch)
// fails the test; `cat` the file in a terminal to see it.
func GoldenANSI(t *testing.T, name, got string) {
	t.Helper()
	compareGolden(t, name+".ansi", got)
}

func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if Updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatalf("create testdata for golden %s: %v", path, err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatalf("write golden %s: %v", path, err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden %s (run with %s=1 to create it): %v", path, UpdateEnv, err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (run with %s=1 to accept):\n--- want\n%s\n--- got\n%s", path, UpdateEnv, want, got)
	}
}

// AssertFills fails when the rendered screen is not exactly width×height
// cells with every line exactly width wide: a panel's view is laid
// beside others, so a short line would shift its neighbours. It also
// fails on a replacement character: a cut that split a wide character
// (every language's goldens are checked for it here, once).
func AssertFills(t *testing.T, view string, width, height int) {
	t.Helper()
	AssertFits(t, view, width, height)
	for i, l := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(l); w != width {
			t.Errorf("line %d is %d cells wide, want exactly %d", i+1, w, width)
		}
		if strings.ContainsRune(l, '\uFFFD') {
			t.Errorf("line %d cuts a character in half: %q", i+1, ansi.Strip(l))
		}
	}
}

// AssertScreen is AssertFills for a golden screen in any language, which
// also must not show a temporary path (the harnesses' workspaces live in
// the temporary directory; a golden holding one would differ on every
// run) and must show each of want.
func AssertScreen(t *testing.T, view string, width, height int, want ...string) {
	t.Helper()
	AssertFills(t, view, width, height)
	plain := ansi.Strip(view)
	if strings.Contains(plain, os.TempDir()) {
		t.Errorf("the view shows a temporary path:\n%s", plain)
	}
	for _, s := range want {
		if !strings.Contains(plain, s) {
			t.Errorf("the view lacks %q:\n%s", s, plain)
		}
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

// TimingEnv is the environment variable that turns on wall-clock budget
// tests. They are off by default: a busy or instrumented run (-race, a
// shared CI machine) makes them fail for reasons that are not the code's.
const TimingEnv = timing.Env

// RequireTiming skips a wall-clock budget test unless FORGEBENCH_TIMING=1
// (internal/timing, which tests outside ui use).
func RequireTiming(t *testing.T) {
	t.Helper()
	timing.Require(t)
}
