package session

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestSharedOnePerFileVersion: callers of one unchanged file share one
// session, also when they ask at the same time; a change on disk gives a
// new one; once nobody holds a session the cache lets it go and parses
// the file again when asked.
func TestSharedOnePerFileVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	line := `{"type":"session","version":3,"id":"x","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n" +
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]*Session, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Shared(path)
			if err != nil {
				t.Error(err)
			}
			got[i] = s
		}()
	}
	wg.Wait()
	for _, s := range got[1:] {
		if s != got[0] {
			t.Fatal("concurrent callers got different sessions")
		}
	}
	first := got[0]
	if again, _ := Shared(filepath.Join(filepath.Dir(path), ".", "s.jsonl")); again != first {
		t.Error("the same file by another spelling is parsed again")
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"more","timestamp":2}}` + "\n")
	f.Close()
	later := time.Now().Add(time.Second)
	os.Chtimes(path, later, later)
	grown, err := Shared(path)
	if err != nil || grown == first || len(grown.Entries) != 2 || len(first.Entries) != 1 {
		t.Fatalf("after an append: %v, same %v", err, grown == first)
	}
	got, first = nil, nil
	runtime.KeepAlive(grown)
	// Drop every holder: the weak entry lets the session go.
	grown = nil
	runtime.GC()
	runtime.GC()
	s, err := Shared(path)
	if err != nil || len(s.Entries) != 2 {
		t.Fatalf("after collection: %v", err)
	}
	if _, err := Shared(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Error("a missing file opened")
	}
}
