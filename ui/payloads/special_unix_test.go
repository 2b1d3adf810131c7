//go:build unix

package payloads

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgebench/forgebench/resources"
)

// A preset reference naming a FIFO (preset:<fifo>@<session>) blocked the
// panel's compare command forever; a link to /dev/zero read until memory
// ran out. Both are refused at once.
func TestPresetReferenceToASpecialFileIsRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "stack.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	e := env{ws: resources.Workspace{Cwd: t.TempDir()}, cache: newSessionCache()}
	for _, path := range []string{fifo, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, _, err := e.loadPreset(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("loadPreset(%s) = %v", path, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("loadPreset(%s) blocked", path)
		}
	}
}
