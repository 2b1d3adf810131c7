package session

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func readForkSource(t testing.TB, text string) *Session {
	t.Helper()
	s, err := Read(strings.NewReader(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Path = "/home/dev/.pi/agent/sessions/--p--/src.jsonl"
	return s
}

const forkHeader = `{"type":"session","version":3,"id":"src","timestamp":"2026-11-30T10:00:00.000Z","cwd":"/home/dev/p"}`

func TestPlanForkRefusesWhatPiCannotForkFrom(t *testing.T) {
	cases := map[string]struct {
		text string
		line int
		want string
	}{
		"no id":         {forkHeader + "\n" + `{"type":"custom","parentId":null}` + "\n", 2, "has no id"},
		"not an object": {forkHeader + "\n" + `{"type":"custom","id":"a"}` + "\n[1]\n", 3, "has no id"},
		"duplicate id": {forkHeader + "\n" + `{"type":"custom","id":"a"}` + "\n" + `{"type":"custom","id":"a","parentId":null}` + "\n", 2,
			"used again on line 3"},
		"cycle": {forkHeader + "\n" + `{"type":"custom","id":"a","parentId":"b"}` + "\n" + `{"type":"custom","id":"b","parentId":"a"}` + "\n", 3,
			"loops back"},
		"self parent": {forkHeader + "\n" + `{"type":"custom","id":"a","parentId":"a"}` + "\n", 2, "loops back"},
		"non-string parent": {forkHeader + "\n" + `{"type":"custom","id":"a","parentId":7}` + "\n" + `{"type":"custom","id":"b","parentId":"a"}` + "\n", 3,
			"not a string"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := readForkSource(t, c.text)
			leaf := -1
			for i := range s.Entries {
				if s.Entries[i].Line == c.line {
					leaf = i
				}
			}
			f, err := PlanFork(s, leaf, ForkOptions{})
			if !errors.Is(err, ErrCannotFork) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("PlanFork = %v, %v; want ErrCannotFork saying %q", f, err, c.want)
			}
		})
	}
	s := readForkSource(t, forkHeader+"\n"+`{"type":"custom","id":"a","parentId":null}`+"\n")
	if _, err := PlanFork(s, 5, ForkOptions{}); !errors.Is(err, ErrCannotFork) {
		t.Fatalf("an index past the entries: %v", err)
	}
}

