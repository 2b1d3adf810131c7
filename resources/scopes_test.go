package resources

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newWorkspace writes files into a fresh trusted workspace. Keys start with
// "p/" (relative to the project cwd) or "g/" (relative to the forge dir).
func newWorkspace(t testing.TB, files map[string]string) Workspace {
	t.Helper()
	root := t.TempDir()
	ws := Workspace{
		Cwd: filepath.Join(root, "project"), AgentDir: filepath.Join(root, "agent"),
		ForgeDir: filepath.Join(root, "forge"), Trust: Trust{Trusted: true, Source: "test"},
	}
	for _, d := range []string{ws.Cwd, ws.AgentDir, ws.ForgeDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range files {
		writeFile(t, wsPath(ws, name), content)
	}
	return ws
}

func wsPath(ws Workspace, name string) string {
	if rest, ok := strings.CutPrefix(name, "g/"); ok {
		return filepath.Join(ws.ForgeDir, rest)
	}
	return filepath.Join(ws.Cwd, strings.TrimPrefix(name, "p/"))
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func stackJSON(id string, extra string) string {
	return `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"` + id + `"` + extra +
		`,"items":[{"kind":"slot","id":"history","slot":"chat-history"}]}`
}

func capJSON(id string) string {
	return `{"schemaVersion":1,"type":"pi-forge.capability","id":"` + id + `","content":"Be brief."}`
}

const (
	projStacks = "p/.pi/forge/prompt-stacks/"
	legacy     = "p/.pi/prompt-stacks/"
	globStacks = "g/prompt-stacks/"
	projCaps   = "p/.pi/forge/capabilities/"
	globCaps   = "g/capabilities/"
)

func TestLegacyShadowingAndDuplicates(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + "a.json":   stackJSON("a", ""),
		legacy + "a.json":       stackJSON("a-legacy", ""), // shadowed by file name
		legacy + "b.json":       stackJSON("b", ""),
		projStacks + "x.json":   stackJSON("dup", ""),
		legacy + "y.json":       stackJSON("dup", ""),
		globStacks + "dup.json": stackJSON("dup", ""), // other scope: no duplicate
		globStacks + "g1.json":  stackJSON("g", ""),
		globStacks + "g2.json":  stackJSON("g", ""),
		legacy + "notes.txt":    "ignored",
	})
	lib := mustLoad(t, ws)
	want := `preset project:a a.json
preset project:dup x.json
  error: Duplicate project stack id: dup appears in multiple files (x.json, y.json).
preset project:b b.json legacy
preset project:dup y.json legacy
  error: Duplicate project stack id: dup appears in multiple files (x.json, y.json).
preset global:dup dup.json
preset global:g g1.json
  error: Duplicate global stack id: g appears in multiple files (g1.json, g2.json).
preset global:g g2.json
  error: Duplicate global stack id: g appears in multiple files (g1.json, g2.json).
`
	if got := summary(lib); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Ambiguous project id fails closed, never falling back to global:dup.
	if _, err := lib.ResolvePreset("dup"); !errors.Is(err, ErrAmbiguous) || err.Error() != "Prompt stack id is ambiguous: dup" {
		t.Errorf("bare dup: %v", err)
	}
	if p, err := lib.ResolvePreset("global:dup"); err != nil || p.Scope != ScopeGlobal {
		t.Errorf("global:dup: %v", err)
	}
	if _, err := lib.ResolvePreset("global:g"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("global:g: %v", err)
	}
	eff := lib.EffectivePresets()
	for _, p := range eff {
		if p.Key() == "global:dup" {
			t.Error("global:dup is shadowed by the project id and must not be effective")
		}
	}
}

func TestInvalidProjectShadowFailsClosed(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + "same.json": `{"id":"same"}`, // no items array: error
		globStacks + "same.json": stackJSON("same", `,"autoActivate":true`),
		globStacks + "auto.json": stackJSON("auto", `,"autoActivate":true`),
	})
	lib := mustLoad(t, ws)
	p, err := lib.ResolvePreset("same")
	if !errors.Is(err, ErrUnusable) || p == nil || p.Scope != ScopeProject ||
		err.Error() != "Prompt stack project:same has errors: Preset must contain an items array." {
		t.Fatalf("bare same = %v, %v; want the unusable project Preset", p, err)
	}
	// global:same is shadowed, so only global:auto can auto-activate.
	if a := lib.AutoActivatePreset(); a == nil || a.Key() != "global:auto" {
		t.Errorf("auto-activation = %v, want global:auto", a)
	}
}

