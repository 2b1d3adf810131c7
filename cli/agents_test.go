package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session/subagent"
)

// synthArgs points the CLI at the synthetic v5 fixture's agent dir.
func synthArgs(t *testing.T) []string {
	agentDir := fixtures.Path(t, "pi-subagent/synthetic-v5/agent")
	return []string{"--agent-dir", agentDir, "--cwd", "/home/dev/projects/demo-app"}
}

// The list contract: one object per agent with at least these keys.
var listContract = []string{"path", "parent", "depth", "role", "status", "lifecycle", "model", "thinking", "task",
	"created", "requests", "toolCalls", "tokens", "cost", "runtimeMs"}

func TestAgentsListContract(t *testing.T) {
	args := append(synthArgs(t), "agents", "list", "01a2297f-5f0c", "--json")
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(list) != 2 {
		t.Fatalf("%d agents", len(list))
	}
	for _, a := range list {
		for _, k := range listContract {
			if _, ok := a[k]; !ok {
				t.Errorf("%v lacks %q", a["path"], k)
			}
		}
		tok, _ := a["tokens"].(map[string]any)
		for _, k := range []string{"input", "output", "cacheRead", "cacheWrite"} {
			if _, ok := tok[k].(float64); !ok {
				t.Errorf("%v tokens.%s is %v", a["path"], k, tok[k])
			}
		}
	}
	review, scout := list[0], list[1]
	if review["path"] != "/root/review" || review["requests"] != 2.0 || review["toolCalls"] != 1.0 || review["depth"] != 1.0 ||
		review["role"] != "reviewer" || review["status"] != "completed" || review["lifecycle"] != "open" ||
		review["model"] != "anthropic/claude-sonnet-4-5" || review["thinking"] != "high" || review["created"] != "2026-11-29T22:49:02.994Z" {
		t.Errorf("review %v", review)
	}
	if c, ok := review["cost"].(float64); !ok || c < 0.01529 || c > 0.01531 {
		t.Errorf("review cost %v", review["cost"])
	}
	// Nothing recorded: the cost is unavailable (null), never 0.
	if scout["cost"] != nil || scout["status"] != "errored" || scout["task"] != "Map the test layout." {
		t.Errorf("scout %v", scout)
	}
	// The file paths in state.json point at another machine; the tree is
	// still read, with a note.
	if !strings.Contains(errOut, "found by name under") {
		t.Errorf("stderr %q", errOut)
	}
}

func TestAgentsListText(t *testing.T) {
	args := append(synthArgs(t), "agents", "list", "01a2297f-5f0c-758f-9050-afccfbc5b281")
	code, out, _ := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"tree 01a2297f-5f11-758f-9050-afce81bb6785", "0/4 active runs", "2 pending for /root",
		"/root/review", "reviewer", "$0.0153", "n/a", "22:49:02", "total  2 agents · $0.0153", "2 requests · 1 tool call (+0 nested)"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
}

