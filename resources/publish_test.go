package resources

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestReplaceFileReplacesWhatTheCheckAccepted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	// Absent: created, and the check is told so.
	var saw fs.FileInfo
	called := false
	if err := ReplaceFile(path, []byte("one"), 0o644, func(fi fs.FileInfo) error { called, saw = true, fi; return nil }); err != nil {
		t.Fatal(err)
	}
	if !called || saw != nil || string(readBytes(t, path)) != "one" {
		t.Fatalf("create: called %v, saw %v, %q", called, saw, readBytes(t, path))
	}
	// Present: replaced after the check accepted it.
	if err := ReplaceFile(path, []byte("two"), 0o600, func(fi fs.FileInfo) error { saw = fi; return nil }); err != nil {
		t.Fatal(err)
	}
	if saw == nil || !saw.Mode().IsRegular() || string(readBytes(t, path)) != "two" {
		t.Fatalf("replace: saw %v, %q", saw, readBytes(t, path))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	// Refused by the check: untouched.
	refused := errors.New("no")
	if err := ReplaceFile(path, []byte("three"), 0o644, func(fs.FileInfo) error { return refused }); err != refused {
		t.Errorf("refusal: %v", err)
	}
	if string(readBytes(t, path)) != "two" {
		t.Errorf("a refused replacement wrote %q", readBytes(t, path))
	}
	noTemps(t, dir)
}

// Another program replaces the file between the check and the exchange:
// its file stays, and the caller is told (Linux, where the exchange is
// atomic).
func TestReplaceFileUndoesAnExchangeWithAChangedFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("renameat2 RENAME_EXCHANGE is Linux only")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	if err := os.WriteFile(path, []byte("checked"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := ReplaceFile(path, []byte("ours"), 0o644, func(fs.FileInfo) error {
		other := filepath.Join(dir, "other")
		if err := os.WriteFile(other, []byte("theirs"), 0o644); err != nil {
			t.Fatal(err)
		}
		return os.Rename(other, path) // after the check saw "checked"
	})
	if err == errNoAtomicRename {
		t.Skip("no RENAME_EXCHANGE on this file system")
	}
	if !errors.Is(err, ErrTargetChanged) {
		t.Fatalf("err = %v, want ErrTargetChanged", err)
	}
	if got := string(readBytes(t, path)); got != "theirs" {
		t.Errorf("path holds %q, want the other program's file", got)
	}
	noTemps(t, dir)
}

// With no name taken, WriteFileExclusive creates; with the name taken, it
// fails with fs.ErrExist and leaves what is there.
func TestWriteFileExclusive(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.md")
	if err := WriteFileExclusive(path, []byte("first"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileExclusive(path, []byte("second"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second create: %v", err)
	}
	link := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileExclusive(link, []byte("x"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("create over a dangling link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the link was followed")
	}
	if string(readBytes(t, path)) != "first" {
		t.Errorf("replaced: %q", readBytes(t, path))
	}
	noTemps(t, dir)
}
