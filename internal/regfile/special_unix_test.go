//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO without a writer and a symbolic link to /dev/zero are refused at
// once, without being opened (an open of the FIFO would block, a read of
// /dev/zero would never end).
func TestSpecialFilesAreRefusedWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "models.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for path, kind := range map[string]string{fifo: "named pipe (FIFO)", zero: "character device"} {
		done := make(chan error, 1)
		go func() { _, err := Read(path, 1<<20); done <- err }()
		select {
		case err := <-done:
			var nr *NotRegularError
			if !errors.As(err, &nr) || nr.Kind != kind {
				t.Errorf("Read(%s) = %v, want a %s refusal", filepath.Base(path), err, kind)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Read(%s) blocked", filepath.Base(path))
		}
	}
}