func TestAutoActivatePreset(t *testing.T) {
	auto := `,"autoActivate":true`
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"one project", map[string]string{projStacks + "a.json": stackJSON("a", auto), globStacks + "g.json": stackJSON("g", auto)}, "project:a"},
		{"two project candidates fail closed", map[string]string{projStacks + "a.json": stackJSON("a", auto), projStacks + "b.json": stackJSON("b", auto), globStacks + "g.json": stackJSON("g", auto)}, ""},
		{"invalid project candidate fails closed", map[string]string{projStacks + "a.json": `{"id":"a","autoActivate":true}`, globStacks + "g.json": stackJSON("g", auto)}, ""},
		{"one global", map[string]string{projStacks + "a.json": stackJSON("a", ""), globStacks + "g.json": stackJSON("g", auto)}, "global:g"},
		{"two global", map[string]string{globStacks + "g.json": stackJSON("g", auto), globStacks + "h.json": stackJSON("h", auto)}, ""},
		{"invalid global candidate", map[string]string{globStacks + "g.json": `{"id":"g","autoActivate":true}`}, ""},
		{"shadowed global", map[string]string{projStacks + "g.json": stackJSON("g", ""), globStacks + "g.json": stackJSON("g", auto)}, ""},
		{"default.json no longer auto-activates", map[string]string{projStacks + "default.json": stackJSON("default", "")}, ""},
	}
	for _, c := range cases {
		got := ""
		if p := mustLoad(t, newWorkspace(t, c.files)).AutoActivatePreset(); p != nil {
			got = p.Key()
		}
		if got != c.want {
			t.Errorf("%s: auto-activated %q, want %q", c.name, got, c.want)
		}
	}
}

func TestUntrustedProjectIsNotLoaded(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + "p.json":     stackJSON("p", ""),
		projCaps + "c.json":       capJSON("c"),
		globStacks + "g.json":     stackJSON("g", ""),
		globCaps + "gc.json":      capJSON("gc"),
		"p/.pi/forge/config.json": `{"webEditor":{"port":0}}`,
	})
	ws.Trust = Trust{Trusted: false, Source: "test"}
	lib := mustLoad(t, ws)
	if got := summary(lib); got != "preset global:g g.json\ncapability global:gc gc.json\n" {
		t.Errorf("untrusted library:\n%s", got)
	}
	if len(lib.Notices) != 1 || lib.Notices[0] != "pi-forge: project is not trusted; project prompt stacks are disabled (global stacks remain browsable)." {
		t.Errorf("notices %q", lib.Notices)
	}
	if len(lib.Config.Warnings) != 0 || lib.Config.Port != 0 {
		t.Errorf("project config read while untrusted: %+v", lib.Config)
	}
	if _, err := lib.ResolvePreset("p"); !errors.Is(err, ErrNotFound) {
		t.Errorf("project Preset resolvable while untrusted: %v", err)
	}
}

func TestReadFaults(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + "ok.json":    stackJSON("ok", ""),
		projCaps + "ok.json":      capJSON("ok"),
		projCaps + ".hidden.json": capJSON("hidden"),
	})
	if err := os.MkdirAll(wsPath(ws, projStacks+"dir.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(wsPath(ws, projCaps+"dir.json"), 0o755); err != nil { // directories are skipped
		t.Fatal(err)
	}
	broken := wsPath(ws, projCaps+"broken.json")
	if err := os.Symlink(filepath.Join(ws.Cwd, "missing.json"), broken); err != nil {
		t.Fatal(err)
	}
	writeFile(t, wsPath(ws, projCaps+"dup1.json"), capJSON("dup"))
	writeFile(t, wsPath(ws, projCaps+"dup2.json"), capJSON("dup"))
	lib := mustLoad(t, ws)
	want := `preset project:dir dir.json
  error: Failed to read prompt stack: EISDIR: illegal operation on a directory, read
preset project:ok ok.json
capability project:broken broken.json
  error: Failed to read capability: ENOENT: no such file or directory, stat '` + broken + `'
capability project:dup dup1.json
  error: Duplicate project capability id: "dup" appears in multiple files (dup1.json, dup2.json).
capability project:dup dup2.json
  error: Duplicate project capability id: "dup" appears in multiple files (dup1.json, dup2.json).
capability project:ok ok.json
`
	if got := summary(lib); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if !lib.Presets[0].Fault || lib.Presets[0].SourceRevision != "" || lib.Presets[0].Stack == nil {
		t.Errorf("fault Preset: %+v", lib.Presets[0].Resource)
	}
	if _, err := lib.ResolveCapability("dup"); !errors.Is(err, ErrAmbiguous) ||
		err.Error() != `Ambiguous capability "project:dup": multiple definitions found.` {
		t.Errorf("dup capability: %v", err)
	}
	if c, err := lib.ResolveCapability("broken"); !errors.Is(err, ErrUnusable) || c == nil {
		t.Errorf("broken capability: %v %v", c, err)
	}
}

func TestCapabilityDirectoryFaultFailsClosed(t *testing.T) {
	// The project capabilities "directory" is a file: listing fails with
	// ENOTDIR, which is not "missing", so the catalog must fail closed.
	ws := newWorkspace(t, map[string]string{
		globCaps + "gc.json":          capJSON("gc"),
		"p/.pi/forge/capabilities":    "not a directory",
		"p/.pi/forge/prompt-stacks/x": "",
	})
	lib := mustLoad(t, ws)
	if len(lib.DirFaults) != 1 || lib.DirFaults[0].Kind != KindCapability || lib.DirFaults[0].Scope != ScopeProject {
		t.Fatalf("dir faults %v", lib.DirFaults)
	}
	if _, err := lib.ResolveCapability("global:gc"); !errors.Is(err, ErrUnusable) ||
		!strings.HasPrefix(err.Error(), "Failed to read capabilities in "+wsPath(ws, "p/.pi/forge/capabilities")+": ") {
		t.Errorf("capability resolution must fail closed on a directory fault, got %v", err)
	}
}
