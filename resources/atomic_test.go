package resources

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomicReplaces(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.json")
	write(t, p, "old")
	if err := WriteFileAtomic(p, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new" {
		t.Fatalf("got %q", got)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteFileAtomicInterruptedLeavesOriginal(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.json")
	write(t, p, "original bytes")
	renameHook = func(string, string) error { return errors.New("killed before rename") }
	defer func() { renameHook = os.Rename }()
	if err := WriteFileAtomic(p, []byte("half"), 0o644); err == nil {
		t.Fatal("want the simulated failure")
	}
	if got, _ := os.ReadFile(p); string(got) != "original bytes" {
		t.Fatalf("original changed: %q", got)
	}
	if entries, _ := os.ReadDir(filepath.Dir(p)); len(entries) != 1 {
		t.Fatalf("temporary file not cleaned up: %v", entries)
	}
}