func TestAgentsExitCodes(t *testing.T) {
	base := synthArgs(t)
	root := fixtures.Path(t, "pi-subagent/synthetic-v5/agent/sessions/--home-dev-projects-demo-app--/2026-11-29T22-49-02-991Z_01a2297f-5f0c-758f-9050-afccfbc5b281.jsonl")
	child := fixtures.Glob(t, "pi-subagent/synthetic-v5/agent/sessions/*/*.subagents/*/sessions/*994Z*.jsonl")[0]
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"agents", "list", "ffffffff"}, exitUsage, "neither a file nor a session id"},
		{[]string{"agents", "list", child}, exitUsage, "is a pi-subagent agent session"}, // not a root session: no such tree (issue 23)
		{[]string{"agents", "show", "nobody", "-s", root}, exitUsage, "no agent /root/nobody"},
		{[]string{"agents", "transcript", "review", "-s", root, "--page", "5"}, exitUsage, "--page goes up to 0"},
		{[]string{"agents", "transcript", "review", "-s", root, "--page=-1"}, exitUsage, "--page must be"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, append(base, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Errorf("%v: exit %d (%q), want %d and %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

func TestAgentsShowAndTranscript(t *testing.T) {
	base := synthArgs(t)
	code, out, errOut := runCLI(t, append(base, "agents", "show", "/root/review", "-s", "01a2297f-5f0c")...)
	if code != exitOK {
		t.Fatalf("show: exit %d %s", code, errOut)
	}
	for _, want := range []string{"selected       anthropic/claude-sonnet-4-5 · thinking high", "context        4.3k / 200k",
		"tool calls 1 (+0 nested)", "task\n    Review src/auth.ts; report concrete defects.", "answer   answer"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, append(base, "agents", "show", "review", "-s", "01a2297f-5f0c", "--json")...)
	var shown map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &shown) != nil {
		t.Fatalf("show --json: exit %d %s", code, out)
	}
	if act, _ := shown["activity"].([]any); len(act) != 4 || shown["maxConcurrentAgents"] != 4.0 {
		t.Errorf("activity %v slots %v", shown["activity"], shown["maxConcurrentAgents"])
	}
	code, out, _ = runCLI(t, append(base, "agents", "transcript", "review", "-s", "01a2297f-5f0c")...)
	if code != exitOK || !strings.Contains(out, "page 0 of 1") || !strings.Contains(out, "→ read") ||
		!strings.Contains(out, "Defect: src/auth.ts:1") {
		t.Errorf("transcript: exit %d\n%s", code, out)
	}
}

func TestAgentsRolesAndConfig(t *testing.T) {
	agentDir := t.TempDir()
	cwd := t.TempDir()
	args := []string{"--agent-dir", agentDir, "--cwd", cwd}
	if code, out, _ := runCLI(t, append(args, "agents", "config")...); code != exitOK || !strings.Contains(out, "maxConcurrentAgents  4      default") {
		t.Errorf("default config: exit %d\n%s", code, out)
	}
	write := func(rel, content string) {
		p := filepath.Join(agentDir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("subagent.json", `{"maxConcurrentAgents":0,"reportDelivery":"quiet"}`)
	code, out, errOut := runCLI(t, append(args, "agents", "config", "--json")...)
	var cfg map[string]any
	if code != exitFailed || json.Unmarshal([]byte(out), &cfg) != nil || cfg["valid"] != false {
		t.Fatalf("invalid config: exit %d %s", code, out)
	}
	if !strings.Contains(errOut, "maxConcurrentAgents must be a safe integer between 1 and 9007199254740991") ||
		!strings.Contains(errOut, `hint: "reportDelivery" is a retired pi-subagent setting`) {
		t.Errorf("stderr %q", errOut)
	}
	write("agents/reviewer.md", "---\nname: reviewer\ndescription: Reads\ntools: read\n---\nReview.\n")
	code, out, _ = runCLI(t, append(args, "agents", "roles", "--json")...)
	var roles map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &roles) != nil || len(roles["roles"].([]any)) != 1 {
		t.Fatalf("roles: exit %d %s", code, out)
	}
	write("agents/broken.md", "---\nname: broken\n---\nx")
	code, _, errOut = runCLI(t, append(args, "agents", "roles")...)
	if code != exitFailed || !strings.Contains(errOut, "broken.md: description is required") {
		t.Errorf("broken role: exit %d %q", code, errOut)
	}
}

func TestAgentsOnTheDemo(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	code, out, errOut := runCLI(t, "--demo", "agents", "list", "--json", "01a2219b-7aa3")
	var list []map[string]any
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("exit %d %s %s", code, out, errOut)
	}
	if len(list) < 3 {
		t.Fatalf("the demo tree has %d agents", len(list))
	}
	byPath := map[string]map[string]any{}
	for _, a := range list {
		byPath[a["path"].(string)] = a
	}
	if a := byPath["/root/invoice_review/edge_cases"]; a == nil || a["depth"] != 2.0 || a["parent"] != "/root/invoice_review" {
		t.Errorf("depth-2 agent %v", a)
	}
}

// `agents list --json` is written one agent at a time; the bytes are
// JSON.stringify of the whole list, as the one-value writer made them.
func TestAgentsListJSONStreamsTheSameBytes(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	code, out, errOut := runCLI(t, "--demo", "agents", "list", "--json", "--all", "01a2219b-7aa3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) < 3 {
		t.Fatalf("not a list of agents (%v):\n%s", err, out)
	}
	whole, err := jsonv.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := jsonv.StringifyIndent(whole, "  ") + "\n"
	if out != want {
		t.Errorf("streamed output differs from the one-value stringify:\n got %q\nwant %q", out, want)
	}
	var b strings.Builder
	if err := writeAgentListJSON(&b, nil, nil); err != nil || b.String() != "[]\n" {
		t.Errorf("no agents: %q %v", b.String(), err)
	}
}

// A pruned tree has a diagnostic per agent; past maxSameDiagnostic of one
// message the rest are counted on one line, after the others.
func TestTreeDiagnosticsCountTheRepeats(t *testing.T) {
	var diags []subagent.Diagnostic
	for i := range 25 {
		diags = append(diags, subagent.Diagnostic{Severity: "warning", File: fmt.Sprintf("/s/%02d.jsonl", i), Message: "agent session file not found"})
	}
	diags = append(diags, subagent.Diagnostic{Severity: "warning", Message: "bad \x1b[31mrecord"})
	var b strings.Builder
	if err := writeTreeDiagnostics(&b, diags); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != maxSameDiagnostic+2 {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
	if lines[0] != "warning: /s/00.jsonl: agent session file not found" || strings.Contains(b.String(), "/s/20.jsonl") {
		t.Errorf("the first ones are not printed whole, or too many are:\n%s", b.String())
	}
	if want := "warning: 5 more like this: agent session file not found"; lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("a control character reached the terminal: %q", b.String())
	}
}
