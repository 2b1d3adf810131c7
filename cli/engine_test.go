package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/compile"
)

func td(name string) string { return filepath.Join("testdata", name) }

func TestTemplateRenderFriendly(t *testing.T) {
	code, out, errOut := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "template", "render", td("greet.tmpl"), "-p", "who=ada")
	if code != exitOK || out != "Hi ADA, you can read." {
		t.Fatalf("exit %d out %q err %q", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "template", "render", td("broken.tmpl"))
	if code != exitFailed || !strings.Contains(errOut, "1:4: forge-v1 render error: Undefined forge-v1 path") {
		t.Fatalf("an undefined path must exit 1 with a positioned message; exit %d err %q", code, errOut)
	}
}

func TestTemplateRenderRequestContract(t *testing.T) {
	req := filepath.Join(t.TempDir(), "req.json")
	os.WriteFile(req, []byte(`{"template":"{{ parameters.n | json }} {% if x %}","env":{"runtime":{},"parameters":{"n":"<a>"},"extensions":{}}}`), 0o644)
	code, out, _ := runCLI(t, "template", "render", "--request", req)
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var res struct {
		OK    bool   `json:"ok"`
		Stage string `json:"stage"`
		Error struct {
			Kind string         `json:"kind"`
			Span map[string]int `json:"span"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.OK || res.Stage != "parse" || res.Error.Span == nil {
		t.Fatalf("want a parse error with a span, got %q (%v)", out, err)
	}
	if code, _, _ := runCLI(t, "template", "render", "--request", td("missing.json")); code != exitUsage {
		t.Fatalf("a missing request file is a usage error, got %d", code)
	}
}

func TestPresetCompileForms(t *testing.T) {
	args := []string{"preset", "compile", td("reviewer.json"), "--runtime", td("runtime.json"),
		"--messages", td("messages.json"), "--base", td("base.txt")}
	code, out, errOut := runCLI(t, append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The everyday form must agree with the --request contract on the same inputs.
	stack, _ := os.ReadFile(td("reviewer.json"))
	rt, _ := os.ReadFile(td("runtime.json"))
	msgs, _ := os.ReadFile(td("messages.json"))
	req := `{"stack":` + string(stack) + `,"runtime":` + string(rt) + `,"base":"You are pi.","messages":` + string(msgs) + `}`
	want, err := compile.CompileRequestJSON([]byte(req))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Fatalf("--json output differs from the request contract:\n got %s\nwant %s", out, want)
	}
	var res struct {
		System struct {
			SystemPrompt string `json:"systemPrompt"`
		} `json:"system"`
		Messages struct {
			Messages []map[string]any `json:"messages"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.System.SystemPrompt, "You are pi.\n\nReview for rounding in /srv/invoices.") {
		t.Fatalf("append mode must start from the base prompt: %q", res.System.SystemPrompt)
	}
	if len(res.Messages.Messages) != 3 {
		t.Fatalf("want the synthetic user message plus 2 history messages, got %d", len(res.Messages.Messages))
	}

	code, human, _ := runCLI(t, args...)
	if code != exitOK || !strings.Contains(human, "── system prompt") || !strings.Contains(human, "chat history 1/2 via history") {
		t.Fatalf("human form: exit %d\n%s", code, human)
	}
}

func TestPresetCompileExitsOneOnErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"items":[{"kind":"block","id":"a","role":"system","content":"{{ nope }}"}]}`), 0o644)
	code, _, errOut := runCLI(t, "preset", "compile", bad, "--runtime", td("runtime.json"), "--base", td("base.txt"))
	if code != exitFailed || !strings.Contains(errOut, "system error [a]:") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

func TestPresetPreviewPartsAddUp(t *testing.T) {
	code, out, errOut := runCLI(t, "preset", "preview", td("reviewer.json"), "--runtime", td("runtime.json"),
		"--messages", td("messages.json"), "--base", td("base.txt"), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var pv struct {
		SystemPrompt string `json:"systemPrompt"`
		System       []struct {
			Kind, Label, Text string
			Tokens            int
			ItemID            string `json:"itemId"`
		} `json:"system"`
		Messages []struct{ Label string } `json:"messages"`
	}
	if err := json.Unmarshal([]byte(out), &pv); err != nil {
		t.Fatal(err)
	}
	var joined strings.Builder
	labelled := false
	for _, p := range pv.System {
		joined.WriteString(p.Text)
		labelled = labelled || (p.ItemID == "role" && p.Tokens == (len(p.Text)+3)/4)
	}
	if joined.String() != pv.SystemPrompt {
		t.Fatalf("parts do not add up to the prompt:\n%q\n%q", joined.String(), pv.SystemPrompt)
	}
	if !labelled || len(pv.Messages) != 3 {
		t.Fatalf("want the role block labelled with a chars/4 estimate and 3 message parts: %s", out)
	}
}

func TestPresetCompileUsesWorkspaceDefaults(t *testing.T) {
	cwd := t.TempDir()
	agent := t.TempDir()
	os.WriteFile(filepath.Join(cwd, "AGENTS.md"), []byte("Use cents."), 0o644)
	code, out, errOut := runCLI(t, "--cwd", cwd, "--agent-dir", agent, "--forge-dir", t.TempDir(),
		"preset", "compile", td("reviewer.json"), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "You are a coding assistant running inside pi") || !strings.Contains(out, "Use cents.") {
		t.Fatalf("the base prompt must be Pi 1.6.0's default for the workspace, with its context files: %s", out)
	}
	if !strings.Contains(errOut, "runtime: a fresh Pi 1.6.0 session in "+cwd+" (tools read, bash, edit, write, forge_capability from Pi's default tools)") {
		t.Fatalf("stderr must say where the runtime came from: %q", errOut)
	}
}
