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
