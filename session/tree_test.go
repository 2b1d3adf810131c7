package session

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func line(id, parent, ts string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"custom","customType":"x","id":"` + id + `","parentId":` + p + `,"timestamp":"` + ts + `"}`
}

func ids(s *Session, idx []int32) []string {
	var out []string
	for _, i := range idx {
		out = append(out, s.Entries[i].ID)
	}
	return out
}

func TestTreeOrderRootsAndOrphans(t *testing.T) {
	file := strings.Join([]string{
		testHeader,
		line("r1", "", "2026-01-01T00:00:00.000Z"),
		line("c-late", "r1", "2026-01-01T00:00:09.000Z"),
		line("c-early", "r1", "2026-01-01T00:00:01.000Z"),
		line("c-bad", "r1", "not a date"),
		line("c-mid", "r1", "2026-01-01T00:00:05+00:00"),
		line("orphan", "missing", "2026-01-01T00:00:02.000Z"),
		line("self", "self", "2026-01-01T00:00:03.000Z"),
		line("r2", "", "2026-01-01T00:00:04.000Z"),
		line("g1", "c-early", "2026-01-01T00:00:06.000Z"),
	}, "\n") + "\n"
	s := mustRead(t, file)
	tr := s.Tree()
	var roots []string
	for _, r := range tr.Roots {
		roots = append(roots, s.Entries[r].ID)
	}
	if want := []string{"r1", "orphan", "self", "r2"}; !reflect.DeepEqual(roots, want) {
		t.Errorf("roots = %v, want %v", roots, want)
	}
	if len(tr.Orphans) != 1 || s.Entries[tr.Orphans[0]].ID != "orphan" {
		t.Errorf("orphans = %v", tr.Orphans)
	}
	r1, _ := s.IndexOf("r1")
	// Children sorted by timestamp; an unparsable one lands where V8's binary
	// insertion sort puts it.
	got := ids(s, tr.Children(r1))
	if want := []string{"c-early", "c-mid", "c-late", "c-bad"}; !reflect.DeepEqual(got, want) {
		t.Errorf("children of r1 = %v", got)
	}
	var leaves []string
	for _, l := range tr.Leaves() {
		leaves = append(leaves, s.Entries[l].ID)
	}
	if want := []string{"c-late", "c-bad", "c-mid", "orphan", "self", "r2", "g1"}; !reflect.DeepEqual(leaves, want) {
		t.Errorf("leaves = %v", leaves)
	}
	// Default leaf = last entry in file order, not newest or deepest.
	if leaf, _ := s.Leaf(); leaf.ID != "g1" {
		t.Errorf("leaf = %s", leaf.ID)
	}
	g1, _ := s.IndexOf("g1")
	var path []string
	for _, i := range s.PathTo(g1) {
		path = append(path, s.Entries[i].ID)
	}
	if want := []string{"r1", "c-early", "g1"}; !reflect.DeepEqual(path, want) {
		t.Errorf("path = %v", path)
	}
	self, _ := s.IndexOf("self")
	if p := s.PathTo(self); len(p) != 1 {
		t.Errorf("self-parent path = %v", p)
	}
}

func TestPathCycleTerminates(t *testing.T) {
	var b strings.Builder
	b.WriteString(testHeader + "\n")
	// a long chain whose first entry points back at the last one
	const n = 200
	for i := 0; i < n; i++ {
		parent := "n" + itoa(i-1)
		if i == 0 {
			parent = "n" + itoa(n-1)
		}
		b.WriteString(line("n"+itoa(i), parent, "2026-01-01T00:00:00.000Z") + "\n")
	}
	b.WriteString(line("a", "b", "t") + "\n" + line("b", "a", "t") + "\n")
	s := mustRead(t, b.String())
	if p := s.PathTo(n - 1); len(p) != n {
		t.Errorf("cycle path length = %d, want %d", len(p), n)
	}
	if p := s.PathTo(s.LeafIndex()); len(p) != 2 {
		t.Errorf("short cycle path = %d", len(p))
	}
}

func TestLabelsLastWinsInFileOrder(t *testing.T) {
	lbl := func(id, parent, target, label string) string {
		l := ""
		if label != "-" {
			l = `,"label":"` + label + `"`
		}
		return `{"type":"label","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-01-01T00:00:0` + id[1:] + `.000Z","targetId":"` + target + `"` + l + `}`
	}
	file := strings.Join([]string{
		testHeader,
		line("r", "", "2026-01-01T00:00:00.000Z"),
		lbl("l1", "r", "r", "one"),
		lbl("l2", "r", "x", "ex"), // a side branch still counts
		lbl("l3", "l1", "y", "why"),
		lbl("l4", "l3", "r", "two"),  // updates in place
		lbl("l5", "l4", "x", "-"),    // clears
		lbl("l6", "l5", "x", "back"), // re-added at the end
		`{"type":"session_info","id":"i1","parentId":"l6","timestamp":"t","name":"first"}`,
		`{"type":"session_info","id":"i2","parentId":"i1","timestamp":"t","name":"  \n"}`,
	}, "\n") + "\n"
	s := mustRead(t, file)
	var got [][2]string
	for _, l := range s.Labels() {
		got = append(got, [2]string{l.TargetID, l.Label})
	}
	want := [][2]string{{"r", "two"}, {"y", "why"}, {"x", "back"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labels = %v, want %v", got, want)
	}
	// LabelOf answers from an index: it agrees with Labels after a clear
	// moved the later labels up, and knows nothing of unlabelled ids.
	for _, w := range want {
		if l, ok := s.LabelOf(w[0]); !ok || l != w[1] {
			t.Errorf("LabelOf(%s) = %q, %v; want %q", w[0], l, ok, w[1])
		}
	}
	if l, ok := s.LabelOf("l1"); ok {
		t.Errorf("LabelOf(l1) = %q for an unlabelled entry", l)
	}
	if _, ok := s.Name(); ok {
		t.Error("an empty session_info name clears the name")
	}
}

func TestForkLineage(t *testing.T) {
	s := mustRead(t, `{"type":"session","version":3,"id":"f","timestamp":"t","cwd":"/w","parentSession":"/a/b.jsonl"}`+"\n")
	if p, ok := s.ParentSession(); !ok || p != "/a/b.jsonl" {
		t.Errorf("parentSession = %q", p)
	}
	if len(s.Entries) != 0 || s.LeafIndex() != -1 {
		t.Error("header-only session has no entries")
	}
	c, err := s.Context(s.LeafIndex())
	if err != nil || len(c.AgentMessages()) != 0 || c.Model != nil {
		t.Errorf("empty context: %+v %v", c, err)
	}
}

func TestParseJSDate(t *testing.T) {
	cases := map[string]float64{
		"2026-11-29T22:47:39.368Z":      1795992459368,
		"2026-11-29T22:47:39Z":          1795992459000,
		"2026-11-29T22:47:39.3689Z":     1795992459368,
		"2026-11-29T23:47:39.368+01:00": 1795992459368,
		"2026-11-29":                    1795910400000,
		"1970-01-01T00:00:00.000Z":      0,
		"+275760-09-13T00:00:00.000Z":   8.64e15,
	}
	for in, want := range cases {
		if got := parseJSDate(in); got != want {
			t.Errorf("%s: %v, want %v", in, got, want)
		}
	}
	for _, bad := range []string{"", "2026-13-01", "2026-02-30", "yesterday", "2026-11-29T25:00Z", "+275760-09-13T00:00:00.001Z"} {
		if got := parseJSDate(bad); got == got {
			t.Errorf("%q parsed as %v, want NaN", bad, got)
		}
	}
}

// new Date(v) converts null and booleans to numbers first: null and false
// are the epoch, true is 1 ms; objects and a missing value are invalid.
func TestJSDateMsNonStringValues(t *testing.T) {
	cases := map[string]float64{`null`: 0, `false`: 0, `true`: 1, `5`: 5, `"1970-01-01T00:00:00.002Z"`: 2}
	for raw, want := range cases {
		if got := DateMs(RawValue(raw)); got != want {
			t.Errorf("new Date(%s) = %v, want %v", raw, got, want)
		}
	}
	for _, raw := range []string{`{}`, ``} {
		if got := DateMs(RawValue(raw)); got == got {
			t.Errorf("new Date(%s) = %v, want NaN", raw, got)
		}
	}
}

// TestBranchPathsArePathTo checks that the shared prefixes of a branch's
// path are PathTo's paths, for entries on the branch and off it, in a
// tree with forks, a dangling parent and parents written after children.
func TestBranchPathsArePathTo(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n")
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 300
	for i := 0; i < n; i++ {
		parent := "null"
		switch {
		case i == 7:
			parent = `"nowhere"`
		case i == 20:
			parent = `"e250"` // written later
		case i > 0:
			parent = fmt.Sprintf(`"e%d"`, max(0, i-1-rng.IntN(3)))
		}
		fmt.Fprintf(&b, `{"type":"message","id":"e%d","parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"q"}}`+"\n", i, parent)
	}
	s, err := Read(strings.NewReader(b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	shared := 0
	for _, leaf := range []int{n - 1, 150, 20, 7, 0} {
		paths := NewBranchPaths(s, leaf)
		if paths == nil {
			t.Fatalf("no shared paths for leaf %d", leaf)
		}
		for i := range s.Entries {
			got, want := paths.to(s, i), s.PathTo(i)
			if !slices.Equal(got, want) {
				t.Fatalf("leaf %d, entry %d: %v, want %v", leaf, i, got, want)
			}
			if len(got) > 0 && &got[0] == &paths.path[0] {
				shared++
				if cap(got) != len(got) {
					t.Fatalf("a shared path must be capped: len %d cap %d", len(got), cap(got))
				}
			}
		}
	}
	if shared < 50 {
		t.Errorf("only %d paths shared", shared)
	}
}
