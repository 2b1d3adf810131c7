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
{"kind":"slot","id":"status","name":"Status","role":"system","slot":"system-status"},
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

// X on a custom slot's item supplies that slot's output for the preview
// (this session only, never in the draft): the preview renders it with no
// "Unsupported slot" warning, the diagnostics name it, and an empty line
// removes it again.
func TestCustomSlotValueReachesThePreview(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, extWorkspace)
	hs.openByID("project:ext")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(1) // Status: the custom slot system-status
	before := hs.m.d.Snapshot().Tree
	if strings.Contains(hs.m.preview.res.Result.System.SystemPrompt, "all systems nominal") {
		t.Fatal("the slot rendered before a value was given")
	}
	hs.Press("X")
	if got := dialogText(hs); !strings.Contains(got, "Custom slot value for the preview") || !strings.Contains(got, "system-status") {
		t.Fatalf("X on a custom slot: %q", got)
	}
	hs.Type("all systems nominal")
	hs.Press("enter")
	res := hs.m.preview.res.Result
	if !strings.Contains(res.System.SystemPrompt, "all systems nominal") {
		t.Fatalf("the preview does not render the value: %q; status %q", res.System.SystemPrompt, statusText(hs))
	}
	for _, d := range res.System.Diagnostics {
		if strings.Contains(d.Message, "Unsupported slot") {
			t.Errorf("still unsupported: %v", d)
		}
	}
	if hs.m.d.Snapshot().Tree != before || hs.m.d.Dirty() {
		t.Error("the value went into the draft")
	}
	hs.Press("!")
	if text := hs.Shown[len(hs.Shown)-1].Text; !strings.Contains(text, `custom slot system-status — project:ext: its output cannot be computed offline; preview value "all systems nominal"`) {
		t.Fatalf("the diagnostics do not name the value:\n%s", text)
	}
	// The prompt shows the value; clearing it removes it.
	hs.Press("X")
	if got := hs.m.topDialog().input.Value(); got != "all systems nominal" {
		t.Fatalf("the prompt does not show the value: %q", got)
	}
	hs.Press("ctrl+u", "enter")
	if strings.Contains(hs.m.preview.res.Result.System.SystemPrompt, "all systems nominal") || hs.m.customSlots != nil {
		t.Fatalf("the value was not removed: %v", hs.m.customSlots)
	}
}
