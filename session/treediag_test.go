package session

import (
	"reflect"
	"strings"
	"testing"
)

// forestCovers checks that walking the tree from its roots visits every
// entry exactly once: nothing the file holds is hidden from `session tree`.
func forestCovers(t *testing.T, s *Session, tr *Tree) {
	t.Helper()
	seen := make([]int, len(s.Entries))
	stack := append([]int(nil), tr.Roots...)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		seen[i]++
		if seen[i] > 1 {
			t.Fatalf("entry %d (%s) reached twice", i, s.Entries[i].ID)
		}
		for _, c := range tr.Children(i) {
			stack = append(stack, int(c))
		}
	}
	for i, n := range seen {
		if n == 0 {
			t.Errorf("entry %d (%s, line %d) is not in the tree", i, s.Entries[i].ID, s.Entries[i].Line)
		}
	}
}

// A parentId cycle used to make `session tree` print nothing for the
// entries on it (none is a root); now one entry of each cycle is shown as a
// root and a note names the cycle.
func TestTreeBreaksParentCycles(t *testing.T) {
	file := strings.Join([]string{
		testHeader,
		line("a", "c", "2026-01-01T00:00:01.000Z"),
		line("b", "a", "2026-01-01T00:00:02.000Z"),
		line("c", "b", "2026-01-01T00:00:03.000Z"),
		line("d", "b", "2026-01-01T00:00:04.000Z"),
		line("r", "", "2026-01-01T00:00:05.000Z"),
		line("x", "y", "2026-01-01T00:00:06.000Z"),
		line("y", "x", "2026-01-01T00:00:07.000Z"),
	}, "\n") + "\n"
	s := mustRead(t, file)
	tr := s.Tree()
	forestCovers(t, s, tr)
	var roots []string
	for _, r := range tr.Roots {
		roots = append(roots, s.Entries[r].ID)
	}
	if want := []string{"a", "r", "x"}; !reflect.DeepEqual(roots, want) {
		t.Errorf("roots = %v, want %v (the first entry of each cycle in file order)", roots, want)
	}
	if len(tr.CycleBreaks) != 2 || s.Entries[tr.CycleBreaks[0]].ID != "a" || s.Entries[tr.CycleBreaks[1]].ID != "x" {
		t.Errorf("cycle breaks = %v", tr.CycleBreaks)
	}
	notes := s.TreeNotes(tr)
	want := []string{
		`parentId cycle "a" → "c" → "b" → "a" (lines 2, 4, 3): shown with "a" as a root`,
		`parentId cycle "x" → "y" → "x" (lines 7, 8): shown with "x" as a root`,
	}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes:\n%q\nwant\n%q", notes, want)
	}
	// The path of an entry below a cycle ends (Pi's would hang) where the
	// tree cuts the cycle, so the active markers match the drawn tree.
	if p := s.PathTo(3); !reflect.DeepEqual(p, []int{0, 1, 3}) {
		t.Errorf("path to d = %v, want a → b → d", p)
	}
	if p := s.PathTo(2); !reflect.DeepEqual(p, []int{0, 1, 2}) {
		t.Errorf("path to c = %v, want a → b → c", p)
	}
}

// Duplicate ids: Pi's id map keeps the last entry, which can knot the
// parent links; every entry still shows, and notes name the duplicates.
func TestTreeWithDuplicateIDsShowsEveryEntry(t *testing.T) {
	file := strings.Join([]string{
		testHeader,
		line("a", "", "2026-01-01T00:00:01.000Z"),
		line("b", "a", "2026-01-01T00:00:02.000Z"),
		line("a", "b", "2026-01-01T00:00:03.000Z"),
		line("b", "a", "2026-01-01T00:00:04.000Z"),
	}, "\n") + "\n"
	s := mustRead(t, file)
	tr := s.Tree()
	forestCovers(t, s, tr)
	dups := s.DuplicateIDs()
	if want := []DuplicateID{{ID: "a", Lines: []int{2, 4}}, {ID: "b", Lines: []int{3, 5}}}; !reflect.DeepEqual(dups, want) {
		t.Errorf("duplicates = %+v", dups)
	}
	notes := s.LoadNotes()
	if len(notes) != 2 || notes[0] != `id "a" is used by 2 entries (lines 2, 4); parent links and --leaf use the last one` {
		t.Errorf("load notes = %q", notes)
	}
	if tn := s.TreeNotes(tr); len(tn) != 1 || !strings.Contains(tn[0], "cycle") {
		t.Errorf("tree notes = %q", tn)
	}
}

