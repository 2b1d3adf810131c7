package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

func TestSessionShowJSONContract(t *testing.T) {
	code, out, errOut := runCLI(t, "session", "show", td("session.jsonl"), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"header", "entries", "skippedLines", "leafId", "pathLength", "contextMessages", "name", "labels"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q: %s", k, out)
		}
	}
	if sum["leafId"] != "aa000009" || sum["name"] != "Cent rounding" || sum["entries"] != float64(9) {
		t.Fatalf("unexpected summary: %s", out)
	}
}

func TestSessionContextLeafAndErrors(t *testing.T) {
	code, out, _ := runCLI(t, "session", "context", td("session.jsonl"), "--leaf", "aa000006", "--json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var ctx struct {
		LeafID      string           `json:"leafId"`
		LLMMessages []map[string]any `json:"llmMessages"`
		Model       map[string]any   `json:"model"`
	}
	if err := json.Unmarshal([]byte(out), &ctx); err != nil {
		t.Fatal(err)
	}
	if ctx.LeafID != "aa000006" || len(ctx.LLMMessages) != 5 || ctx.Model["modelId"] != "claude-test" {
		t.Fatalf("context at the abandoned branch: %s", out)
	}
	if code, _, _ := runCLI(t, "session", "context", td("session.jsonl"), "--leaf", "nope"); code != exitUsage {
		t.Fatalf("unknown leaf: exit %d, want %d", code, exitUsage)
	}
	notSession := filepath.Join(t.TempDir(), "x.jsonl")
	os.WriteFile(notSession, []byte("{\"type\":\"message\"}\n"), 0o644)
	if code, _, _ := runCLI(t, "session", "show", notSession); code != exitUsage {
		t.Fatalf("a file without a session header: exit %d, want %d", code, exitUsage)
	}
}

