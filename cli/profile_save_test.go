package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileSaveCapturesModelThinkingAndPreset: the entry's model,
// thinking level and active Preset (relative to the profile's scope), an
// existing file only with --overwrite (its name, description and
// autoActivate kept), a global profile never pointing at a project Preset.
func TestProfileSaveCapturesModelThinkingAndPreset(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout) // GPT-5.4 at high under project:guarded-worker at its leaf
	code, out, errOut := runCLI(t, in(args, "profile", "save", "gpt-guarded", "--session", file, "--json")...)
	if code != exitOK {
		t.Fatalf("save: %d %s%s", code, out, errOut)
	}
	var res struct {
		Message string
		Path    string
		Profile map[string]any
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(layout.ProjectDir, ".pi", "forge", "agent-profiles", "gpt-guarded.json")
	data, _ := os.ReadFile(want)
	if res.Path != want || res.Message != "pi-forge: saved current runtime as profile gpt-guarded; the profile was not applied or marked active." ||
		string(data) != `{
  "schemaVersion": 1,
  "type": "pi-forge.agent-profile",
  "id": "gpt-guarded",
  "name": "gpt-guarded",
  "model": {
    "provider": "openai",
    "id": "gpt-5.4"
  },
  "thinkingLevel": "high",
  "promptStack": "guarded-worker"
}
` {
		t.Fatalf("%+v\n%s", res, data)
	}
	// The same id again needs --overwrite.
	code, _, errOut = runCLI(t, in(args, "profile", "save", "gpt-guarded", "--session", file)...)
	if code != exitConflict || !strings.Contains(errOut, "pi-forge: profile gpt-guarded already exists; re-run with --overwrite.") {
		t.Fatalf("exists: %d %s", code, errOut)
	}
	// At an earlier entry (the profile's auto-activation) the runtime was
	// Sonnet at medium; overwriting tdd-worker keeps its metadata.
	_, tree, _ := runCLI(t, in(args, "profile", "status", "--session", file, "--json")...)
	var st struct{ LastApplied struct{ EntryID string } }
	_ = json.Unmarshal([]byte(tree), &st)
	code, out, errOut = runCLI(t, in(args, "profile", "save", "tdd-worker", "--session", file, "--leaf", st.LastApplied.EntryID, "--overwrite", "--json")...)
	var over struct {
		Profile struct {
			Name          string
			AutoActivate  bool
			Model         struct{ Provider, ID string }
			ThinkingLevel string
			PromptStack   string
		}
	}
	_ = json.Unmarshal([]byte(out), &over)
	if pr := over.Profile; code != exitOK || pr.Name != "TDD Worker" || !pr.AutoActivate || pr.Model.ID != "claude-sonnet-4-5" ||
		pr.ThinkingLevel != "medium" || pr.PromptStack != "guarded-worker" {
		t.Fatalf("overwrite: %d %s%s", code, out, errOut)
	}
	// A global profile cannot reference the project Preset.
	code, _, errOut = runCLI(t, in(args, "profile", "save", "gpt-guarded", "--scope", "global", "--session", file)...)
	if code != exitFailed || !strings.Contains(errOut, "Cannot capture a global profile referencing a project prompt stack guarded-worker.") {
		t.Fatalf("global: %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(layout.ForgeDir, "agent-profiles", "gpt-guarded.json")); err == nil {
		t.Fatal("a refused capture wrote a file")
	}
}

// TestProfileSaveRefusesASecondAutoActivatingProfile: pi-forge's editor
// rejects a second auto-activating profile in one scope; so does the
// resources layer for every writer.
func TestProfileSaveRefusesASecondAutoActivatingProfile(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	// deep-review does not auto-activate; tdd-worker does. Make
	// deep-review auto-activate too and capture over it.
	path := filepath.Join(layout.ProjectDir, ".pi", "forge", "agent-profiles", "deep-review.json")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"autoActivate": false`, `"autoActivate": true`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, in(args, "profile", "save", "deep-review", "--session", file, "--overwrite")...)
	if code != exitFailed || !strings.Contains(errOut, "Multiple project profiles request auto-activation; exactly one is allowed (already requested by tdd-worker).") {
		t.Fatalf("second auto-activating profile: %d %s", code, errOut)
	}
	if after, _ := os.ReadFile(path); !strings.Contains(string(after), `"provider": "openai"`) || strings.Contains(string(after), "guarded-worker") {
		t.Fatalf("the refused save changed the file:\n%s", after)
	}
}
