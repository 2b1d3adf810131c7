package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForkToGlobalThatWouldNotValidateIsRefused: issue 14, disagreement 4.
func TestForkToGlobalThatWouldNotValidateIsRefused(t *testing.T) {
	args, layout := demoArgs(t)
	code, _, errOut := runCLI(t, in(args, "preset", "fork", "guarded-worker", "gw2", "--scope", "global")...)
	if code != exitFailed || !strings.Contains(errOut, "Global binding cannot reference project capability: project:write-access.") ||
		!strings.Contains(errOut, "not written") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(layout.ForgeDir, "prompt-stacks", "gw2.json")); !os.IsNotExist(err) {
		t.Fatalf("the refused copy was written: %v", err)
	}
	// The same fork within the project scope is fine.
	if code, _, errOut := runCLI(t, in(args, "preset", "fork", "guarded-worker", "gw2")...); code != exitOK {
		t.Fatalf("project fork: exit %d %s", code, errOut)
	}
}

// TestPresetNewFromFileImports: a native JSON file becomes a new Preset
// with the given id, unknown keys kept; a second create is a conflict; a
// file that is not a JSON object is refused.
func TestPresetNewFromFileImports(t *testing.T) {
	args, layout := demoArgs(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "export.json")
	os.WriteFile(file, []byte(`{"schemaVersion":2,"id":"elsewhere","name":"Imported","x-note":{"keep":true},"items":[{"kind":"block","id":"a","role":"system","content":"Hi"}]}`), 0o644)
	code, _, errOut := runCLI(t, in(args, "preset", "new", "imported", "--from", file)...)
	if code != exitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(layout.ProjectDir, ".pi", "forge", "prompt-stacks", "imported.json"))
	if err != nil || !strings.Contains(string(data), `"id": "imported"`) || !strings.Contains(string(data), `"x-note": {`) {
		t.Fatalf("%v\n%s", err, data)
	}
	if code, _, _ := runCLI(t, in(args, "preset", "new", "imported", "--from", file)...); code != exitConflict {
		t.Fatalf("second create: exit %d, want 3", code)
	}
	os.WriteFile(file, []byte(`[1,2]`), 0o644)
	if code, _, errOut := runCLI(t, in(args, "preset", "new", "bad", "--from", file)...); code != exitFailed || !strings.Contains(errOut, "must be a JSON object") {
		t.Fatalf("array: exit %d %s", code, errOut)
	}
	os.WriteFile(file, []byte(`{"id":"x","capabilities":[{"id":"w","ref":"project:write-access"}],"items":[]}`), 0o644)
	if code, _, errOut := runCLI(t, in(args, "preset", "new", "bad", "--from", file, "--scope", "global")...); code != exitFailed ||
		!strings.Contains(errOut, "Global binding cannot reference project capability") {
		t.Fatalf("invalid import: exit %d %s", code, errOut)
	}
}

// TestValidateReportsUnmatchedAllowPatterns: `preset validate` warns about
// allow patterns that match no registered tool.
func TestValidateReportsUnmatchedAllowPatterns(t *testing.T) {
	args, layout := demoArgs(t)
	os.WriteFile(filepath.Join(layout.ProjectDir, ".pi", "forge", "prompt-stacks", "w.json"),
		[]byte(`{"id":"w","tools":{"allow":["read","web_*","*"]},"items":[{"kind":"slot","id":"h","slot":"chat-history"}]}`), 0o644)
	code, out, _ := runCLI(t, in(args, "preset", "validate", "w")...)
	if code != exitOK || !strings.Contains(out, `Prompt stack w allows tool pattern "web_*", but it matches no registered tools.`) ||
		strings.Contains(out, `pattern "read"`) || strings.Contains(out, `pattern "*"`) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	_, out, _ = runCLI(t, in(args, "preset", "validate", "w", "--json")...)
	if !strings.Contains(out, `"field": "tools.allow"`) || !strings.Contains(out, `"warnings": 1`) {
		t.Fatalf("json: %s", out)
	}
}
