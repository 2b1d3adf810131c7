package resources

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/resources/demo"
)

// demoWorkspace unpacks the demo and returns a trusted workspace over it.
func demoWorkspace(t testing.TB) Workspace {
	t.Helper()
	l, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return Workspace{Cwd: l.ProjectDir, AgentDir: l.AgentDir, ForgeDir: l.ForgeDir, Trust: Trust{Trusted: true, Source: "test"}}
}

func mustLoad(t testing.TB, ws Workspace) *Library {
	t.Helper()
	lib, err := LoadLibraryWith(ws, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// summary renders every resource as "kind scope:id file: level message" lines.
func summary(lib *Library) string {
	var b strings.Builder
	line := func(kind string, r *Resource) {
		fmt.Fprintf(&b, "%s %s %s", kind, r.Key(), r.FileName())
		if r.Legacy {
			b.WriteString(" legacy")
		}
		b.WriteString("\n")
		for _, d := range r.Diagnostics {
			fmt.Fprintf(&b, "  %s: %s", d.Level, d.Message)
			if d.ItemID != "" {
				fmt.Fprintf(&b, " [item %s]", d.ItemID)
			}
			if d.Field != "" {
				fmt.Fprintf(&b, " [field %s]", d.Field)
			}
			b.WriteString("\n")
		}
	}
	for _, p := range lib.Presets {
		line("preset", &p.Resource)
	}
	for _, c := range lib.Capabilities {
		line("capability", &c.Resource)
	}
	for _, p := range lib.Profiles {
		line("profile", &p.Resource)
	}
	return b.String()
}

func TestDemoWorkspaceLoads(t *testing.T) {
	ws := demoWorkspace(t)
	lib := mustLoad(t, ws)
	want := `preset project:broken-on-purpose broken-on-purpose.json
  error: Duplicate item id: intro [item intro]
preset project:guarded-worker guarded-worker.json
preset project:pi-mirror pi-mirror.json
preset global:quick-review quick-review.json
capability project:review-mode review-mode.json
capability project:test-runner test-runner.json
capability project:write-access write-access.json
capability global:plain-english plain-english.json
profile project:deep-review deep-review.json
profile project:tdd-worker tdd-worker.json
`
	if got := summary(lib); got != want {
		t.Errorf("demo library:\n%s\nwant:\n%s", got, want)
	}
	if len(lib.Notices) != 0 || len(lib.DirFaults) != 0 || len(lib.Config.Warnings) != 0 {
		t.Errorf("unexpected notices %q, dir faults %v, config warnings %q", lib.Notices, lib.DirFaults, lib.Config.Warnings)
	}
	// Every revision is the sha256 of the bytes on disk, and Raw is those bytes.
	check := func(r *Resource) {
		disk, err := os.ReadFile(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(disk)
		if r.SourceRevision != hex.EncodeToString(sum[:]) || !bytes.Equal(r.Raw, disk) {
			t.Errorf("%s: revision %s / raw mismatch", r.Path, r.SourceRevision)
		}
	}
	for _, p := range lib.Presets {
		check(&p.Resource)
	}
	for _, c := range lib.Capabilities {
		check(&c.Resource)
	}
	for _, p := range lib.Profiles {
		check(&p.Resource)
	}
	if p := lib.AutoActivatePreset(); p == nil || p.Key() != "project:pi-mirror" {
		t.Errorf("auto-activated Preset = %v, want project:pi-mirror", p)
	}
}

func TestDemoResolution(t *testing.T) {
	lib := mustLoad(t, demoWorkspace(t))
	cases := []struct {
		sel, wantKey string
		wantErr      error
		wantMsg      string
	}{
		{"pi-mirror", "project:pi-mirror", nil, ""},
		{" quick-review ", "global:quick-review", nil, ""},
		{"global:quick-review", "global:quick-review", nil, ""},
		{"project:quick-review", "", ErrNotFound, "Unknown prompt stack: project:quick-review"},
		{"nope", "", ErrNotFound, "Unknown prompt stack: nope"},
		{"broken-on-purpose", "project:broken-on-purpose", ErrUnusable, "Prompt stack project:broken-on-purpose has errors: Duplicate item id: intro"},
		{"", "", ErrInvalidSelector, "Resource selector must not be empty."},
		{"team:x", "", ErrInvalidSelector, `Unknown scope prefix: team. Expected "project" or "global".`},
		{"project:-x", "", ErrInvalidSelector, "Invalid resource id: -x. Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."},
	}
	for _, c := range cases {
		p, err := lib.ResolvePreset(c.sel)
		gotKey := ""
		if p != nil {
			gotKey = p.Key()
		}
		if gotKey != c.wantKey || !errors.Is(err, c.wantErr) || (err != nil && err.Error() != c.wantMsg) {
			t.Errorf("ResolvePreset(%q) = %q, %v; want %q, %v %q", c.sel, gotKey, err, c.wantKey, c.wantErr, c.wantMsg)
		}
	}
	capCases := []struct {
		sel, wantKey string
		wantErr      error
		wantMsg      string
	}{
		{"plain-english", "global:plain-english", nil, ""},
		{"write-access", "project:write-access", nil, ""},
		{"global:write-access", "", ErrNotFound, `Capability capability "global:write-access" not found.`},
		{"team:x", "", ErrInvalidSelector, `Unknown scope prefix: team. Expected "project" or "global".`},
	}
	for _, c := range capCases {
		got, err := lib.ResolveCapability(c.sel)
		gotKey := ""
		if got != nil {
			gotKey = got.Key()
		}
		if gotKey != c.wantKey || !errors.Is(err, c.wantErr) || (err != nil && err.Error() != c.wantMsg) {
			t.Errorf("ResolveCapability(%q) = %q, %v; want %q, %v %q", c.sel, gotKey, err, c.wantKey, c.wantErr, c.wantMsg)
		}
	}
	for sel, wantPreset := range map[string]string{"tdd-worker": "project:guarded-worker", "project:deep-review": "global:quick-review"} {
		prof, err := lib.ResolveProfile(sel)
		if err != nil {
			t.Fatalf("ResolveProfile(%q): %v", sel, err)
		}
		if ps, diags := lib.ResolveProfilePreset(prof); ps == nil || ps.Key() != wantPreset || len(diags) != 0 {
			t.Errorf("profile %s Preset = %v %v, want %s", sel, ps, diags, wantPreset)
		}
	}
	if a := lib.AutoActivateProfile(); a == nil || a.Key() != "project:tdd-worker" {
		t.Errorf("auto-activated profile = %v", a)
	}
	for sel, want := range map[string]string{
		"global:tdd-worker": "Unknown agent profile: global:tdd-worker",
		"team:x":            `Unknown scope prefix: team. Expected "project" or "global".`,
	} {
		if _, err := lib.ResolveProfile(sel); err == nil || err.Error() != want {
			t.Errorf("ResolveProfile(%q) = %v, want %s", sel, err, want)
		}
	}
	guarded, _ := lib.ResolvePreset("guarded-worker")
	if res := lib.ResolvePresetCapabilities(guarded); res.Error != "" || len(res.Bindings) != 2 {
		t.Errorf("guarded-worker bindings: error %q, %d bindings", res.Error, len(res.Bindings))
	}
}
