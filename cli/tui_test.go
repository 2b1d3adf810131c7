package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bad settings file stops the TUI before it takes the terminal: exit 2
// and a message naming the file and the bad name.
func TestTuiRejectsBadSettingsBeforeStarting(t *testing.T) {
	xdg := t.TempDir()
	dir := filepath.Join(xdg, "forgebench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"keys":{"presets.sve":["ctrl+s"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", xdg)
	code, stdout, stderr := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", t.TempDir())
	if code != exitUsage || stdout != "" || !strings.Contains(stderr, "presets.sve") || !strings.Contains(stderr, "config.json") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// Issue 20 item 6, through the binary's entry point: conflicting
// bindings, a duplicate name and a name made of escape sequences stop the
// start with exit 2, both bindings named, names quoted and escaped on
// the (sanitised) stderr.
func TestTuiRejectsConflictingSettings(t *testing.T) {
	cases := []struct{ file, want string }{
		{`{"keys":{"quit":["1"]}}`, `"quit" and "panel-presets" both use "1"`},
		{`{"keys":{"panel-session":["1"]}}`, `"panel-presets" and "panel-session" both use "1"`},
		{`{"keys":{"quit":["Q"],"quit":["q"]}}`, `duplicate key "quit" in "keys"`},
		{`{"keys":{"\u001b[2J\u009b31m":["x"]}}`, `"\x1b[2J\u009b31m"`},
	}
	for _, c := range cases {
		xdg := t.TempDir()
		dir := filepath.Join(xdg, "forgebench")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("XDG_CONFIG_HOME", xdg)
		code, stdout, stderr := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", t.TempDir())
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want %s", c.file, code, stderr, c.want)
		}
	}
}
