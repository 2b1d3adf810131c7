package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ext is a Preset that needs an extension: a custom slot and an
// extension macro.
const extPreset = `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"ext","name":"Ext","mode":"replace","items":[
{"kind":"block","id":"greet","name":"Greet","role":"system","content":"Say: {{ extensions.greeting }}"},
{"kind":"slot","id":"status","name":"Status","slot":"system-status"},
{"kind":"slot","id":"history","name":"Conversation","slot":"chat-history"}]}`

func extWorkspace(t testing.TB, cwd string) {
	dir := filepath.Join(cwd, ".pi", "forge")
	if err := os.WriteFile(filepath.Join(dir, "prompt-stacks", "ext.json"), []byte(extPreset), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "extensions", "status.ts"), []byte("export default function register() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ! gathers every diagnostic of the workspace with what only extension
// modules compute, saying it cannot be computed offline.
func TestWorkspaceDiagnosticsGatherEverything(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, extWorkspace)
	hs.Press("!")
	if len(hs.Shown) != 1 {
		t.Fatalf("nothing shown; status %q", statusText(hs))
	}
	text := hs.Shown[0].Text
	for _, want := range []string{
		"project:beta (beta.json)", // a Preset with errors
		"Agent profiles (",
		"Capabilities (",
		filepath.Join(".pi", "forge", "extensions", "status.ts"),
		"custom slot system-status — project:ext: its output cannot be computed offline",
		"extension macro extensions.greeting — project:ext: its output cannot be computed offline; no preview value",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the diagnostics do not say %q:\n%s", want, text)
		}
	}
	if !strings.Contains(strings.SplitN(text, "\n", 2)[0], "error(s)") {
		t.Errorf("no summary line: %q", strings.SplitN(text, "\n", 2)[0])
	}
}

// X supplies an extension macro's value: the preview renders it, and the
// diagnostics name it.
func TestMacroValueReachesThePreview(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, extWorkspace)
	hs.openByID("project:ext")
	if strings.Contains(hs.m.preview.res.Result.System.SystemPrompt, "Say: Hello there") {
		t.Fatal("the macro rendered before a value was given")
	}
	hs.Press("X")
	hs.Type("greeting=Hello there")
	hs.Press("enter")
	if got := hs.m.preview.res.Result.System.SystemPrompt; !strings.Contains(got, "Say: Hello there") {
		t.Fatalf("the preview does not render the value: %q; status %q", got, statusText(hs))
	}
	hs.Press("!")
	if text := hs.Shown[len(hs.Shown)-1].Text; !strings.Contains(text, `preview value "Hello there"`) {
		t.Fatalf("the diagnostics do not name the value:\n%s", text)
	}
}
