package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// A --session file that does not exist is a usage error that says so, as
// it is for the session commands, not an IO failure (exit 1).
func TestMissingSessionFlagIsAUsageError(t *testing.T) {
	args, _ := demoArgs(t)
	missing := filepath.Join(t.TempDir(), "nope.jsonl")
	for _, cmd := range [][]string{
		{"profile", "status", "--session", missing},
		{"preset", "preview", "guarded-worker", "--session", missing},
		{"preset", "list", "--session", missing},
	} {
		code, _, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitUsage || !strings.Contains(errOut, "no such session") {
			t.Errorf("%s: exit %d (%q), want %d and 'no such session'", strings.Join(cmd, " "), code, errOut, exitUsage)
		}
	}
}
