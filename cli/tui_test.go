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
