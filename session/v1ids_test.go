package session

import (
	"strings"
	"testing"
)

// v1 entries carry no ids; Pi invents random ones when it migrates the file.
// forgebench derives them from the session id and the line, so an id copied
// from `session tree` still names the same entry in the next run.
func TestV1IDsAreDeterministic(t *testing.T) {
	a := openTestdata(t, "v1.jsonl")
	b := openTestdata(t, "v1.jsonl")
	if len(a.Entries) == 0 || len(a.Entries) != len(b.Entries) {
		t.Fatalf("entries %d / %d", len(a.Entries), len(b.Entries))
	}
	seen := map[string]bool{}
	for i := range a.Entries {
		if a.Entries[i].ID != b.Entries[i].ID {
			t.Fatalf("entry %d: id %q then %q", i, a.Entries[i].ID, b.Entries[i].ID)
		}
		if seen[a.Entries[i].ID] {
			t.Fatalf("id %q used twice", a.Entries[i].ID)
		}
		seen[a.Entries[i].ID] = true
	}
	leaf := a.Entries[len(a.Entries)-1].ID
	if i, ok := b.IndexOf(leaf); !ok || i != len(b.Entries)-1 {
		t.Errorf("--leaf %s from one run does not resolve in the next", leaf)
	}
	if got := DerivedV1EntryID("v1-sess", a.Entries[0].Line, 0); got != a.Entries[0].ID {
		t.Errorf("DerivedV1EntryID = %q, entry has %q", got, a.Entries[0].ID)
	}
}

// Two v1 sessions get different ids for the same line, and a collision
// within one file is resolved deterministically.
func TestV1IDsDependOnSessionAndResolveCollisions(t *testing.T) {
	one := `{"type":"session","id":"s-one","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}` + "\n" +
		`{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi"}}` + "\n"
	two := strings.Replace(one, "s-one", "s-two", 1)
	if mustRead(t, one).Entries[0].ID == mustRead(t, two).Entries[0].ID {
		t.Error("ids of different sessions collide")
	}
	used := map[string]bool{DerivedV1EntryID("s", 2, 0): true}
	if id := uniqueV1ID("s", 2, used); id != DerivedV1EntryID("s", 2, 1) || !used[id] {
		t.Errorf("collision resolved to %q", id)
	}
}
