package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfilePreviewShowsEffectiveToolsAndTask(t *testing.T) {
	args, _ := demoArgs(t)
	_, out, _ := runCLI(t, in(args, "profile", "preview", "tdd-worker")...)
	if !strings.Contains(out, "tools     read, grep, ls, forge_capability (tools.initial of project:guarded-worker, in a fresh session)") {
		t.Fatalf("%s", out)
	}
	_, out, _ = runCLI(t, in(args, "profile", "preview", "tdd-worker", "--json")...)
	var pv struct {
		EffectiveTools []string `json:"effectiveTools"`
		ToolsSource    string   `json:"toolsSource"`
	}
	if err := json.Unmarshal([]byte(out), &pv); err != nil || len(pv.EffectiveTools) != 4 || pv.ToolsSource != "tools.initial" {
		t.Fatalf("%v %+v", err, pv)
	}
	// --task: the host's preparation, not blocked by the model's missing
	// credentials (the child's backend owns those).
	code, out, errOut := runCLI(t, in(args, "profile", "preview", "tdd-worker", "--task", "Add a test", "--json")...)
	var task struct {
		ProfileFingerprint     string `json:"profileFingerprint"`
		PromptStackFingerprint string `json:"promptStackFingerprint"`
		Preparation            struct {
			SystemPrompt string `json:"systemPrompt"`
			Messages     []struct {
				Role          string `json:"role"`
				ProtectedTask bool   `json:"protectedTask"`
				Source        string `json:"source"`
			} `json:"messages"`
		} `json:"preparation"`
	}
	if err := json.Unmarshal([]byte(out), &task); err != nil || code != exitOK {
		t.Fatalf("exit %d %v %s", code, err, errOut)
	}
	msgs := task.Preparation.Messages
	// The profile fingerprint is pi-forge's for this file (computed with
	// pi-forge 0.5.1's subagent host, engine/compile/testdata/pi-forge-0.5.1).
	if task.ProfileFingerprint != "sha256:v1:94534c1c4861ba1bd703d3982712c70bcf970abbe46d4fa475f5c0724cac5aa5" ||
		!strings.HasPrefix(task.PromptStackFingerprint, "sha256:v1:") || len(msgs) != 2 || !msgs[1].ProtectedTask ||
		msgs[1].Source != "delegated-task" || strings.Contains(task.Preparation.SystemPrompt, "project_context") {
		t.Fatalf("%+v", task)
	}
	// The child starts with the Preset's tools.initial (pi-forge ≥ 0.5.5's
	// negotiation), so guarded-worker's prompt says it is read-only.
	_, out, _ = runCLI(t, in(args, "profile", "preview", "tdd-worker", "--task", "Add a test")...)
	if !strings.Contains(out, "tools     read, grep, ls, forge_capability (tools.initial of project:guarded-worker over Pi's built-ins and forge_capability)") ||
		!strings.Contains(out, "Start read-only") {
		t.Fatalf("%s", out)
	}
}

func TestProfileStatusFromProvenance(t *testing.T) {
	args, layout := demoArgs(t)
	file := demoSessionFile(t, layout.SessionDir, "01a21c48")
	code, out, errOut := runCLI(t, in(args, "profile", "status", "--session", file)...)
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	for _, want := range []string{"last applied profile: project:tdd-worker", "— unchanged", "model     anthropic/claude-sonnet-4-5 → openai/gpt-5.4",
		"thinking  medium → high", "preset    unchanged (project:guarded-worker)",
		"tools *   read, grep, ls, forge_capability → read, grep, ls, forge_capability, edit, write, bash",
		"* forgebench's own check, not part of pi-forge's /profile status"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	// Editing the profile file changes its fingerprint.
	path := filepath.Join(layout.ProjectDir, ".pi", "forge", "agent-profiles", "tdd-worker.json")
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"medium"`, `"low"`, 1)), 0o644)
	_, out, _ = runCLI(t, in(args, "profile", "status", "--session", file, "--json")...)
	var st struct {
		LastApplied *struct {
			Profile     string `json:"profile"`
			SourceState string `json:"sourceState"`
			Drift       map[string]struct {
				Changed bool `json:"changed"`
			} `json:"drift"`
		} `json:"lastApplied"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.LastApplied == nil || st.LastApplied.SourceState != "changed" ||
		!st.LastApplied.Drift["model"].Changed || st.LastApplied.Drift["promptStack"].Changed {
		t.Fatalf("%v %s", err, out)
	}
	// A session without provenance.
	other := demoSessionFile(t, layout.SessionDir, "01a21dbe")
	if _, out, _ := runCLI(t, in(args, "profile", "status", "--session", other)...); !strings.Contains(out, "last applied profile: (none)") {
		t.Fatalf("%s", out)
	}
}
