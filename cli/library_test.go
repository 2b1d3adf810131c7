package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/resources/demo"
)

// demoArgs unpacks the demo workspace and returns the global flags that
// point every command at it.
func demoArgs(t *testing.T) ([]string, demo.Layout) {
	t.Helper()
	layout, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--cwd", layout.ProjectDir, "--agent-dir", layout.AgentDir, "--forge-dir", layout.ForgeDir}, layout
}

func in(args []string, more ...string) []string { return append(append([]string{}, args...), more...) }

func TestPresetListShowValidate(t *testing.T) {
	args, layout := demoArgs(t)
	code, out, errOut := runCLI(t, in(args, "preset", "list", "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []struct {
		Key          string `json:"key"`
		Errors       int    `json:"errors"`
		AutoActivate bool   `json:"autoActivate"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 4 {
		t.Fatalf("%v %s", err, out)
	}
	byKey := map[string]int{}
	auto := ""
	for _, p := range list {
		byKey[p.Key] = p.Errors
		if p.AutoActivate {
			auto += p.Key
		}
	}
	// The demo's auto-activating profile tdd-worker beats pi-mirror's own
	// autoActivate: a fresh session gets the profile's Preset.
	if auto != "project:guarded-worker" {
		t.Fatalf("auto-activated preset %q, want project:guarded-worker", auto)
	}
	if byKey["project:broken-on-purpose"] != 1 || byKey["project:pi-mirror"] != 0 || byKey["global:quick-review"] != 0 {
		t.Fatalf("errors by preset: %v", byKey)
	}
	if code, _, _ := runCLI(t, in(args, "preset", "validate", "--all")...); code != exitFailed {
		t.Fatalf("validate with the deliberate error: exit %d, want 1", code)
	}
	if code, out, _ := runCLI(t, in(args, "preset", "validate", "pi-mirror", "global:quick-review")...); code != exitOK {
		t.Fatalf("validate of clean presets: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, in(args, "preset", "show", "pi-mirror", "--json")...)
	var shown struct {
		SourceRevision string         `json:"sourceRevision"`
		Stack          map[string]any `json:"stack"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &shown) != nil {
		t.Fatalf("show: exit %d %s", code, out)
	}
	raw, _ := os.ReadFile(filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks/pi-mirror.json"))
	sum := sha256.Sum256(raw)
	if shown.SourceRevision != hex.EncodeToString(sum[:]) || shown.Stack["id"] != "pi-mirror" {
		t.Fatalf("sourceRevision must be the sha256 of the file bytes: %s", shown.SourceRevision)
	}
	if code, _, errOut := runCLI(t, in(args, "preset", "show", "nope:x")...); code != exitUsage || !strings.Contains(errOut, `Unknown scope prefix: nope. Expected "project" or "global".`) {
		t.Fatalf("bad selector: exit %d %q", code, errOut)
	}
}

func TestPresetWritesAreGuarded(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks/guarded-worker.json")
	before, _ := os.ReadFile(file)
	if code, _, _ := runCLI(t, in(args, "preset", "delete", "guarded-worker", "--revision", strings.Repeat("0", 64))...); code != exitConflict {
		t.Fatalf("stale revision: exit %d, want %d", code, exitConflict)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Fatal("a refused delete changed the file")
	}
	code, out, errOut := runCLI(t, in(args, "preset", "new", "scratch", "--json")...)
	if code != exitOK || !strings.Contains(out, `"sourceRevision"`) {
		t.Fatalf("new: exit %d %s %s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, in(args, "preset", "new", "scratch")...); code != exitConflict {
		t.Fatalf("creating an existing id: exit %d, want %d", code, exitConflict)
	}
	if code, _, _ := runCLI(t, in(args, "preset", "validate", "scratch")...); code != exitOK {
		t.Fatal("a new preset from the default mirror must validate")
	}
	if code, _, errOut := runCLI(t, in(args, "preset", "fork", "global:quick-review", "local-review", "--scope", "project")...); code != exitOK {
		t.Fatalf("fork: exit %d %s", code, errOut)
	}
	sum := sha256.Sum256(before)
	if code, _, errOut := runCLI(t, in(args, "preset", "delete", "guarded-worker", "--revision", hex.EncodeToString(sum[:]))...); code != exitOK {
		t.Fatalf("delete with the right revision: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatal("the preset file is still there")
	}
	untrusted := in(args, "--no-trust")
	code, out, errOut = runCLI(t, in(untrusted, "preset", "list")...)
	if code != exitOK || strings.Contains(out, "project") || !strings.Contains(errOut, "project is not trusted") {
		t.Fatalf("untrusted list must hide project presets and say why: %s / %s", out, errOut)
	}
	if code, _, _ := runCLI(t, in(untrusted, "preset", "new", "nope")...); code != exitRefused {
		t.Fatalf("untrusted write: exit %d, want %d", code, exitRefused)
	}
}

func TestCapabilityAndProfileCommands(t *testing.T) {
	args, _ := demoArgs(t)
	if code, out, _ := runCLI(t, in(args, "capability", "list")...); code != exitOK || !strings.Contains(out, "test-runner") {
		t.Fatalf("capability list: %d %s", code, out)
	}
	if code, _, _ := runCLI(t, in(args, "capability", "validate")...); code != exitOK {
		t.Fatal("the demo capabilities are clean")
	}
	code, out, _ := runCLI(t, in(args, "capability", "bindings", "guarded-worker", "--json")...)
	var b struct {
		Error    string `json:"error"`
		Bindings []struct {
			ID        string         `json:"id"`
			Source    map[string]any `json:"source"`
			Effective map[string]any `json:"effective"`
		} `json:"bindings"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &b) != nil || len(b.Bindings) != 2 || b.Error != "" {
		t.Fatalf("bindings: %d %s", code, out)
	}
	if b.Bindings[1].Source["content"] == b.Bindings[1].Effective["content"] {
		t.Fatal("the review binding's appendContent override must show in the effective capability")
	}
	if code, _, errOut := runCLI(t, in(args, "capability", "new", "lint", "--content", "Run the linter.", "--add", "bash")...); code != exitOK {
		t.Fatalf("capability new: %d %s", code, errOut)
	}
	if code, _, _ := runCLI(t, in(args, "capability", "new", "bad", "--add", "two words")...); code != exitFailed {
		t.Fatal("an invalid tool name must be refused before writing")
	}
	code, out, _ = runCLI(t, in(args, "profile", "preview", "tdd-worker", "--json")...)
	var pv struct {
		ModelKnown bool `json:"modelKnown"`
		Auth       struct {
			Configured bool `json:"configured"`
		} `json:"auth"`
		Preset string `json:"preset"`
	}
	if json.Unmarshal([]byte(out), &pv) != nil || !pv.ModelKnown || pv.Preset != "project:guarded-worker" {
		t.Fatalf("profile preview: %s", out)
	}
	if !pv.Auth.Configured && code != exitFailed {
		t.Fatalf("a model without credentials cannot be applied: exit %d", code)
	}
	if strings.Contains(out, "sk-") {
		t.Fatal("secrets must never be printed")
	}
	if code, _, _ := runCLI(t, in(args, "profile", "validate")...); code != exitOK {
		t.Fatal("the demo profiles are clean")
	}
}

func TestPresetCompileBySelectorAndFingerprint(t *testing.T) {
	args, _ := demoArgs(t)
	code, out, errOut := runCLI(t, in(args, "preset", "compile", "pi-mirror", "--json")...)
	if code != exitOK || !strings.Contains(out, `"systemPrompt"`) {
		t.Fatalf("compile by selector: %d %s", code, errOut)
	}
	f := filepath.Join(t.TempDir(), "v.json")
	os.WriteFile(f, []byte(`{"b":1,"a":[true,null]}`), 0o644)
	code, out, _ = runCLI(t, "fingerprint", f, "--canonical")
	if code != exitOK || !strings.HasPrefix(out, `{"a":[true,null],"b":1}`+"\n"+"sha256:v1:") {
		t.Fatalf("fingerprint: %q", out)
	}
}

func TestMigrateStacksDryRun(t *testing.T) {
	args, layout := demoArgs(t)
	legacy := filepath.Join(layout.ProjectDir, ".pi", "prompt-stacks")
	os.MkdirAll(legacy, 0o755)
	os.WriteFile(filepath.Join(legacy, "old.json"), []byte(`{"id":"old","items":[]}`), 0o644)
	code, out, errOut := runCLI(t, in(args, "preset", "migrate-stacks", "--dry-run", "--json")...)
	if code != exitOK || !strings.Contains(out, `"old.json"`) || !strings.Contains(out, `"copied": 1`) || !strings.Contains(out, `"targetPath": "`+filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks/old.json")+`"`) {
		t.Fatalf("dry run: %d %s %s", code, out, errOut)
	}
	// An untrusted project still gets its dry run; the migration itself is refused.
	if code, out, errOut := runCLI(t, in(args, "--no-trust", "preset", "migrate-stacks", "--dry-run")...); code != exitOK || !strings.Contains(out, "copy: old.json") {
		t.Fatalf("untrusted dry run: %d %s %s", code, out, errOut)
	}
	if code, _, _ := runCLI(t, in(args, "--no-trust", "preset", "migrate-stacks")...); code != exitRefused {
		t.Fatalf("untrusted migration: exit %d, want %d", code, exitRefused)
	}
	if _, err := os.Stat(filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks/old.json")); !os.IsNotExist(err) {
		t.Fatal("a dry run must not write")
	}
}

func revisionOf(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// A preset whose file name differs from its id is deleted by the file that
// was shown; a legacy preset is read-only (exit 4) and stays.
func TestDeleteTargetsTheLoadedFile(t *testing.T) {
	args, layout := demoArgs(t)
	dir := filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks")
	raw, _ := os.ReadFile(filepath.Join(dir, "guarded-worker.json"))
	other := filepath.Join(dir, "other-name.json")
	os.WriteFile(other, []byte(strings.Replace(string(raw), `"id": "guarded-worker"`, `"id": "renamed"`, 1)), 0o644)
	code, out, errOut := runCLI(t, in(args, "preset", "delete", "renamed", "--revision", revisionOf(t, other), "--json")...)
	if code != exitOK || !strings.Contains(out, `"deleted": true`) || !strings.Contains(out, "other-name.json") {
		t.Fatalf("delete of a renamed file: exit %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Fatal("the renamed preset file is still there")
	}
	legacyFile := filepath.Join(layout.ProjectDir, ".pi/prompt-stacks/old.json")
	os.MkdirAll(filepath.Dir(legacyFile), 0o755)
	os.WriteFile(legacyFile, []byte(`{"id":"old","items":[]}`), 0o644)
	code, _, errOut = runCLI(t, in(args, "preset", "delete", "old", "--revision", revisionOf(t, legacyFile))...)
	if code != exitRefused || !strings.Contains(errOut, "read-only") {
		t.Fatalf("legacy delete: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(legacyFile); err != nil {
		t.Fatal("a refused legacy delete removed the file")
	}
	capFile := filepath.Join(layout.ProjectDir, ".pi/forge/capabilities/cap-file.json")
	os.WriteFile(capFile, []byte(`{"schemaVersion":1,"type":"pi-forge.capability","id":"cap-id","content":"x"}`), 0o644)
	if code, _, errOut := runCLI(t, in(args, "capability", "delete", "cap-id", "--revision", revisionOf(t, capFile))...); code != exitOK {
		t.Fatalf("capability delete of a renamed file: exit %d %s", code, errOut)
	}
}

// A new id that is not a resource id is a usage error (exit 2) with the
// selector wording, for every command that creates a file.
func TestInvalidNewIDIsAUsageError(t *testing.T) {
	args, _ := demoArgs(t)
	want := "Invalid resource id: ../evil. Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."
	for _, cmd := range [][]string{
		{"preset", "new", "../evil"},
		{"preset", "fork", "pi-mirror", "../evil"},
		{"capability", "new", "../evil", "--content", "x"},
	} {
		code, _, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("%v: exit %d %q", cmd, code, errOut)
		}
	}
}

// An unlistable capability directory makes capability commands fail closed
// with exit 1 — never a crash, never a resolution from the other scope.
func TestCapabilityDirectoryFaultFailsClosed(t *testing.T) {
	args, layout := demoArgs(t)
	dir := filepath.Join(layout.ProjectDir, ".pi/forge/capabilities")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dir, []byte("not a directory"), 0o644)
	for _, cmd := range [][]string{
		{"capability", "show", "plain-english"},
		{"capability", "validate", "plain-english"},
		{"capability", "validate"},
		{"capability", "delete", "plain-english", "--revision", strings.Repeat("0", 64)},
		{"capability", "bindings", "global:quick-review"},
	} {
		code, _, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitFailed || !strings.Contains(errOut, "Failed to read capabilities in "+dir) {
			t.Errorf("%v: exit %d %q", cmd, code, errOut)
		}
	}
}

// Creating an id that a file of another name already holds in that scope
// is a conflict (exit 3), not a second file that makes both duplicates.
func TestCreateRefusesAnIDHeldByAnotherFile(t *testing.T) {
	args, layout := demoArgs(t)
	dir := filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks")
	raw, _ := os.ReadFile(filepath.Join(dir, "guarded-worker.json"))
	os.WriteFile(filepath.Join(dir, "other-name.json"), []byte(strings.Replace(string(raw), `"id": "guarded-worker"`, `"id": "renamed"`, 1)), 0o644)
	capDir := filepath.Join(layout.ProjectDir, ".pi/forge/capabilities")
	os.WriteFile(filepath.Join(capDir, "cap-file.json"), []byte(`{"schemaVersion":1,"type":"pi-forge.capability","id":"cap-id","content":"x"}`), 0o644)
	for _, cmd := range [][]string{
		{"preset", "new", "renamed"},
		{"preset", "fork", "pi-mirror", "renamed"},
		{"capability", "new", "cap-id", "--content", "y"},
	} {
		code, _, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitConflict || !strings.Contains(errOut, "already exists") {
			t.Errorf("%v: exit %d %q", cmd, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "renamed.json")); err == nil {
		t.Error("a second file with the taken id was written")
	}
}

// Deleting a project resource of an untrusted project is refused (exit 4),
// not reported as an unknown id because project files are not loaded.
func TestUntrustedProjectDeleteIsRefused(t *testing.T) {
	args, _ := demoArgs(t)
	untrusted := in(args, "--no-trust")
	for _, cmd := range [][]string{
		{"preset", "delete", "pi-mirror", "--revision", strings.Repeat("0", 64)},
		{"preset", "delete", "project:pi-mirror", "--revision", strings.Repeat("0", 64)},
		{"capability", "delete", "review-mode", "--revision", strings.Repeat("0", 64)},
		{"profile", "delete", "tdd-worker", "--revision", strings.Repeat("0", 64)},
	} {
		code, _, errOut := runCLI(t, in(untrusted, cmd...)...)
		if code != exitRefused || !strings.Contains(errOut, "not trusted") {
			t.Errorf("%v: exit %d %q", cmd, code, errOut)
		}
	}
	if code, _, _ := runCLI(t, in(untrusted, "preset", "delete", "global:nope", "--revision", strings.Repeat("0", 64))...); code != exitUsage {
		t.Errorf("an unknown global id stays a usage error: exit %d", code)
	}
}

// A --revision that is not a sha256 hex digest cannot be a revision anyone
// saw: a usage error (exit 2, pi-forge's wording), never a conflict.
func TestMalformedRevisionIsAUsageError(t *testing.T) {
	args, _ := demoArgs(t)
	for _, cmd := range [][]string{
		{"preset", "delete", "pi-mirror", "--revision", "abc"},
		{"capability", "delete", "review-mode", "--revision", strings.Repeat("A", 64)},
		{"profile", "delete", "tdd-worker", "--revision", ""},
	} {
		code, _, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitUsage || !strings.Contains(errOut, "A valid expectedSourceRevision is required.") {
			t.Errorf("%v: exit %d %q", cmd, code, errOut)
		}
	}
}

// TestHostileFileTextNeverReachesTheTerminal: names, item text and
// diagnostics from a Preset file pass through engine/sanitize in the human
// output; --json keeps the bytes exact.
func TestHostileFileTextNeverReachesTheTerminal(t *testing.T) {
	args, layout := demoArgs(t)
	hostile := `{"schemaVersion":2,"id":"evil","name":"Evil \u001b]52;c;aGk=\u0007name \u001b[2J",
 "items":[{"kind":"block","id":"b1","role":"system","content":"line \u001b[31mred\u001b[0m\r over \u202eevil"},
  {"kind":"block","id":"b1","role":"system","content":"dup \u001b]0;title\u0007"}]}`
	if err := os.WriteFile(filepath.Join(layout.ProjectDir, ".pi/forge/prompt-stacks/evil.json"), []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"preset", "list"}, {"preset", "show", "evil"}, {"preset", "validate", "evil"},
		{"preset", "compile", "evil"}, {"preset", "preview", "evil"},
	} {
		_, out, errOut := runCLI(t, in(args, cmd...)...)
		for _, stream := range []string{out, errOut} {
			if strings.ContainsAny(stream, "\x1b\r\a\u202e") {
				t.Errorf("%v: a control sequence reached the terminal: %q", cmd, stream)
			}
		}
	}
	_, out, _ := runCLI(t, in(args, "preset", "show", "evil", "--json")...)
	if !strings.Contains(out, `\u001b]52;c;aGk=\u0007`) {
		t.Errorf("--json must keep the name exactly: %s", out)
	}
}

// TestPresetListMarksTheSessionsActivePreset: --session/--leaf decode the
// branch's pi-forge-prompt-stack-state entries (replay.ActivePresetAt).
func TestPresetListMarksTheSessionsActivePreset(t *testing.T) {
	args, layout := demoArgs(t)
	files, _ := filepath.Glob(filepath.Join(layout.SessionDir, "2026-11-27T16-02-41-907Z_*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("demo session missing: %v", files)
	}
	code, out, errOut := runCLI(t, in(args, "preset", "list", "--session", files[0], "--leaf", "1b6c7e21")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	marked := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "▶ ") {
			marked++
			if !strings.Contains(line, " pi-mirror ") {
				t.Errorf("marked %q, want pi-mirror", line)
			}
		}
	}
	if marked != 1 || !strings.Contains(out, "active Preset project:pi-mirror") {
		t.Fatalf("one ▶ row and the selection line expected:\n%s", out)
	}
	// At the leaf the session switched Presets off.
	code, out, _ = runCLI(t, in(args, "preset", "list", "--json", "--session", files[0])...)
	var list []struct {
		Key    string `json:"key"`
		Active *bool  `json:"active"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) == 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, p := range list {
		if p.Active == nil || *p.Active {
			t.Errorf("%s: active = %v, want false everywhere (none)", p.Key, p.Active)
		}
	}
	if code, _, _ := runCLI(t, in(args, "preset", "list", "--leaf", "x")...); code != exitUsage {
		t.Errorf("--leaf without --session: exit %d, want %d", code, exitUsage)
	}
}
