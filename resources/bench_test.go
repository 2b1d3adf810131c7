package resources

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchPreset is a realistic Preset: blocks with templates, slots, a tool
// policy, parameters, a regex rule and two capability bindings.
func benchPreset(i int) string {
	return fmt.Sprintf(`{
  "schemaVersion": 2,
  "type": "pi-forge.prompt-stack",
  "id": "preset-%[1]d",
  "name": "Preset %[1]d",
  "description": "Generated for BenchmarkLoadLibrary.",
  "mode": "replace",
  "tools": { "allow": ["read", "grep", "find", "ls"], "initial": ["read", "grep"] },
  "parameters": { "team": "core", "strict": true, "limit": %[1]d },
  "regex": { "schemaVersion": 1, "rules": [
    { "id": "trim", "stage": "history", "pattern": "\\s+$", "flags": "g", "replace": "" } ] },
  "capabilities": [ { "ref": "cap-%[1]d", "modelCallable": true }, { "ref": "cap-%[2]d" } ],
  "items": [
    { "kind": "block", "id": "intro", "role": "system", "content": "You are helping team {{ parameters.team }}.{%% if parameters.strict %%} Be strict.{%% endif %%}" },
    { "kind": "slot", "id": "tools", "slot": "tools" },
    { "kind": "slot", "id": "context", "slot": "project-context" },
    { "kind": "block", "id": "rules", "role": "system", "content": "Keep changes small. Run the tests. Explain what changed and why." },
    { "kind": "slot", "id": "date", "slot": "date-cwd" },
    { "kind": "slot", "id": "history", "slot": "chat-history" },
    { "kind": "block", "id": "nudge", "role": "user", "content": "Remember the limit of {{ parameters.limit }} lines." }
  ]
}
`, i, (i+1)%500)
}

func benchCapability(i int) string {
	return fmt.Sprintf(`{
  "schemaVersion": 1,
  "type": "pi-forge.capability",
  "id": "cap-%d",
  "name": "Capability %d",
  "description": "Generated for BenchmarkLoadLibrary.",
  "content": "Report findings with evidence before editing anything.",
  "tools": { "add": ["edit", "write"], "remove": ["bash"] }
}
`, i, i)
}

// BenchmarkLoadLibrary loads a project with 500 Presets and 500
// capabilities (budget: 150 ms per load).
func BenchmarkLoadLibrary(b *testing.B) { benchmarkLoad(b, 0) }

// BenchmarkLoadLibrarySerial is the same load on one core, to show what the
// parallel loaders buy.
func BenchmarkLoadLibrarySerial(b *testing.B) { benchmarkLoad(b, 1) }

func benchmarkLoad(b *testing.B, workers int) {
	ws := newWorkspace(b, nil)
	pdir, cdir := StorageDir(ws, KindPreset, ScopeProject), StorageDir(ws, KindCapability, ScopeProject)
	for _, d := range []string{pdir, cdir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 500; i++ {
		if err := os.WriteFile(filepath.Join(pdir, fmt.Sprintf("preset-%d.json", i)), []byte(benchPreset(i)), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cdir, fmt.Sprintf("cap-%d.json", i)), []byte(benchCapability(i)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	lib := mustLoad(b, ws)
	if len(lib.Presets) != 500 || len(lib.Capabilities) != 500 {
		b.Fatalf("loaded %d presets, %d capabilities", len(lib.Presets), len(lib.Capabilities))
	}
	for _, p := range lib.Presets {
		if !p.Usable() {
			b.Fatalf("%s: %v", p.Path, p.Diagnostics)
		}
	}
	for _, c := range lib.Capabilities {
		if !c.Usable() {
			b.Fatalf("%s: %v", c.Path, c.Diagnostics)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := LoadLibraryWith(ws, LoadOptions{Workers: workers}); err != nil {
			b.Fatal(err)
		}
	}
}
