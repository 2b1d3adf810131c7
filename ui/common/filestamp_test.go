package common

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFileStampSame: a stamp stays the same until the file's size or
// modification time changes, or it appears or goes.
func TestFileStampSame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	missing := StampOf(path)
	if missing.Exists || !missing.Same() {
		t.Fatalf("missing file: %+v, same %v", missing, missing.Same())
	}
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if missing.Same() {
		t.Fatal("a file that appeared looks the same")
	}
	st := StampOf(path)
	if !st.Exists || st.Size != 2 || !st.Same() {
		t.Fatalf("stamp %+v, same %v", st, st.Same())
	}
	old := st.ModTime.Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if st.Same() {
		t.Fatal("a changed modification time looks the same")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if StampOf(path).Exists || st.Same() {
		t.Fatal("a removed file still looks stamped")
	}
}
