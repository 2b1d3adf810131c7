package session

import (
	"bytes"
	"errors"
	"os"
	"testing"
	"time"
)

// TestAppendOwnRecentWriteIsNotLive: a file modified a moment ago by
// forgebench's own append — its last bytes are a marked entry and nothing
// was written after it — is not "in use": an immediate undo appends
// without Force.
func TestAppendOwnRecentWriteIsNotLive(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	opts := AppendOptions{FindPi: noPi}
	first, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil), CustomEntry("y", nil)}, opts)
	if err != nil {
		t.Fatalf("first append: %v", err)
	}
	second, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("undo", nil)}, opts)
	if err != nil {
		t.Fatalf("an append right after forgebench's own was refused: %v", err)
	}
	if s, _ := Open(path); len(second.IDs) != 1 || s.Entries[len(s.Entries)-1].ParentID != first.LeafID {
		t.Fatalf("the undo does not chain from the first append: %+v", second)
	}
}

// TestAppendForeignRecentWriteIsLive: a write by anything else inside the
// window is still refused — an entry appended after forgebench's (Pi's
// ids carry no mark), bytes after its last line, or a modification time
// that does not match forgebench's last entry.
func TestAppendForeignRecentWriteIsLive(t *testing.T) {
	own := func(t *testing.T, now func() time.Time) (string, AppendResult) {
		path := stageSession(t, "base.jsonl")
		res, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, AppendOptions{FindPi: noPi, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return path, res
	}
	appendRaw := func(t *testing.T, path, text string) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		must(t, err)
		_, err = f.WriteString(text)
		must(t, err)
		must(t, f.Close())
	}
	stamp := func() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }
	cases := map[string]func(t *testing.T) string{
		"Pi appended after it": func(t *testing.T) string {
			path, res := own(t, nil)
			appendRaw(t, path, `{"type":"message","id":"0000bbb1","parentId":"`+res.LeafID+`","timestamp":"`+stamp()+`","message":{"role":"user","content":"Hi","timestamp":1}}`+"\n")
			return path
		},
		"a torn line after it": func(t *testing.T) string {
			path, _ := own(t, nil)
			appendRaw(t, path, `{"type":"message","id":"0000bb`)
			return path
		},
		"modified long after its last entry": func(t *testing.T) string {
			// The entry says it was written 6 s ago, the file a moment ago.
			path, _ := own(t, func() time.Time { return time.Now().Add(-6 * time.Second) })
			now := time.Now()
			must(t, os.Chtimes(path, now, now))
			return path
		},
	}
	for name, stage := range cases {
		t.Run(name, func(t *testing.T) {
			path := stage(t)
			before, _ := os.ReadFile(path)
			g := Guard{}
			if s, err := Open(path); err == nil {
				g = GuardOf(s)
			}
			_, err := Append(path, g, []NewEntry{CustomEntry("undo", nil)}, AppendOptions{FindPi: noPi})
			if !errors.Is(err, ErrLive) {
				t.Fatalf("want the live refusal, got %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Fatal("a refused append changed the file")
			}
		})
	}
}
