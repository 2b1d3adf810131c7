package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// forkCase is one fork Pi 1.6.0 made (bench/pi-fork.mjs writes them).
type forkCase struct {
	Name     string `json:"name"`
	Source   string `json:"source"`
	LeafLine int    `json:"leafLine"`
	LeafID   string `json:"leafId"`
	V1       bool   `json:"v1"`
	Expected string `json:"expected"`
}

var (
	uuidV7Pattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	isoPattern    = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

// TestForkMatchesPi compares PlanFork with what Pi's own
// createBranchedSession put in the new file, entry for entry, for the demo
// sessions, sessions Pi's append API wrote with labels and compactions, a
// hand-written one with every label and compaction case, and (with
// FORGEBENCH_SHARED) the shared fixtures, v1 files included. The new
// header's id and time, and the ids of re-written labels, are fresh on
// every fork and compared by form; everything else byte for byte as
// JSON.stringify writes it.
func TestForkMatchesPi(t *testing.T) {
	raw, err := os.ReadFile("testdata/fork/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ProcessCwd string     `json:"processCwd"`
		Cases      []forkCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 100 {
		t.Fatalf("only %d cases in testdata/fork/cases.json", len(doc.Cases))
	}
	opened := map[string]*Session{}
	for _, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var file string
			switch {
			case strings.HasPrefix(c.Source, "repo:"):
				file = filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(c.Source, "repo:")))
			case strings.HasPrefix(c.Source, "shared:fixtures/"):
				file = fixtures.Path(t, strings.TrimPrefix(c.Source, "shared:fixtures/"))
			default:
				t.Fatalf("source %q", c.Source)
			}
			s := opened[file]
			if s == nil {
				if s, err = Open(file); err != nil {
					t.Fatal(err)
				}
				opened[file] = s
			}
			leaf := -1
			for i := range s.Entries {
				if s.Entries[i].Line == c.LeafLine {
					leaf = i
				}
			}
			if leaf < 0 {
				t.Fatalf("no entry on line %d", c.LeafLine)
			}
			if c.LeafID != "" && s.Entries[leaf].ID != c.LeafID {
				t.Fatalf("line %d holds %s, Pi forked from %s", c.LeafLine, s.Entries[leaf].ID, c.LeafID)
			}
			f, err := PlanFork(s, leaf, ForkOptions{Cwd: doc.ProcessCwd})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("testdata/fork", c.Expected))
			if err != nil {
				t.Fatal(err)
			}
			compareFork(t, f, normalizeFork(t, f, c.V1), bytes.Split(bytes.TrimSuffix(want, []byte("\n")), []byte("\n")))
		})
	}
}

// normalizeFork checks the parts of a fork that are fresh every time (the
// header's id, time and parentSession, the re-written labels' ids) and
// replaces them by the placeholders bench/pi-fork.mjs writes; for a v1
// source every other id becomes its position too.
func normalizeFork(t *testing.T, f *Fork, v1 bool) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n")
	if len(lines) != len(f.Entries)+1 {
		t.Fatalf("%d lines for %d entries", len(lines), len(f.Entries))
	}
	var objs []*jsonv.Object
	for _, l := range lines {
		v, err := jsonv.Parse([]byte(l))
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		objs = append(objs, v.(*jsonv.Object))
	}
	h := objs[0]
	id, _ := h.Get("id")
	ts, _ := h.Get("timestamp")
	parent, _ := h.Get("parentSession")
	if id != f.SessionID || !uuidV7Pattern.MatchString(f.SessionID) {
		t.Errorf("session id %v (%s) is not a UUIDv7", id, f.SessionID)
	}
	if ts != f.Timestamp || !isoPattern.MatchString(f.Timestamp) {
		t.Errorf("header timestamp %v", ts)
	}
	if want := f.SessionID[:8] + f.SessionID[9:13]; fmt.Sprintf("%012x", mustParseTime(t, f.Timestamp).UnixMilli()) != want {
		t.Errorf("session id %s does not carry the header time %s", f.SessionID, f.Timestamp)
	}
	if parent != f.Source || !filepath.IsAbs(f.Source) {
		t.Errorf("parentSession %v, source %s", parent, f.Source)
	}
	stamp := strings.NewReplacer(":", "-", ".", "-").Replace(f.Timestamp)
	if filepath.Base(f.File) != stamp+"_"+f.SessionID+".jsonl" || filepath.Dir(f.File) != filepath.Dir(f.Source) {
		t.Errorf("file %s for source %s", f.File, f.Source)
	}
	h.Set("id", "<new-session-id>")
	h.Set("timestamp", "<now>")
	h.Set("parentSession", "<source>")
	ids := map[string]string{}
	labels := 0
	for i, o := range objs[1:] {
		typ, _ := o.Get("type")
		id, _ := o.Get("id")
		if typ == TypeLabel {
			labels++
			ids[id.(string)] = fmt.Sprintf("<label-%d>", labels)
		} else if v1 {
			ids[id.(string)] = fmt.Sprintf("<entry-%d>", i+1)
		}
	}
	swap := func(o *jsonv.Object, key string) {
		if v, ok := o.Get(key); ok {
			if s, ok := v.(string); ok {
				if to, ok := ids[s]; ok {
					o.Set(key, to)
				}
			}
		}
	}
	out := []string{jsonv.Stringify(h)}
	for _, o := range objs[1:] {
		swap(o, "id")
		swap(o, "parentId")
		typ, _ := o.Get("type")
		switch typ {
		case TypeCompaction:
			swap(o, "firstKeptEntryId")
		case TypeLabel:
			swap(o, "targetId")
		}
		out = append(out, jsonv.Stringify(o))
	}
	return out
}

func mustParseTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// compareFork compares normalized lines with Pi's, a stored {sha256,
// bytes} line by the hash of the whole line.
func compareFork(t *testing.T, f *Fork, got []string, want [][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d lines, Pi wrote %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		w := string(want[i])
		if strings.HasPrefix(w, `{"sha256":"`) {
			var h struct {
				SHA256 string `json:"sha256"`
				Bytes  int    `json:"bytes"`
			}
			if err := json.Unmarshal(want[i], &h); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(got[i]))
			if hex.EncodeToString(sum[:]) == h.SHA256 {
				continue
			}
			t.Errorf("line %d (%s, %d bytes; Pi's has %d) differs from Pi's", i+1, entryName(f, i), len(got[i]), h.Bytes)
			continue
		}
		if got[i] != w {
			t.Errorf("line %d (%s):\n got %s\nwant %s", i+1, entryName(f, i), got[i], w)
		}
	}
}

func entryName(f *Fork, line int) string {
	if line == 0 {
		return "header"
	}
	e := f.Entries[line-1]
	return fmt.Sprintf("%s %s from source line %d", e.Type, e.ID, e.SourceLine)
}

// TestForkMatchesPisOwnForkFixture compares the fork of the generated main
// session at c71ae143 with the file Pi itself wrote for that fork
// (fixtures SOURCES.md): the same path, labels re-written after it.
func TestForkMatchesPisOwnForkFixture(t *testing.T) {
	dir := "pi-sessions/generated-pi-1.6.0/agent/sessions/--home-dev-projects-demo-app--/"
	main := fixtures.Path(t, dir+"2026-11-29T22-47-39-368Z_01a2297e-1867-72d0-99d9-f9f8b12b74b4.jsonl")
	piFork := fixtures.Read(t, dir+"2026-11-29T22-47-39-378Z_01a2297e-1872-72d0-99d9-f9fb033ed71b.jsonl")
	s, err := Open(main)
	if err != nil {
		t.Fatal(err)
	}
	leaf, ok := s.IndexOf("c71ae143")
	if !ok {
		t.Fatal("no c71ae143")
	}
	f, err := PlanFork(s, leaf, ForkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := normalizeFork(t, f, false)
	lines := bytes.Split(bytes.TrimSuffix(piFork, []byte("\n")), []byte("\n"))
	hv, err := jsonv.Parse(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	h := hv.(*jsonv.Object)
	h.Set("id", "<new-session-id>")
	h.Set("timestamp", "<now>")
	h.Set("parentSession", "<source>")
	want := [][]byte{[]byte(jsonv.Stringify(h))}
	labels := 0
	ids := map[string]string{}
	for _, l := range lines[1:] {
		v, err := jsonv.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		o := v.(*jsonv.Object)
		if typ, _ := o.Get("type"); typ == TypeLabel {
			labels++
			id, _ := o.Get("id")
			ids[id.(string)] = fmt.Sprintf("<label-%d>", labels)
			o.Set("id", ids[id.(string)])
			if p, _ := o.Get("parentId"); ids[fmt.Sprint(p)] != "" {
				o.Set("parentId", ids[fmt.Sprint(p)])
			}
		}
		want = append(want, []byte(jsonv.Stringify(o)))
	}
	if labels == 0 {
		t.Fatal("Pi's fork fixture re-writes no label: the fixture changed")
	}
	compareFork(t, f, got, want)
}
