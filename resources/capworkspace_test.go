package resources

import (
	"testing"
)

// The capability workspace carries trust, every Preset with its resolved
// bindings and first error, the auto-activated Preset and a directory
// fault that fails resolution closed.
func TestCapabilityWorkspace(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		globCaps + "g.json": capJSON("g"),
		globStacks + "s.json": `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"s","autoActivate":true,` +
			`"capabilities":[{"ref":"global:g","modelCallable":true}],"items":[{"kind":"slot","id":"history","slot":"chat-history"}]}`,
		globStacks + "bad.json": `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"bad","items":"x"}`,
	})
	lib := mustLoad(t, ws)
	cw := lib.CapabilityWorkspace()
	if cw.Trusted != lib.Workspace.Trust.Trusted || len(cw.Presets) != 2 || cw.CatalogError != "" {
		t.Fatalf("workspace %+v", cw)
	}
	if cw.AutoActivate == nil || cw.AutoActivate.Key.String() != "global:s" {
		t.Fatalf("auto-activation %+v", cw.AutoActivate)
	}
	s, msg := cw.ResolvePreset("s")
	if msg != "" || s.Bindings.Error != "" || len(s.Bindings.Bindings) != 1 || !s.Bindings.Bindings[0].Usable() {
		t.Fatalf("bindings %q %+v", msg, s)
	}
	if _, msg := cw.ResolvePreset("global:bad"); msg == "" {
		t.Error("an invalid Preset resolved")
	}
	if entry, msg := cw.ResolveCapability("g"); msg != "" || entry.Capability.ID != "g" {
		t.Errorf("capability %q", msg)
	}
}
