package common_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	. "github.com/forgebench/forgebench/ui/common"
)

const cacheHeader = `{"type":"session","version":3,"id":"01a2297e-0000-7000-8000-000000000001","timestamp":"2026-11-01T09:00:00.000Z","cwd":"/w"}` + "\n"

func cacheEntry(id string) string {
	return `{"type":"message","id":"` + id + `","parentId":null,"timestamp":"2026-11-01T09:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n"
}

func writeSession(t *testing.T, path string, entries ...string) {
	t.Helper()
	data := cacheHeader
	for _, e := range entries {
		data += cacheEntry(e)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSessionCacheReadsAFileOnceUntilItChanges(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	writeSession(t, a, "e1")
	c := NewSessionCache(2)
	first, err := c.Open(a)
	if err != nil || len(first.Entries) != 1 {
		t.Fatalf("open: %v", err)
	}
	for range 10 {
		if s, _ := c.Open(a); s != first {
			t.Fatal("an unchanged file is served from the cache")
		}
	}
	if c.Reads() != 1 {
		t.Fatalf("11 opens of an unchanged file read it %d times", c.Reads())
	}
	// The file grows (follow mode): it is read again.
	writeSession(t, a, "e1", "e2")
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(a, later, later); err != nil {
		t.Fatal(err)
	}
	if s, _ := c.Open(a); s == first || len(s.Entries) != 2 || c.Reads() != 2 {
		t.Fatalf("a changed file is read again: %d entries, %d reads", len(s.Entries), c.Reads())
	}
}

func TestSessionCacheSharesAReadInProgress(t *testing.T) {
	a := filepath.Join(t.TempDir(), "a.jsonl")
	var ids []string
	for i := range 2000 {
		ids = append(ids, "e"+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676)))
	}
	writeSession(t, a, ids...)
	c := NewSessionCache(2)
	var wg sync.WaitGroup
	got := make(chan any, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := c.Open(a)
			if err != nil {
				t.Error(err)
			}
			got <- s
		}()
	}
	wg.Wait()
	close(got)
	var first any
	for s := range got {
		if first == nil {
			first = s
		} else if s != first {
			t.Fatal("concurrent opens of one file got different sessions")
		}
	}
	if c.Reads() != 1 {
		t.Fatalf("8 concurrent opens read the file %d times", c.Reads())
	}
}

func TestSessionCacheEvictsTheLeastRecentlyUsed(t *testing.T) {
	dir := t.TempDir()
	paths := make([]string, 3)
	for i := range paths {
		paths[i] = filepath.Join(dir, string(rune('a'+i))+".jsonl")
		writeSession(t, paths[i], "e1")
	}
	c := NewSessionCache(2)
	c.Open(paths[0])
	c.Open(paths[1])
	c.Open(paths[0]) // a is the most recent now
	c.Open(paths[2]) // b leaves
	if c.Reads() != 3 {
		t.Fatalf("reads %d", c.Reads())
	}
	c.Open(paths[0])
	if c.Reads() != 3 {
		t.Fatal("the most recently used file was evicted")
	}
	c.Open(paths[1])
	if c.Reads() != 4 {
		t.Fatal("the least recently used file was kept beyond the limit")
	}
}

func TestSessionCacheDoesNotKeepErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.jsonl")
	if _, err := NewSessionCache(2).Open(missing); err == nil {
		t.Fatal("a missing file is an error")
	}
	notSession := filepath.Join(dir, "dir.jsonl")
	if err := os.Mkdir(notSession, 0o700); err != nil {
		t.Fatal(err)
	}
	c := NewSessionCache(2)
	if _, err := c.Open(notSession); err == nil {
		t.Fatal("a directory is not a session")
	}
	c.Open(notSession)
	if c.Reads() != 2 {
		t.Fatalf("a failed read was cached (%d reads)", c.Reads())
	}
}

func TestCommonSharesOneSessionCache(t *testing.T) {
	com := &Common{}
	if com.Sessions() == nil || com.Sessions() != com.Sessions() {
		t.Fatal("every panel gets the same cache")
	}
}
