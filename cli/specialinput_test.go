//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Every FILE a command reads — a preset or request file, --runtime,
// --messages, --base, --macros, a template, a fingerprinted file, a preset
// reference of payload show — is read only when it is a regular file: a
// FIFO blocked the command forever and a link to /dev/zero read until
// memory ran out. Both are refused with exit 4, naming what the path is.
func TestSpecialInputFilesAreRefused(t *testing.T) {
	args, layout := demoArgs(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "input.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sessions, _ := filepath.Glob(filepath.Join(layout.SessionDir, "*.jsonl"))
	if len(sessions) == 0 {
		t.Fatal("demo has no sessions")
	}
	for _, special := range []struct{ path, kind string }{{fifo, "named pipe"}, {"/dev/zero", "character device"}} {
		p := special.path
		for _, cmd := range [][]string{
			{"fingerprint", p},
			{"template", "render", p},
			{"template", "render", "--request", p},
			{"preset", "compile", "--request", p},
			{"preset", "compile", p},
			{"preset", "preview", "pi-mirror", "--runtime", p},
			{"preset", "preview", "pi-mirror", "--messages", p},
			{"preset", "preview", "pi-mirror", "--base", p},
			{"preset", "preview", "pi-mirror", "--macros", p},
			{"preset", "new", "copy-of-special", "--from", p},
			{"payload", "show", "preset:" + p + "@" + sessions[0]},
		} {
			code, _, errOut := runWithin(t, in(args, cmd...)...)
			what := strings.Join(cmd, " ")
			if code != exitRefused || !strings.Contains(errOut, special.kind) || !strings.Contains(errOut, "not a regular file") {
				t.Errorf("%s: exit %d %q", what, code, errOut)
			}
		}
	}
}
