package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/session"
)

// searchWorkspace writes two sessions of one project: the newer with an
// abandoned branch, the older with an escape-laden hit.
func searchWorkspace(t *testing.T) []string {
	t.Helper()
	cwd, agent := t.TempDir(), t.TempDir()
	dir := filepath.Join(agent, "sessions", session.EncodeCwd(cwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, mod time.Time, lines ...string) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mod, mod)
	}
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	write("new.jsonl", t0,
		`{"type":"session","version":3,"id":"sess-new","timestamp":"2026-03-01T09:00:00.000Z","cwd":"`+cwd+`"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-01T09:00:01.000Z","message":{"role":"user","content":"Where is the quokka config?"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-01T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"quokka.json"}}]}}`,
		`{"type":"message","id":"u2","parentId":"u1","timestamp":"2026-03-01T09:00:03.000Z","message":{"role":"user","content":"forget it"}}`,
		`{"type":"session_info","id":"n1","parentId":"u2","timestamp":"2026-03-01T09:00:04.000Z","name":"Quokka \u001b[31mhunt"}`,
	)
	write("old.jsonl", t0.Add(-time.Hour),
		`{"type":"session","version":3,"id":"sess-old","timestamp":"2026-02-01T09:00:00.000Z","cwd":"`+cwd+`"}`,
		`{"type":"message","id":"o1","parentId":null,"timestamp":"2026-02-01T09:00:01.000Z","message":{"role":"user","content":"line\nthe \"QUOKKA\" \u001b]52;c;AAAA\u0007 said"}}`,
	)
	return []string{"--cwd", cwd, "--agent-dir", agent, "--forge-dir", t.TempDir()}
}

func TestSearchJSONContract(t *testing.T) {
	env := searchWorkspace(t)
	code, out, errOut := runCLI(t, append(env, "search", "quokka", "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 hits, one per line:\n%s", out)
	}
	keys := `{"file":,"sessionId":,"sessionName":,"entryId":,"timestamp":,"role":,"onActiveBranch":,"agentPath":,"snippet":,"offset":}`
	for i, l := range lines {
		var hit map[string]any
		if err := json.Unmarshal([]byte(l), &hit); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		if got := keyOrder(l); got != keys {
			t.Fatalf("key order %s", got)
		}
	}
	var first, second, third struct {
		File, SessionID, SessionName, EntryID, Timestamp, Role, Snippet string
		OnActiveBranch                                                  bool
		AgentPath                                                       *string
		Offset                                                          int64
	}
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[1]), &second)
	json.Unmarshal([]byte(lines[2]), &third)
	if first.EntryID != "u1" || first.SessionID != "sess-new" || first.Role != "user" || !first.OnActiveBranch || first.AgentPath != nil {
		t.Errorf("first %+v", first)
	}
	if second.EntryID != "a1" || second.Role != "tool" || second.OnActiveBranch || second.Snippet != "quokka.json" {
		t.Errorf("second %+v", second)
	}
	// The session name is session.Title (what the TUI calls it); the
	// snippet is sanitised; the offset points at the match in the file.
	if first.SessionName != "Quokka hunt" {
		t.Errorf("session name %q", first.SessionName)
	}
	if third.EntryID != "o1" || third.Snippet != `line the "QUOKKA" said` {
		t.Errorf("third %+v", third)
	}
	data, _ := os.ReadFile(third.File)
	if string(data[third.Offset:third.Offset+6]) != "QUOKKA" {
		t.Errorf("offset %d points at %q", third.Offset, data[third.Offset:third.Offset+6])
	}
}

// keyOrder reduces a JSON object line to its keys, in order.
func keyOrder(line string) string {
	dec := json.NewDecoder(strings.NewReader(line))
	var b strings.Builder
	b.WriteString("{")
	dec.Token()
	first := true
	for dec.More() {
		k, _ := dec.Token()
		var v json.RawMessage
		dec.Decode(&v)
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString(`"` + k.(string) + `":`)
	}
	b.WriteString("}")
	return b.String()
}

