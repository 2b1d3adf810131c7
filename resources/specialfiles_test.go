//go:build unix

package resources

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A hostile checkout can hold a FIFO or a symlink to /dev/zero where a
// resource file is expected. Loading must not hang or stream forever: the
// file becomes a read fault.
func TestSpecialFilesAreFaultsNotHangs(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "ok.json": stackJSON("ok", "")})
	mkfifo := func(rel string) string {
		p := wsPath(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		return p
	}
	fifo := mkfifo(projStacks + "fifo.json")
	mkfifo(legacy + "legacy-fifo.json")
	mkfifo("p/.pi/forge/config.json")
	zero := wsPath(ws, projProfiles+"zero.json")
	if err := os.MkdirAll(filepath.Dir(zero), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	var lib *Library
	within(t, "LoadLibrary", func() { lib = mustLoad(t, ws) })
	var sawFifo, sawZero bool
	for _, p := range lib.Presets {
		if p.Path == fifo {
			sawFifo = p.Fault && strings.Contains(p.Diagnostics[0].Message, "Failed to read prompt stack: ")
		}
	}
	for _, p := range lib.Profiles {
		if p.Path == zero {
			sawZero = p.Fault && strings.Contains(p.Diagnostics[0].Message, "Failed to read agent profile: ")
		}
	}
	if !sawFifo || !sawZero {
		t.Fatalf("special files must be read faults: fifo %v, /dev/zero %v", sawFifo, sawZero)
	}
	if len(lib.Config.Warnings) != 1 || !strings.Contains(lib.Config.Warnings[0], "failed to read") {
		t.Fatalf("config warnings: %q", lib.Config.Warnings)
	}
	within(t, "MigrateStacks", func() {
		rep, err := MigrateStacks(ws, false, false, false)
		if err != nil || rep.Errors != 1 {
			t.Errorf("migration of a FIFO: %+v %v", rep, err)
		}
	})
	mkfifo("p/AGENTS.md")
	within(t, "DiscoverContextFiles", func() {
		if _, err := DiscoverContextFiles(ws.AgentDir, ws.Cwd); err == nil {
			t.Error("a FIFO context file must be an error")
		}
	})
}
