package session

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

const discoverData = "testdata/discover"

func idsOf(items []ListItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func findItem(t *testing.T, items []ListItem, id string) ListItem {
	t.Helper()
	for _, it := range items {
		if it.ID == id {
			return it
		}
	}
	t.Fatalf("session %s not listed; have %v", id, idsOf(items))
	return ListItem{}
}

func TestEncodeCwd(t *testing.T) {
	cases := map[string]string{
		"/home/dev/projects/demo-app": "--home-dev-projects-demo-app--",
		`C:\Users\me\x`:               "--C--Users-me-x--",
		`\server\share`:               "--server-share--",
		"/":                           "----",
		"//a":                         "---a--",
	}
	for in, want := range cases {
		if got := EncodeCwd(in); got != want {
			t.Errorf("EncodeCwd(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestResolveLocations(t *testing.T) {
	home := t.TempDir()
	cwd := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	loc, err := ResolveLocations(cwd, "", getenv, home)
	if err != nil || loc.AgentDir != filepath.Join(home, ".pi", "agent") || loc.SessionDir != "" {
		t.Fatalf("defaults: %+v %v", loc, err)
	}
	env[EnvAgentDir] = "~/agentx"
	if loc, _ = ResolveLocations(cwd, "", getenv, home); loc.AgentDir != filepath.Join(home, "agentx") {
		t.Fatalf("agent dir from env: %q", loc.AgentDir)
	}
	if got := loc.DefaultSessionDir(cwd, home); got != filepath.Join(home, "agentx", "sessions", EncodeCwd(cwd)) {
		t.Fatalf("default session dir: %q", got)
	}

	// Global settings, then project settings (BOM, relative path) override it.
	must(t, os.MkdirAll(filepath.Join(home, "agentx"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, "agentx", "settings.json"), []byte(`{"sessionDir":"~/global-sessions"}`), 0o644))
	loc, err = ResolveLocations(cwd, "", getenv, home)
	if err != nil || loc.SessionDir != filepath.Join(home, "global-sessions") || loc.SessionDirSource != SessionDirFromGlobalSettings {
		t.Fatalf("global settings: %+v %v", loc, err)
	}
	must(t, os.MkdirAll(filepath.Join(cwd, ".pi"), 0o755))
	must(t, os.WriteFile(filepath.Join(cwd, ".pi", "settings.json"), []byte("\ufeff{\"sessionDir\":\"rel/s\"}"), 0o644))
	loc, err = ResolveLocations(cwd, "", getenv, home)
	if err != nil || loc.SessionDir != filepath.Join(cwd, "rel", "s") || loc.SessionDirSource != SessionDirFromProjectSettings {
		t.Fatalf("project settings: %+v %v", loc, err)
	}
	env[EnvSessionDir] = "~/env-sessions"
	if loc, _ = ResolveLocations(cwd, "", getenv, home); loc.SessionDir != filepath.Join(home, "env-sessions") || loc.SessionDirSource != SessionDirFromEnv {
		t.Fatalf("env session dir: %+v", loc)
	}
	if loc, _ = ResolveLocations(cwd, "/flag/dir", getenv, home); loc.SessionDir != "/flag/dir" || loc.SessionDirSource != SessionDirFromFlag {
		t.Fatalf("flag session dir: %+v", loc)
	}

	// A broken settings file is reported, the others still apply.
	delete(env, EnvSessionDir)
	must(t, os.WriteFile(filepath.Join(cwd, ".pi", "settings.json"), []byte("{broken"), 0o644))
	loc, err = ResolveLocations(cwd, "", getenv, home)
	if err == nil || loc.SessionDirSource != SessionDirFromGlobalSettings {
		t.Fatalf("broken project settings: %+v %v", loc, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestListCwdTestdata(t *testing.T) {
	loc := Locations{AgentDir: filepath.Join(discoverData, "agent"), SessionDir: filepath.Join(discoverData, "custom")}
	items, err := ListCwd(loc, "/home/u/proj", ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 2 valid + corrupt + empty in the default dir, 1 of 2 in the custom dir;
	// never the pi-subagent child or notes.txt.
	if len(items) != 5 {
		t.Fatalf("got %d items: %+v", len(items), items)
	}
	for _, it := range items {
		if strings.Contains(it.Path, ".subagents") || strings.HasSuffix(it.Path, ".txt") {
			t.Fatalf("listed %s", it.Path)
		}
	}

	a := findItem(t, items, "01a2297e-0000-7000-8000-00000000000a")
	if a.Name != "Parser fix" || a.NameStatus != StatusFound {
		t.Errorf("name: %q %s", a.Name, a.NameStatus)
	}
	if a.FirstMessage != "Fix the parser bug please" || a.FirstMessageStatus != StatusFound {
		t.Errorf("first message: %q %s", a.FirstMessage, a.FirstMessageStatus)
	}
	if !a.HasAgentTree || a.MessageCount != 3 || !a.MessageCountExact || a.Cwd != "/home/u/proj" || a.Created != "2026-11-01T10:00:00.000Z" {
		t.Errorf("item a: %+v", a)
	}
	// The assistant message at 10:00:03 is the last activity; the later
	// session_info and label entries do not count (Pi's recent order).
	if want := time.Date(2026, 11, 1, 10, 0, 3, 0, time.UTC); !a.LastActivity.Equal(want) || a.LastActivityFromMtime {
		t.Errorf("last activity %v, want %v", a.LastActivity, want)
	}
	if a.Source != SourceDefault || a.Problem != "" || len(a.Notes) != 0 {
		t.Errorf("item a source/problem/notes: %+v", a)
	}

	b := findItem(t, items, "01a2297e-0000-7000-8000-00000000000b")
	if b.Name != "" || b.NameStatus != StatusFound || b.HasAgentTree || b.MessageCount != 1 {
		t.Errorf("item b: %+v", b)
	}
	if b.FirstMessage != "Second session" || !strings.HasSuffix(b.ParentSession, "_01a2297e-0000-7000-8000-00000000000a.jsonl") {
		t.Errorf("item b text/parent: %+v", b)
	}
	// The last line (an assistant message) is cut off: the user message counts.
	if want := time.Date(2026, 11, 2, 9, 0, 1, 0, time.UTC); !b.LastActivity.Equal(want) {
		t.Errorf("item b last activity %v", b.LastActivity)
	}
	if len(b.Notes) != 2 {
		t.Errorf("item b notes: %q", b.Notes)
	}

	c := findItem(t, items, "01a2297e-0000-7000-8000-0000000000e1")
	if c.Source != SourceCustom || c.FirstMessage != "custom dir session" || c.NameStatus != StatusNone {
		t.Errorf("custom item: %+v", c)
	}

	var problems int
	for _, it := range items {
		if it.Problem != "" {
			problems++
			if !it.LastActivityFromMtime || it.ID != "" {
				t.Errorf("problem item: %+v", it)
			}
		}
	}
	if problems != 2 {
		t.Errorf("problem items: %d", problems)
	}
	// Valid items keep newest-first order among themselves.
	var order []string
	for _, it := range items {
		if it.Problem == "" {
			order = append(order, it.ID[len(it.ID)-2:])
		}
	}
	if strings.Join(order, ",") != "e1,0b,0a" {
		t.Errorf("order %v", order)
	}
}

func TestListAllTestdata(t *testing.T) {
	loc := Locations{AgentDir: filepath.Join(discoverData, "agent"), SessionDir: filepath.Join(discoverData, "custom")}
	items, err := ListAll(loc, ListOptions{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	// proj: 2 + corrupt + empty; other: 1; custom: 2 (no cwd filter).
	if len(items) != 7 {
		t.Fatalf("got %d items: %v", len(items), idsOf(items))
	}
	findItem(t, items, "01a2297e-0000-7000-8000-0000000000e2")
	d := findItem(t, items, "01a2297e-0000-7000-8000-00000000000d")
	if d.FirstMessageStatus != StatusNone || d.MessageCount != 0 || d.Cwd != "/home/u/other" {
		t.Errorf("item d: %+v", d)
	}
	missing, err := ListAll(Locations{AgentDir: t.TempDir()}, ListOptions{})
	if err != nil || len(missing) != 0 {
		t.Fatalf("missing sessions root: %v %v", missing, err)
	}
}

func TestSearch(t *testing.T) {
	items := []ListItem{
		{ID: "aa11", Name: "Parser fix", FirstMessage: "Fix the parser"},
		{ID: "bb22", Name: "", FirstMessage: "Straße bauen"},
		{ID: "cc33", Name: "Deploy", FirstMessage: "ship it"},
	}
	check := func(q string, want ...string) {
		t.Helper()
		got := idsOf(Search(items, q))
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("Search(%q) = %v, want %v", q, got, want)
		}
	}
	check("PARSER", "aa11")
	check("straße", "bb22")
	check("SHIP", "cc33")
	check("bb", "bb22")
	check("dply", "cc33") // fuzzy fallback
	check("zzzz")
	if len(Search(items, "  ")) != 3 {
		t.Error("empty query must keep everything")
	}
}

// TestSummarizeMatchesOpen checks the bounded summary against the full
// reader on files that fit the windows.
func TestSummarizeMatchesOpen(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		path := filepath.Join(dir, fmt.Sprintf("s%02d.jsonl", i))
		must(t, os.WriteFile(path, genSession(rng, i, 5+rng.IntN(40), 200), 0o644))
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		it := SummarizeFile(path, ListOptions{})
		name, _ := s.Name()
		msgs := 0
		for _, e := range s.Entries {
			if e.Type == TypeMessage {
				msgs++
			}
		}
		leaf, _ := s.Leaf()
		if it.Name != name || it.MessageCount != msgs || !it.MessageCountExact || it.ID != s.Header.ID {
			t.Errorf("%s: summary %+v, open name %q msgs %d", path, it, name, msgs)
		}
		if want := piLastActivity(t, s); it.LastActivity.UnixMilli() != want {
			t.Errorf("%s: last activity %v, want %d (leaf %s)", path, it.LastActivity, want, leaf.Timestamp)
		}
	}
}

func TestSummarizeWindows(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 10<<10)
	lines := []string{`{"type":"session","version":3,"id":"w1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}`}
	add := func(v any) { lines = append(lines, jsonv.Stringify(jsonv.FromGo(v))) }
	msg := func(id, role, text string) map[string]any {
		return map[string]any{"type": "message", "id": id, "parentId": nil, "timestamp": "2026-01-01T00:00:01.000Z",
			"message": map[string]any{"role": role, "content": text, "timestamp": 1767225601000}}
	}
	add(map[string]any{"type": "session_info", "id": "n1", "parentId": nil, "timestamp": "2026-01-01T00:00:00.500Z", "name": "early"})
	for i := range 30 {
		add(msg(fmt.Sprintf("m%d", i), "assistant", big))
	}
	path := filepath.Join(dir, "w.jsonl")
	must(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	it := SummarizeFile(path, ListOptions{HeadBytes: 32 << 10, TailBytes: 32 << 10})
	if it.NameStatus != StatusNotInWindow || it.Name != "" || it.FirstMessageStatus != StatusNotInWindow {
		t.Errorf("window misses: %+v", it)
	}
	if it.MessageCountExact || it.MessageCount < 25 || it.MessageCount > 35 {
		t.Errorf("estimate %d (exact %v), want about 30", it.MessageCount, it.MessageCountExact)
	}
	if it.LastActivity.UnixMilli() != 1767225601000 {
		t.Errorf("last activity %v", it.LastActivity)
	}
	// A header line longer than the head window is still read.
	long := `{"type":"session","id":"w2","cwd":"/w","pad":"` + strings.Repeat("p", 40<<10) + `"}` + "\n" + strings.Repeat(lines[2]+"\n", 6) + lines[1] + "\n"
	must(t, os.WriteFile(path, []byte(long), 0o644))
	if it := SummarizeFile(path, ListOptions{HeadBytes: 16 << 10, TailBytes: 16 << 10}); it.ID != "w2" || it.Problem != "" || it.Name != "early" || it.LastActivityFromMtime {
		t.Errorf("long header: %+v", it)
	}
}

func TestDiscoverFixtures(t *testing.T) {
	gen := fixtures.Path(t, "pi-sessions/generated-pi-1.6.0/agent")
	sub := fixtures.Path(t, "pi-subagent/synthetic-v5/agent")
	items, err := ListCwd(Locations{AgentDir: gen}, "/home/dev/projects/demo-app", ListOptions{})
	if err != nil || len(items) != 2 {
		t.Fatalf("generated fixtures: %v %v", idsOf(items), err)
	}
	for _, it := range items {
		s, err := Open(it.Path)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := s.Name()
		leaf, _ := s.Leaf()
		if it.Name != name || it.ID != s.Header.ID || it.Cwd != "/home/dev/projects/demo-app" ||
			it.LastActivity.UnixMilli() != piLastActivity(t, s) || it.Problem != "" || it.HasAgentTree {
			t.Errorf("%s: %+v (open name %q, leaf %s)", it.Path, it, name, leaf.Timestamp)
		}
		if it.FirstMessageStatus != StatusFound || it.FirstMessage == "" {
			t.Errorf("%s: first message %q %s", it.Path, it.FirstMessage, it.FirstMessageStatus)
		}
	}
	// The fork copies older entries, so the original sorts first.
	if items[0].ParentSession != "" || !strings.HasSuffix(items[1].ParentSession, filepath.Base(items[0].Path)) {
		t.Errorf("the fork should come second and name the original: %+v", items)
	}
	all, err := ListAll(Locations{AgentDir: sub}, ListOptions{})
	if err != nil || len(all) != 1 || !all[0].HasAgentTree {
		t.Fatalf("subagent fixture: %+v %v", all, err)
	}
}

// genSession writes a realistic Pi 1.6.0 session: header, model and
// thinking changes, a system message, then user/assistant/toolResult turns
// with text of random length and a session_info now and then.
func genSession(rng *rand.Rand, n, turns, textMax int) []byte {
	var b strings.Builder
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Minute)
	ts := func(k int) string { return base.Add(time.Duration(k) * time.Second).Format("2006-01-02T15:04:05.000Z") }
	fmt.Fprintf(&b, `{"type":"session","version":3,"id":"01a2297e-%04x-7000-8000-%012x","timestamp":"%s","cwd":"/home/dev/p%d"}`+"\n", n%0xffff, n, ts(0), n%7)
	parent := "null"
	k := 0
	// msgTs is the message.timestamp (ms) of the entry written next.
	msgTs := func() int64 { return base.Add(time.Duration(k+1) * time.Second).UnixMilli() }
	entry := func(typ, body string) {
		k++
		id := fmt.Sprintf("%08x", rng.Uint32())
		fmt.Fprintf(&b, `{"type":"%s","id":"%s","parentId":%s,"timestamp":"%s",%s}`+"\n", typ, id, parent, ts(k), body)
		parent = `"` + id + `"`
	}
	words := []string{"parser", "fix", "the", "test", "deploy", "refactor", "cache", "é", "日本", "go"}
	text := func() string {
		var t []string
		for range 1 + rng.IntN(textMax) {
			t = append(t, words[rng.IntN(len(words))])
		}
		return strings.Join(t, " ")
	}
	entry("model_change", `"provider":"anthropic","modelId":"claude-sonnet-4-5"`)
	entry("message", `"message":{"role":"system","content":"","sections":{"preamble":"You are a coding assistant."},"timestamp":`+fmt.Sprint(msgTs())+`}`)
	for range turns {
		entry("message", fmt.Sprintf(`"message":{"role":"user","content":%s,"timestamp":%d}`, jsonv.Quote(text()), msgTs()))
		entry("message", fmt.Sprintf(`"message":{"role":"assistant","content":[{"type":"text","text":%s},{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"a.go"}}],"provider":"anthropic","model":"m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":%d}`, jsonv.Quote(text()), msgTs()))
		entry("message", fmt.Sprintf(`"message":{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":%s}],"isError":false,"timestamp":%d}`, jsonv.Quote(text()), msgTs()))
		if rng.IntN(8) == 0 {
			name := []rune(text())
			entry("session_info", fmt.Sprintf(`"name":%s`, jsonv.Quote(string(name[:min(20, len(name))]))))
		}
	}
	return []byte(b.String())
}

func BenchmarkDiscover2000(b *testing.B) {
	agent := b.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	var total int64
	for i := range 2000 {
		dir := filepath.Join(agent, "sessions", fmt.Sprintf("--home-dev-p%d--", i%25))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		// Mostly small sessions, some medium and a few large ones.
		turns := 2 + rng.IntN(20)
		switch r := rng.IntN(20); {
		case r == 0:
			turns = 150 + rng.IntN(150)
		case r < 5:
			turns = 30 + rng.IntN(60)
		}
		data := genSession(rng, i, turns, 120)
		total += int64(len(data))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("2026-11-01T00-00-00-000Z_%04d.jsonl", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	loc := Locations{AgentDir: agent}
	cpu0 := processCPU()
	n := 0
	for b.Loop() {
		items, err := ListAll(loc, ListOptions{})
		if err != nil || len(items) != 2000 {
			b.Fatalf("%d items, %v", len(items), err)
		}
		n++
	}
	// CPU time per listing, all threads: a steadier figure than wall time
	// on a machine shared with other work.
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(n), "cpu-ms/op")
	}
	b.ReportMetric(float64(total)/2000/1024, "KiB/file")
}

// processCPU is the user+system CPU time used by this process so far (0
// where the platform file does not provide it).
var processCPU = func() time.Duration { return 0 }

// FuzzSummarizeFile checks that the bounded reader never fails on any
// bytes and agrees with the full reader whenever the windows cover the file.
func FuzzSummarizeFile(f *testing.F) {
	for _, name := range []string{"testdata/v3-all-types.jsonl", "testdata/v2.jsonl"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, uint16(64), uint16(64))
		}
	}
	f.Add([]byte(`{"type":"session","id":"x"}`+"\n"+`{"type":"session_info","name":" a "}`+"\n"), uint16(8), uint16(8))
	f.Add([]byte(`{"type":"session","id":"x"}`+"\n"+`{"type":"message","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"text","text":"\u001b[2Jhi"}]}}`), uint16(30), uint16(1))
	f.Add([]byte("\n\n{"), uint16(1), uint16(1))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, head, tail uint16) {
		path := filepath.Join(dir, "f.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opt := ListOptions{HeadBytes: int(head) + 1, TailBytes: int(tail) + 1, FirstMessageMax: 40}
		it := SummarizeFile(path, opt)
		if it.Size != int64(len(data)) {
			t.Fatalf("size %d", it.Size)
		}
		if utf8Len := len([]rune(it.FirstMessage)); utf8Len > 40 {
			t.Fatalf("first message too long: %q", it.FirstMessage)
		}
		if !it.MessageCountExact || it.Problem != "" {
			return
		}
		s, err := Read(bytes.NewReader(data), Options{})
		if err != nil {
			return // not a session for the reader either
		}
		name, _ := s.Name()
		msgs := 0
		for _, e := range s.Entries {
			if e.Type == TypeMessage {
				msgs++
			}
		}
		if s.Header.ID == it.ID && s.Diagnostics.ExtraHeaders == 0 && (it.Name != name || it.MessageCount != msgs) {
			t.Fatalf("summary name %q msgs %d; reader name %q msgs %d", it.Name, it.MessageCount, name, msgs)
		}
	})
}
