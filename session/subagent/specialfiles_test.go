//go:build unix

package subagent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// returnsWithin fails when f blocks (on a FIFO) or streams (/dev/zero).
func returnsWithin(t *testing.T, what string, f func()) {
	t.Helper()
	hostile.Within(t, what, f)
}

// A trusted checkout can hold a FIFO or a /dev/zero symlink where a role
// file or subagent.json is expected: loading reports it and returns.
func TestRolesAndConfigRefuseSpecialFiles(t *testing.T) {
	cwd := t.TempDir()
	agents := filepath.Join(cwd, ".pi", "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(agents, "fifo.md"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(agents, "zero.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(cwd, ".pi", ConfigFileName), 0o644); err != nil {
		t.Fatal(err)
	}
	var roles *RoleCatalog
	returnsWithin(t, "LoadRoles", func() { roles = LoadRoles(t.TempDir(), cwd, "both", true) })
	if got := strings.Join(roles.Errors, "\n"); !strings.Contains(got, "zero.md") || !strings.Contains(got, "not a regular file") {
		t.Errorf("role errors: %q", roles.Errors)
	}
	var cfg *Config
	returnsWithin(t, "LoadConfig", func() { cfg = LoadConfig(t.TempDir(), cwd, true) })
	var errs []string
	for _, f := range cfg.Files {
		errs = append(errs, f.Errors...)
	}
	if got := strings.Join(errs, "\n"); !strings.Contains(got, "not a regular file") {
		t.Errorf("config errors: %q", errs)
	}
}
