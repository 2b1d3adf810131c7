package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
