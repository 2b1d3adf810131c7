package resources

import (
	"errors"
	"strings"
	"testing"
)

// A capability directory that exists but cannot be listed aborts pi-forge's
// whole capability read (§9.2): binding resolution must fail closed too,
// not resolve against the scopes that happened to load.
func TestCapabilityDirFaultFailsBindingsClosed(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		globCaps + "g.json": capJSON("g"),
		globStacks + "s.json": `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"s",` +
			`"capabilities":[{"ref":"global:g"}],"items":[{"kind":"slot","id":"history","slot":"chat-history"}]}`,
		"p/.pi/forge/capabilities": "not a directory",
	})
	lib := mustLoad(t, ws)
	if len(lib.DirFaults) != 1 {
		t.Fatalf("dir faults: %+v", lib.DirFaults)
	}
	p, err := lib.ResolvePreset("global:s")
	if err != nil {
		t.Fatal(err)
	}
	res := lib.ResolvePresetCapabilities(p)
	if res.Error == "" || !strings.HasPrefix(res.Error, "Failed to read capabilities in ") {
		t.Fatalf("bindings resolved despite the unreadable directory: %+v", res)
	}
	for _, b := range res.Bindings {
		if b.Usable() || b.Effective != nil {
			t.Fatalf("binding %d usable: %+v", b.Index, b)
		}
	}
	c, err := lib.ResolveCapability("global:g")
	if !errors.Is(err, ErrUnusable) || c != nil {
		t.Fatalf("resolve: %v %v", c, err)
	}
}