func TestSessionTreeMarksActiveBranch(t *testing.T) {
	code, out, _ := runCLI(t, "session", "tree", td("session.jsonl"))
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(out, "\n")
	var abandoned, leaf string
	for _, l := range lines {
		if strings.Contains(l, "aa000006") {
			abandoned = l
		}
		if strings.Contains(l, "aa000009") {
			leaf = l
		}
	}
	if !strings.Contains(abandoned, "├─ ·") || !strings.Contains(leaf, "●") {
		t.Fatalf("want the abandoned branch drawn as a side branch and the leaf marked:\n%s", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Fatal("control sequences from the session reached the output")
	}
	code, out, _ = runCLI(t, "session", "tree", td("session.jsonl"), "--json")
	var tree struct {
		Nodes []struct {
			ID       string   `json:"id"`
			Label    string   `json:"label"`
			Active   bool     `json:"active"`
			Children []string `json:"children"`
		} `json:"nodes"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &tree) != nil || len(tree.Nodes) != 9 {
		t.Fatalf("tree json: exit %d %s", code, out)
	}
	if n := tree.Nodes[4]; n.ID != "aa000005" || n.Label != "diagnosis" || len(n.Children) != 2 || !n.Active {
		t.Fatalf("branch point node: %+v", n)
	}
}

func TestSessionExport(t *testing.T) {
	code, md, _ := runCLI(t, "session", "export", td("session.jsonl"))
	if code != exitOK || !strings.HasPrefix(md, "# Cent rounding") || strings.Contains(md, "Patch it in place") {
		t.Fatalf("markdown export of the active branch:\n%s", md)
	}
	if !strings.Contains(md, "````\nexport const total") {
		t.Fatalf("a tool result containing ``` must get a longer fence:\n%s", md)
	}
	out := filepath.Join(t.TempDir(), "branch.json")
	code, _, _ = runCLI(t, "session", "export", td("session.jsonl"), "--leaf", "aa000006", "--format", "json", "-o", out)
	raw, err := os.ReadFile(out)
	if code != exitOK || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	var doc struct {
		LeafID  string           `json:"leafId"`
		Entries []map[string]any `json:"entries"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.LeafID != "aa000006" || len(doc.Entries) != 6 {
		t.Fatalf("json export: %v %s", err, raw)
	}
}

func TestSessionListFindsWorkspaceSessions(t *testing.T) {
	cwd, agent := t.TempDir(), t.TempDir()
	dir := filepath.Join(agent, "sessions", session.EncodeCwd(cwd))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(td("session.jsonl"))
	os.WriteFile(filepath.Join(dir, "2026-11-20T09-00-00-000Z_0197d2a0-0000-7000-8000-000000000001.jsonl"), raw, 0o644)
	code, out, errOut := runCLI(t, "--cwd", cwd, "--agent-dir", agent, "--forge-dir", t.TempDir(), "session", "list", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var items []struct {
		ID, Name, FirstMessage string
		MessageCount           int `json:"messageCount"`
	}
	if err := json.Unmarshal([]byte(out), &items); err != nil || len(items) != 1 {
		t.Fatalf("%v %s", err, out)
	}
	if items[0].Name != "Cent rounding" || items[0].FirstMessage != "Why is the total off by a cent?" || items[0].MessageCount != 6 {
		t.Fatalf("item %+v", items[0])
	}
	code, out, _ = runCLI(t, "--cwd", cwd, "--agent-dir", agent, "--forge-dir", t.TempDir(), "session", "list", "--search", "no such thing")
	if code != exitOK || strings.Contains(out, "Cent rounding") {
		t.Fatalf("search should filter: %s", out)
	}
}

func TestSessionTailPrintsSummaries(t *testing.T) {
	var b strings.Builder
	c := &SessionTailCmd{}
	c.printLine(&b, session.TailLine{Data: []byte(`{"type":"message","id":"b1","parentId":"a1","timestamp":"2026-11-29T10:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done \u001b[2J"}],"usage":{"totalTokens":42}}}`)})
	c.printLine(&b, session.TailLine{Data: []byte(`{broken`)})
	got := b.String()
	if !strings.Contains(got, "b1       assistant     done  (42 tok)") || strings.Count(got, "\n") != 1 || strings.Contains(got, "\x1b") {
		t.Fatalf("got %q", got)
	}
	var raw strings.Builder
	(&SessionTailCmd{JSON: true}).printLine(&raw, session.TailLine{Data: []byte(`{"x":1}`)})
	if raw.String() != "{\"x\":1}\n" {
		t.Fatalf("--json must pass lines through: %q", raw.String())
	}
}

func TestSessionStats(t *testing.T) {
	agent := t.TempDir()
	code, out, errOut := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", agent, "--forge-dir", t.TempDir(), "session", "stats", td("session.jsonl"), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"toolCalls":1`) || !strings.Contains(out, "0.00174") {
		t.Fatalf("want 1 tool call and the stored costs summed (0.00081+0.00093): %s", out)
	}
	code, human, _ := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", agent, "--forge-dir", t.TempDir(), "session", "stats", td("session.jsonl"), "--leaf", "aa000006")
	if code != exitOK || !strings.HasPrefix(human, "branch to aa000006") || !strings.Contains(human, "tool calls   1") {
		t.Fatalf("branch stats: %s", human)
	}
}

func TestPresetCompileAtSessionEntry(t *testing.T) {
	env := []string{"--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", t.TempDir()}
	code, out, errOut := runCLI(t, append(env, "preset", "compile", td("reviewer.json"), "--session", td("session.jsonl"), "--leaf", "aa000006", "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "records no system prompt") || !strings.Contains(errOut, "messages: the context at the session entry") {
		t.Fatalf("a pre-0.86 session must fall back to defaults and say so: %s", errOut)
	}
	if !strings.Contains(out, "Patch it in place.") || strings.Contains(out, "cents helper") {
		t.Fatalf("history must be the context at the chosen entry, not the other branch: %s", out)
	}
	if code, _, _ := runCLI(t, append(env, "preset", "compile", td("reviewer.json"), "--leaf", "aa000006")...); code != exitUsage {
		t.Fatalf("--leaf without --session: exit %d", code)
	}
}
