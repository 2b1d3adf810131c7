//go:build unix

package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A models.json that is a FIFO blocked every command that prices a session
// (session context, stats, agents list, payload show …) forever, and a
// symbolic link to /dev/zero read until memory ran out. Both are refused at
// once and named in the one diagnostic; the built-in models stay usable.
func TestSpecialModelsFileIsADiagnosticNotAHang(t *testing.T) {
	for _, kind := range []string{"fifo", "zero"} {
		dir := t.TempDir()
		path := filepath.Join(dir, ModelsFile)
		switch kind {
		case "fifo":
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		case "zero":
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		}
		type result struct {
			cat   *Catalog
			diags []Diagnostic
		}
		done := make(chan result, 1)
		go func() { cat, diags := Shared(dir); done <- result{cat, diags} }()
		select {
		case r := <-done:
			if r.cat != Default() || len(r.diags) != 1 || !strings.Contains(r.diags[0].Line(), "not a regular file") ||
				!strings.Contains(r.diags[0].Line(), "built-in models only") {
				t.Errorf("%s: %p %v", kind, r.cat, r.diags)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Shared blocked on a %s models.json", kind)
		}
	}
}
