package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A session argument that is a path names what is wrong with it: a
// directory is handed to the opener, which refuses it as a directory (it
// was "file not found"), and a symbolic-link loop says so.
func TestResolveSessionPathsSayWhatTheyAre(t *testing.T) {
	dir := t.TempDir()
	loc := Locations{AgentDir: filepath.Join(dir, "agent")}
	sessionsDir := filepath.Join(dir, "dir.jsonl")
	if err := os.Mkdir(sessionsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := ResolveSession(loc, dir, dir, sessionsDir)
	if err != nil || got != sessionsDir {
		t.Fatalf("a directory path: %q, %v; want it handed to the opener", got, err)
	}
	if _, err := Open(got); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("the opener on a directory: %v", err)
	}
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	if err := os.Symlink(b, a); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(a, b); err != nil {
		t.Fatal(err)
	}
	_, err = ResolveSession(loc, dir, dir, a)
	if !errors.Is(err, ErrNoSuchSession) || strings.Contains(err.Error(), "no such file") {
		t.Errorf("a symbolic-link loop: %v", err)
	}
	_, err = ResolveSession(loc, dir, dir, filepath.Join(dir, "missing.jsonl"))
	if !errors.Is(err, ErrNoSuchSession) || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
}
