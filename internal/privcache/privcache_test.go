package privcache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A written cache reads back whole, private to its owner, and the temp
// file is gone.
func TestWriteThenRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "forgebench")
	file := filepath.Join(dir, "c.idx")
	if err := Write(dir, file, ".c-*.tmp", []byte("cache")); err != nil {
		t.Fatal(err)
	}
	if got := Read(file, 100); string(got) != "cache" {
		t.Fatalf("Read = %q", got)
	}
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", fi.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".c-*.tmp")); len(left) != 0 {
		t.Fatalf("temp files left: %v", left)
	}
}

// A cache is no cache when it is missing, larger than the caller allows or
// not a regular file.
func TestReadRefusesWhatItCannotTrust(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 11), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, file := range map[string]string{"missing": filepath.Join(dir, "none"), "too large": big, "a directory": dir} {
		if got := Read(file, 10); got != nil {
			t.Errorf("%s: Read = %q, want nil", name, got)
		}
	}
}

// A write that cannot finish leaves the old cache as it was.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.idx")
	if err := Write(dir, file, ".c-*.tmp", []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, file, "bad/pattern-*", []byte("new")); err == nil {
		t.Fatal("a pattern with a separator must fail")
	}
	if got := Read(file, 10); string(got) != "old" {
		t.Fatalf("Read = %q, want the old cache", got)
	}
}

// TestDirAndFileName: the caches live in forgebench under the user's
// cache directory, and another key is another file of the same kind.
func TestDirAndFileName(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	if got := Dir(); got != filepath.Join(home, "forgebench") {
		t.Fatalf("Dir() = %q", got)
	}
	a, b := FileName("sessions", "key a"), FileName("sessions", "key b")
	if a == b || a != FileName("sessions", "key a") || !strings.HasPrefix(a, "sessions-") || !strings.HasSuffix(a, ".idx") {
		t.Fatalf("file names %q %q", a, b)
	}
}