// Orphans were already roots (as in Pi); the note says why.
func TestTreeNotesOrphans(t *testing.T) {
	file := testHeader + "\n" + line("o", "gone", "2026-01-01T00:00:01.000Z") + "\n" + line("p", "o", "2026-01-01T00:00:02.000Z") + "\n"
	s := mustRead(t, file)
	tr := s.Tree()
	forestCovers(t, s, tr)
	if notes := s.TreeNotes(tr); len(notes) != 1 || notes[0] != `1 entry names a parent that does not exist and is shown as a root: "o" (parent "gone", line 2)` {
		t.Errorf("notes = %q", notes)
	}
}

// Ids in notes are quoted: an escape sequence planted in an id cannot reach
// the terminal through a note.
func TestNotesQuoteHostileIDs(t *testing.T) {
	file := testHeader + "\n" + line(`\u001b]52;c;SGVsbG8=\u0007`, "", "2026-01-01T00:00:01.000Z") + "\n" +
		line(`\u001b]52;c;SGVsbG8=\u0007`, "", "2026-01-01T00:00:02.000Z") + "\n" + line("z", `\u009b31m`, "2026-01-01T00:00:03.000Z") + "\n"
	s := mustRead(t, file)
	for _, n := range append(s.LoadNotes(), s.TreeNotes(s.Tree())...) {
		if strings.ContainsAny(n, "\x1b\x07\u009b") {
			t.Errorf("raw control character in note %q", n)
		}
	}
}

// FuzzTreeShapes builds sessions whose ids and parent links come from the
// fuzzer (duplicates, cycles, self-links and orphans included) and checks
// that the tree shows every entry exactly once and that each path is a
// root-to-leaf chain of the drawn tree.
func FuzzTreeShapes(f *testing.F) {
	f.Add([]byte{1, 2, 2, 3, 3, 1})
	f.Add([]byte{0, 0, 1, 0, 0, 1, 1, 0})
	f.Add([]byte{5, 9, 7, 5, 9, 7, 1, 255})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 400 {
			data = data[:400]
		}
		var b strings.Builder
		b.WriteString(testHeader + "\n")
		for k := 0; k+1 < len(data); k += 2 {
			id := "e" + string(rune('a'+data[k]%16))
			parent := ""
			if data[k+1] < 240 {
				parent = "e" + string(rune('a'+data[k+1]%20))
			}
			b.WriteString(line(id, parent, "2026-01-01T00:00:0"+string(rune('0'+k%10))+".000Z") + "\n")
		}
		s := mustRead(t, b.String())
		tr := s.Tree()
		forestCovers(t, s, tr)
		// Pi's path walk and Pi's tree only disagree when an entry names
		// its own id as parent while a duplicate carries that id (the tree
		// makes it a root, the walk goes on to the duplicate); otherwise a
		// path is a chain of the drawn tree.
		sameAsTree := len(s.DuplicateIDs()) == 0
		for i := range s.Entries {
			p := s.PathTo(i)
			if len(p) == 0 || p[len(p)-1] != i {
				t.Fatalf("path to %d = %v", i, p)
			}
			seen := map[int]bool{}
			for k, e := range p {
				if seen[e] {
					t.Fatalf("path to %d = %v repeats %d", i, p, e)
				}
				seen[e] = true
				if k > 0 && int(s.parent[e]) != p[k-1] {
					t.Fatalf("path to %d = %v: %d is not the parent of %d", i, p, p[k-1], e)
				}
			}
			if !sameAsTree {
				continue
			}
			if tr.Parent[p[0]] != -1 {
				t.Fatalf("path to %d = %v does not start at a root of the tree", i, p)
			}
			for k := 1; k < len(p); k++ {
				if int(tr.Parent[p[k]]) != p[k-1] {
					t.Fatalf("path to %d = %v: %d is not the tree parent of %d", i, p, p[k-1], p[k])
				}
			}
		}
	})
}

// An entry whose parentId is its own id was shown as a root without a
// word, while every other repair of the tree has a note.
func TestTreeNotesSelfParents(t *testing.T) {
	file := strings.Join([]string{
		testHeader,
		line("r", "", "2026-01-01T00:00:01.000Z"),
		line("s", "s", "2026-01-01T00:00:02.000Z"),
	}, "\n") + "\n"
	s := mustRead(t, file)
	tr := s.Tree()
	forestCovers(t, s, tr)
	want := []string{`1 entry names itself as its parent and is shown as a root: "s" (line 3)`}
	if notes := s.TreeNotes(tr); !reflect.DeepEqual(notes, want) {
		t.Errorf("notes = %q, want %q", notes, want)
	}
}
