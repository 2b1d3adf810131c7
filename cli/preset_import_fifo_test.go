package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// preset new --from names a file to import; a FIFO or a device (which
// would block or never end) is refused without being read (exit 4), as
// the session commands refuse them.
func TestPresetNewFromRefusesFIFOsAndDevices(t *testing.T) {
	args, _ := demoArgs(t)
	fifo := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, file := range []string{fifo, "/dev/zero"} {
		done := make(chan struct{})
		var code int
		var errOut string
		go func() {
			code, _, errOut = runCLI(t, in(args, "preset", "new", "imp", "--from", file)...)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("--from %s still reading after 10s", file)
		}
		if code != exitRefused || !strings.Contains(errOut, "not a regular file") {
			t.Errorf("--from %s: exit %d (%q), want %d", file, code, errOut, exitRefused)
		}
	}
}
