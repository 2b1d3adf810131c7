package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/test/hostile"
)

// returnsWithin fails the test when f does not return in time: a read that
// blocks on a FIFO, or streams /dev/zero, never would.
func returnsWithin(t *testing.T, what string, f func()) {
	t.Helper()
	hostile.Within(t, what, f)
}

// The session side of the hostile corpus: discovery and every reader path
// return (no FIFO or device blocks them), summaries and notes carry no raw
// escape, C1 or bidi control, and the tree shows every entry.
func TestHostileCorpusSessions(t *testing.T) {
	st := hostile.Stage(t)
	var items []ListItem
	returnsWithin(t, "ListDir over the hostile corpus", func() {
		var err error
		if items, err = ListDir(st.SessionsDir, ListOptions{}); err != nil {
			t.Error(err)
		}
	})
	byPath := map[string]ListItem{}
	for _, it := range items {
		byPath[it.Path] = it
		hostile.AssertClean(t, "first message of "+filepath.Base(it.Path), it.FirstMessage)
	}
	for role, path := range st.Special {
		if !strings.HasPrefix(role, "session-") {
			continue
		}
		if it, ok := byPath[path]; !ok || !strings.Contains(it.Problem, "not a regular file") {
			t.Errorf("%s: listed %v with problem %q", role, ok, it.Problem)
		}
	}
	if st.EscapedName != "" {
		if it, ok := byPath[st.EscapedName]; !ok || it.Problem != "" {
			t.Errorf("escaped file name: listed %v, problem %q", ok, it.Problem)
		}
	}
	for name, path := range st.Sessions {
		if _, special := byPath[path]; !special && !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		for _, open := range []func(string) (*Session, error){Open, OpenForDisplay} {
			var s *Session
			var err error
			returnsWithin(t, "open "+name, func() { s, err = open(path) })
			if err != nil {
				if !strings.Contains(name, "fifo") && !strings.Contains(name, "zero") {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			tr := s.Tree()
			forestCovers(t, s, tr)
			for i := range s.Entries {
				hostile.AssertClean(t, name+" summary", DescribeEntry(&s.Entries[i]).Text)
			}
			for _, n := range append(s.LoadNotes(), s.TreeNotes(tr)...) {
				hostile.AssertClean(t, name+" note", n)
			}
			if _, err := ContextJSON(s, ""); err != nil {
				t.Errorf("%s: context: %v", name, err)
			}
		}
	}
	cycle, err := Open(st.Sessions["cycle.jsonl"])
	if err != nil {
		t.Fatal(err)
	}
	if notes := cycle.TreeNotes(cycle.Tree()); len(notes) != 2 || !strings.Contains(notes[0], `parentId cycle "a" → "c" → "b" → "a"`) ||
		!strings.Contains(notes[1], `names itself as its parent and is shown as a root: "self"`) {
		t.Errorf("cycle notes %q", notes)
	}
	dups, err := Open(st.Sessions["duplicates.jsonl"])
	if err != nil {
		t.Fatal(err)
	}
	if len(dups.DuplicateIDs()) != 2 || len(dups.Entries) != 4 {
		t.Errorf("duplicates: %+v", dups.DuplicateIDs())
	}
	v1a, _ := Open(st.Sessions["v1.jsonl"])
	v1b, _ := Open(st.Sessions["v1.jsonl"])
	if v1a == nil || v1b == nil || v1a.Entries[1].ID != v1b.Entries[1].ID {
		t.Error("v1 ids differ between two reads")
	}
}

// The huge-line payload, generated at test time just above the display
// limit: display reads skip it after one scan; the full read keeps it.
func TestHostileHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 33 MiB session")
	}
	path := filepath.Join(t.TempDir(), "huge.jsonl")
	if err := hostile.WriteHugeLineSession(path, DisplayMaxLineBytes+1<<20); err != nil {
		t.Fatal(err)
	}
	s, err := OpenForDisplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 2 || len(s.Diagnostics.OversizedLines) != 1 || s.Diagnostics.OversizedLines[0] != 3 {
		t.Fatalf("display read: %d entries, oversized %v", len(s.Entries), s.Diagnostics.OversizedLines)
	}
	notes := s.LoadNotes()
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "line 3 skipped: ") {
		t.Errorf("notes %q", notes)
	}
	fi, _ := os.Stat(path)
	if s.Size != fi.Size() {
		t.Errorf("size %d of %d", s.Size, fi.Size())
	}
}
