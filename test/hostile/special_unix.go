//go:build unix

package hostile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// makeSpecialFiles adds FIFOs and symlinks to /dev/zero where sessions and
// resources are discovered; reading any of them would block or never end.
func makeSpecialFiles(t testing.TB, s *Staged) {
	t.Helper()
	forge := filepath.Join(s.Cwd, ".pi", "forge")
	for role, path := range map[string]string{
		"session-fifo": filepath.Join(s.SessionsDir, "fifo.jsonl"),
		"preset-fifo":  filepath.Join(forge, "prompt-stacks", "fifo.json"),
	} {
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Logf("mkfifo %s: %v (skipped)", path, err)
			continue
		}
		s.Special[role] = path
	}
	for role, path := range map[string]string{
		"session-zero":    filepath.Join(s.SessionsDir, "zero.jsonl"),
		"capability-zero": filepath.Join(forge, "capabilities", "zero.json"),
		"role-zero":       filepath.Join(s.Cwd, ".pi", "agents", "zero.md"),
	} {
		if err := os.Symlink("/dev/zero", path); err != nil {
			t.Logf("symlink %s: %v (skipped)", path, err)
			continue
		}
		s.Special[role] = path
	}
}

// MakeSpecial replaces path with a special file of kind "fifo" (a named
// pipe with no writer: opening it for reading blocks) or "zero" (a
// symbolic link to /dev/zero: reading it never ends), skipping the test
// where the platform cannot make one.
func MakeSpecial(t testing.TB, path, kind string) {
	t.Helper()
	os.Remove(path)
	var err error
	switch kind {
	case "fifo":
		err = syscall.Mkfifo(path, 0o644)
	case "zero":
		err = os.Symlink("/dev/zero", path)
	default:
		t.Fatalf("MakeSpecial: unknown kind %q", kind)
	}
	if err != nil {
		t.Skipf("make a %s at %s: %v", kind, path, err)
	}
}
