//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A settings file that is a FIFO kept `forgebench` (the TUI) from ever
// starting, and a symbolic link to /dev/zero read until memory ran out.
// Both are an error that names the file, at once.
func TestSpecialSettingsFileIsRefused(t *testing.T) {
	for _, kind := range []string{"fifo", "zero"} {
		path := filepath.Join(t.TempDir(), "config.json")
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
		done := make(chan error, 1)
		go func() { _, err := Load(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v", kind, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load blocked on a %s settings file", kind)
		}
	}
}
