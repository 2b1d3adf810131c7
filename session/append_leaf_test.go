package session

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestAppendRefusesALeafWithoutAStringID: Pi continues from the last entry
// in file order. When that entry has no usable string id, a new entry
// could not name it as its parent: it would start a new root and the whole
// conversation would drop out of Pi's and forgebench's context. Append
// refuses (a conflict, exit 3 in the CLI), says why, and writes nothing.
func TestAppendRefusesALeafWithoutAStringID(t *testing.T) {
	header := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T08:00:00.000Z","cwd":"/home/u/proj"}` + "\n"
	user := `{"type":"message","id":"0000aaa2","parentId":null,"timestamp":"2026-11-20T08:00:01.000Z","message":{"role":"user","content":"Hello","timestamp":1795680001000}}` + "\n"
	tail := func(id string) string {
		return `{"type":"message",` + id + `"parentId":"0000aaa2","timestamp":"2026-11-20T08:00:02.000Z","message":{"role":"user","content":"more","timestamp":1795680002000}}` + "\n"
	}
	for _, tc := range []struct{ name, last, why string }{
		{"numeric id", tail(`"id":5,`), "numeric id"},
		{"empty string id", tail(`"id":"",`), "empty id"},
		{"missing id", tail(``), "no id"},
		{"null id", tail(`"id":null,`), "null id"},
		{"object id", tail(`"id":{"a":1},`), "object id"},
		{"not an object", "5\n", "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := stageBytes(t, []byte(header+user+tc.last))
			orig, _ := os.ReadFile(path)
			_, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, AppendOptions{Now: func() time.Time { return appendClock }})
			if err == nil {
				t.Fatal("appended after a leaf without a usable id")
			}
			if !errors.Is(err, ErrNoLeafID) || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), "line 3") {
				t.Fatalf("error does not say why: %v", err)
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, orig) {
				t.Fatal("a refused append changed the file")
			}
		})
	}
	// An empty session (header only) has no leaf: the first entry is a
	// root, as Pi writes it.
	path := stageBytes(t, []byte(header))
	if _, err := Append(path, guardOf(t, path), []NewEntry{CustomEntry("x", nil)}, AppendOptions{Now: func() time.Time { return appendClock }}); err != nil {
		t.Fatalf("header-only session: %v", err)
	}
}
