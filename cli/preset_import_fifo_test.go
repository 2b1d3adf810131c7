package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/test/hostile"
)

// preset new --from names a file to import; a FIFO or a device (which
// would block or never end) is refused without being read (exit 4), as
// the session commands refuse them.
func TestPresetNewFromRefusesFIFOsAndDevices(t *testing.T) {
	args, _ := demoArgs(t)
	dir := t.TempDir()
	fifo, zero := filepath.Join(dir, "pipe.json"), filepath.Join(dir, "zero.json")
	hostile.MakeSpecial(t, fifo, "fifo")
	hostile.MakeSpecial(t, zero, "zero")
	for _, file := range []string{fifo, zero} {
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
