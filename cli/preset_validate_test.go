package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPresetValidateDefaultsToTheActivePreset: pi-forge 0.5.6's /preset
// validate checks the active Preset only; --all checks every one (exit 1
// when any has an error).
func TestPresetValidateDefaultsToTheActivePreset(t *testing.T) {
	args, layout := demoArgs(t)
	code, out, errOut := runCLI(t, in(args, "preset", "validate", "--session", mainSession(t, layout))...)
	if code != exitOK || !strings.Contains(out, "project:guarded-worker") || strings.Contains(out, "broken-on-purpose") || strings.Contains(out, "pi-mirror") {
		t.Fatalf("active Preset: exit %d\n%s%s", code, out, errOut)
	}
	// Without --session: the project's newest session, named on stderr.
	code, out, errOut = runCLI(t, in(args, "preset", "validate")...)
	if code != exitOK || !strings.Contains(out, "project:guarded-worker") || strings.Contains(out, "broken-on-purpose") || errOut == "" {
		t.Fatalf("newest session: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, in(args, "preset", "validate", "--session", currencySession(t, layout))...)
	if code != exitUsage || !strings.Contains(errOut, "No active preset.") {
		t.Fatalf("Preset switched off: exit %d %s", code, errOut)
	}
	code, out, _ = runCLI(t, in(args, "preset", "validate", "--all")...)
	if code != exitFailed || !strings.Contains(out, "broken-on-purpose") || !strings.Contains(out, "pi-mirror") {
		t.Fatalf("--all: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, in(args, "preset", "validate", "--all", "pi-mirror")...); code != exitUsage {
		t.Fatalf("--all with selectors: exit %d", code)
	}
}

// TestPresetUseOfAPresetWithErrors says so and lists the errors (exit 1),
// never "Unknown prompt stack", and writes nothing.
func TestPresetUseOfAPresetWithErrors(t *testing.T) {
	args, layout := demoArgs(t)
	file := currencySession(t, layout)
	size := fileSize(t, file)
	code, out, errOut := runCLI(t, in(args, "preset", "use", "broken-on-purpose", "--session", file)...)
	if code != exitFailed || !strings.Contains(errOut, "Preset project:broken-on-purpose has errors") ||
		!strings.Contains(errOut, "Duplicate item id: intro") || strings.Contains(errOut, "Unknown prompt stack") || fileSize(t, file) != size {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestPresetValidateWarnsOfRenamedMCPNames: an exact deny name of the
// mcp__server-name__tool form Pi 0.99.2 renamed gets a warning naming the
// new form (pi-forge 0.5.8); a warning does not fail validation.
func TestPresetValidateWarnsOfRenamedMCPNames(t *testing.T) {
	args, layout := demoArgs(t)
	body := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"mcp-deny","tools":{"deny":["mcp__web-search__query","mcp__web-search__*"]},"items":[{"kind":"slot","id":"h","slot":"chat-history"}]}`
	if err := os.WriteFile(filepath.Join(layout.ProjectDir, ".pi", "forge", "prompt-stacks", "mcp-deny.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	want := `Tool "mcp__web-search__query" in tools.deny uses the MCP name form Pi 0.99.2 renamed; Pi now registers it as "mcp__web_search__query", so this exact name matches no tool.`
	code, out, errOut := runCLI(t, in(args, "preset", "validate", "mcp-deny")...)
	if code != exitOK || !strings.Contains(out, want) || strings.Count(out, "0.99.2") != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	_, out, _ = runCLI(t, in(args, "preset", "validate", "mcp-deny", "--json")...)
	if !strings.Contains(out, `"field": "tools.deny"`) || !strings.Contains(out, "mcp__web_search__query") {
		t.Fatalf("json:\n%s", out)
	}
}

// TestCapabilityValidateWarnsOfRenamedMCPNames: the same warning for an
// exact tools.remove name of a capability.
func TestCapabilityValidateWarnsOfRenamedMCPNames(t *testing.T) {
	args, layout := demoArgs(t)
	body := `{"schemaVersion":1,"type":"pi-forge.capability","id":"no-search","content":"","tools":{"add":[],"remove":["mcp__web-search__query"]}}`
	if err := os.WriteFile(filepath.Join(layout.ProjectDir, ".pi", "forge", "capabilities", "no-search.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, in(args, "capability", "validate", "no-search")...)
	if code != exitOK || !strings.Contains(out, `Tool "mcp__web-search__query" in tools.remove uses the MCP name form Pi 0.99.2 renamed; Pi now registers it as "mcp__web_search__query"`) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}
