package resources

import (
	"path/filepath"
	"testing"
)

func TestDiscoverContextFilesOrderAndPrecedence(t *testing.T) {
	root := t.TempDir()
	agent := filepath.Join(root, "agent")
	cwd := filepath.Join(root, "work", "app")
	write(t, filepath.Join(agent, "AGENTS.md"), "global rules")
	write(t, filepath.Join(root, "work", "CLAUDE.md"), "work rules")
	write(t, filepath.Join(cwd, "AGENTS.md"), "app rules")
	write(t, filepath.Join(cwd, "AGENTS.override.md"), "app override")
	write(t, filepath.Join(cwd, "CLAUDE.md"), "ignored: AGENTS.override.md wins")

	got, err := DiscoverContextFiles(agent, cwd)
	if err != nil {
		t.Fatal(err)
	}
	want := []ContextFile{
		{filepath.Join(agent, "AGENTS.md"), "global rules"},
		{filepath.Join(root, "work", "CLAUDE.md"), "work rules"},
		{filepath.Join(cwd, "AGENTS.override.md"), "app override"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d files %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("file %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