func TestSearchHumanOutputGroupsBySessionAndBranch(t *testing.T) {
	env := searchWorkspace(t)
	code, out, _ := runCLI(t, append(env, "search", "QUOKKA")...)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"Quokka hunt · sess-new",
		"  active branch\n    u1 ",
		"  abandoned branch a1 (leaves the active branch after u1)\n    a1 ",
		"tool       quokka.json",
		`line the "QUOKKA" said · sess-old`, // unnamed: the first user message
		`user       line the "QUOKKA" said`,
		"3 hit(s) in 2 session(s); 2 files in scope",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("control characters reached the terminal: %q", out)
	}
	if strings.Index(out, "sess-new") > strings.Index(out, "sess-old") {
		t.Error("the newer session is not first")
	}
}

func TestSearchFlagsAndExitCodes(t *testing.T) {
	env := searchWorkspace(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"search", "no such words"}, exitFailed, ""},
		{[]string{"search", "quokka", "--limit", "1", "--json"}, exitOK, `"entryId":"u1"`},
		{[]string{"search", "QUOKKA", "--case-sensitive", "--json"}, exitOK, `"entryId":"o1"`},
		{[]string{"search", "quok+a\\.json", "--regex", "--json"}, exitOK, `"snippet":"quokka.json"`},
		{[]string{"search", "quokka", "--role", "tool", "--json"}, exitOK, `"role":"tool"`},
		{[]string{"search", "quokka", "--since", "2026-02-15", "--json"}, exitOK, `"sessionId":"sess-new"`},
		{[]string{"search", "quokka", "--since", "yesterday"}, exitUsage, ""},
		{[]string{"search", "quokka", "--role", "robot"}, exitUsage, ""},
		{[]string{"search", "(", "--regex"}, exitUsage, ""},
		{[]string{"search", "quokka", "--limit", "-1"}, exitUsage, ""},
	} {
		code, out, errOut := runCLI(t, append(env, c.args...)...)
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d (want %d)\n%s%s", c.args, code, c.code, out, errOut)
		}
	}
	_, out, _ := runCLI(t, append(env, "search", "quokka", "--limit", "1", "--json")...)
	if strings.Count(out, "\n") != 1 {
		t.Errorf("--limit 1 printed %q", out)
	}
	_, out, _ = runCLI(t, append(env, "search", "QUOKKA", "--case-sensitive", "--json")...)
	if strings.Count(out, "\n") != 1 {
		t.Errorf("--case-sensitive printed %q", out)
	}
	_, out, _ = runCLI(t, append(env, "search", "quokka", "--since", "2026-02-15", "--json")...)
	if strings.Contains(out, "sess-old") {
		t.Errorf("--since kept an older entry: %s", out)
	}
}

func TestParseSince(t *testing.T) {
	loc := time.FixedZone("X", 3600)
	for in, want := range map[string]time.Time{
		"2026-02-15":                time.Date(2026, 2, 15, 0, 0, 0, 0, loc),
		"2026-02-15T08:30":          time.Date(2026, 2, 15, 8, 30, 0, 0, loc),
		"2026-02-15 08:30:05":       time.Date(2026, 2, 15, 8, 30, 5, 0, loc),
		"2026-02-15T08:30:00Z":      time.Date(2026, 2, 15, 8, 30, 0, 0, time.UTC),
		"2026-02-15T08:30:00+02:00": time.Date(2026, 2, 15, 6, 30, 0, 0, time.UTC),
	} {
		got, err := parseSince(in, loc)
		if err != nil || !got.Equal(want) {
			t.Errorf("%s: %v %v, want %v", in, got, err, want)
		}
	}
}

// TestSearchSaysWhyNothingPrinted: a search without hits still tells a
// person what was searched (exit 1 alone looked like a crash), and a bad
// --role lists the roles the issue names, not kong's empty default.
func TestSearchSaysWhyNothingPrinted(t *testing.T) {
	env := searchWorkspace(t)
	code, out, errOut := runCLI(t, append(env, "search", "no such words")...)
	if code != exitFailed || out != "" || !strings.Contains(errOut, "no hits in 2 session files") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, append(env, "search", "quokka", "--role", "robot")...)
	if code != exitUsage || !strings.Contains(errOut, "user, assistant, tool, thinking, summary") || strings.Contains(errOut, `""`) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