func TestPlanForkRechainsAndReportsWhatItWrites(t *testing.T) {
	text := forkHeader + "\n" +
		`{"type":"message","id":"u","parentId":null,"timestamp":"2026-11-30T10:00:01.000Z","message":{"role":"user","content":"hi"}}` + "\n" +
		`{"type":"label","id":"l","parentId":"u","timestamp":"2026-11-30T10:00:02.000Z","targetId":"u","label":"start"}` + "\n" +
		`{"type":"message","id":"a","parentId":"l","timestamp":"2026-11-30T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hello there"}]}}` + "\n" +
		`{"type":"custom","customType":"x","id":"c","parentId":"a","timestamp":"2026-11-30T10:00:04.000Z"}` + "\n"
	s := readForkSource(t, text)
	now := time.Date(2026, 12, 2, 1, 2, 3, 456_000_000, time.UTC)
	f, err := PlanFork(s, 3, ForkOptions{Now: now, NewSessionID: func(time.Time) string { return "new" }, NewEntryID: func() string { return "n1" }})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"session","version":3,"id":"new","timestamp":"2026-12-02T01:02:03.456Z","cwd":"/home/dev/p","parentSession":"/home/dev/.pi/agent/sessions/--p--/src.jsonl"}
{"type":"message","id":"u","parentId":null,"timestamp":"2026-11-30T10:00:01.000Z","message":{"role":"user","content":"hi"}}
{"type":"message","id":"a","parentId":"u","timestamp":"2026-11-30T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hello there"}]}}
{"type":"custom","customType":"x","id":"c","parentId":"a","timestamp":"2026-11-30T10:00:04.000Z"}
{"type":"label","id":"n1","parentId":"c","timestamp":"2026-11-30T10:00:02.000Z","targetId":"u","label":"start"}
`
	if string(f.Data) != want {
		t.Fatalf("data\n%s\nwant\n%s", f.Data, want)
	}
	if f.File != "/home/dev/.pi/agent/sessions/--p--/2026-12-02T01-02-03-456Z_new.jsonl" {
		t.Errorf("file %s", f.File)
	}
	if len(f.Entries) != 4 || !f.Entries[1].Rechained || f.Entries[0].Rechained || !f.Entries[3].Relabel || f.Entries[3].SourceLine != 3 {
		t.Errorf("entries %+v", f.Entries)
	}
	if f.LastMessage.Kind != RoleAssistant || !strings.Contains(f.LastMessage.Text, "hello there") || !f.Conversation {
		t.Errorf("last message %+v, conversation %v", f.LastMessage, f.Conversation)
	}
	if f.LeafID != "c" || f.LeafLine != 5 {
		t.Errorf("leaf %s line %d", f.LeafID, f.LeafLine)
	}
}

func TestNewSessionIDIsAUUIDv7OfNow(t *testing.T) {
	now := time.UnixMilli(0x01a2297e1867)
	seen := map[string]bool{}
	for range 100 {
		id := NewSessionID(now)
		if !uuidV7Pattern.MatchString(id) || !strings.HasPrefix(id, "01a2297e-1867-7") || seen[id] {
			t.Fatalf("id %s", id)
		}
		seen[id] = true
	}
}

func TestPiResolvePathAndShellQuote(t *testing.T) {
	home, _ := os.UserHomeDir()
	for in, want := range map[string]string{
		"/a/b/../c/": "/a/c", "rel/x": "/base/rel/x", "": "/base", "~": home, "~/p": home + "/p",
		"file:///srv/a%20b": "/srv/a b",
	} {
		if got := PiResolvePath(in, "/base"); got != want {
			t.Errorf("PiResolvePath(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"/a/b-c_d.jsonl": "/a/b-c_d.jsonl", "/a b/x": `'/a b/x'`, "/it's": `'/it'\''s'`, "": `''`, "/$HOME": `'/$HOME'`,
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// FuzzPlanFork forks arbitrary sessions at every entry: never a panic or a
// hang, and a fork is either refused with ErrCannotFork or a file whose
// every line is a JSON object, chained from the header down.
func FuzzPlanFork(f *testing.F) {
	for _, name := range []string{"testdata/fork/sources/hand-labels.jsonl", "testdata/v3-all-types.jsonl", "testdata/v1.jsonl"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(forkHeader + "\n" + `{"type":"custom","id":"a","parentId":"b"}` + "\n" + `{"type":"label","id":"b","parentId":"a","targetId":"a","label":1}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(bytes.NewReader(data), Options{MaxLineBytes: 1 << 16, ChunkBytes: 97, Workers: 2})
		if err != nil {
			return
		}
		s.Path = "/tmp/fuzz.jsonl"
		for i := range min(len(s.Entries), 64) {
			fk, err := PlanFork(s, i, ForkOptions{Cwd: "/"})
			if err != nil {
				if !errors.Is(err, ErrCannotFork) && !strings.Contains(err.Error(), "decode entry") {
					t.Fatalf("entry %d: %v", i, err)
				}
				continue
			}
			lines := strings.Split(strings.TrimSuffix(string(fk.Data), "\n"), "\n")
			if len(lines) != len(fk.Entries)+1 {
				t.Fatalf("%d lines for %d entries", len(lines), len(fk.Entries))
			}
			parent := any(nil)
			for k, l := range lines {
				v, err := jsonv.Parse([]byte(l))
				o, ok := v.(*jsonv.Object)
				if err != nil || !ok {
					t.Fatalf("line %d %q: %v", k+1, l, err)
				}
				if k == 0 {
					continue
				}
				if p, _ := o.Get("parentId"); p != parent {
					t.Fatalf("line %d has parent %v, want %v", k+1, p, parent)
				}
				parent, _ = o.Get("id")
			}
		}
	})
}
