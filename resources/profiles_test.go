package resources

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/engine/profile"
)

func profileJSON(id, extra string) string {
	return `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"` + id +
		`","model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"medium","promptStack":null` + extra + `}`
}

const (
	projProfiles = "p/.pi/forge/agent-profiles/"
	globProfiles = "g/agent-profiles/"
)

func TestProfileCatalogConflicts(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projProfiles + "a.json":      profileJSON("a", `,"autoActivate":true`),
		projProfiles + "b.json":      profileJSON("b", `,"autoActivate":true`),
		projProfiles + "x.json":      profileJSON("dup", ""),
		projProfiles + "y.json":      profileJSON("dup", ""),
		projProfiles + "shadow.json": `{"id":"shadow"}`,
		globProfiles + "shadow.json": profileJSON("shadow", ""),
	})
	lib := mustLoad(t, ws)
	want := `profile project:a a.json
  error: Multiple project profiles request auto-activation (a.json, b.json); exactly one is allowed. [field autoActivate]
profile project:b b.json
  error: Multiple project profiles request auto-activation (a.json, b.json); exactly one is allowed. [field autoActivate]
`
	got := summary(lib)
	if len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("got:\n%s\nwant prefix:\n%s", got, want)
	}
	for _, p := range lib.Profiles {
		if p.ID == "dup" {
			found := false
			for _, d := range p.Diagnostics {
				found = found || d.Message == "Duplicate project profile id: dup appears in multiple files (x.json, y.json)."
			}
			if !found {
				t.Errorf("%s lacks the duplicate error: %v", p.FileName(), p.Diagnostics)
			}
		}
	}
	// An invalid project profile shadows the valid global one (fail closed).
	p, err := lib.ResolveProfile("shadow")
	if !errors.Is(err, ErrUnusable) || p == nil || p.Scope != ScopeProject {
		t.Errorf("bare shadow = %v, %v", p, err)
	}
	if p, err := lib.ResolveProfile("global:shadow"); err != nil || p.Scope != ScopeGlobal {
		t.Errorf("global:shadow = %v, %v", p, err)
	}
	if lib.AutoActivateProfile() != nil {
		t.Error("two auto-activating project profiles must not auto-activate")
	}
}

func TestProfileWrites(t *testing.T) {
	ws := newWorkspace(t, map[string]string{globProfiles + "rev.json": profileJSON("rev", "")})
	lib := mustLoad(t, ws)
	rev, err := lib.ResolveProfile("rev")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateProfile(ws, ScopeGlobal, rev.Profile); !errors.Is(err, ErrConflict) ||
		err.Error() != "Agent profile already exists: "+rev.Path {
		t.Errorf("create over existing: %v", err)
	}
	// A global profile may not point at a project Preset.
	bad := *rev.Profile
	stack := "project:worker"
	bad.PromptStack = &stack
	if _, err := SaveProfile(ws, ScopeGlobal, "rev", &bad, rev.SourceRevision); !errors.Is(err, ErrInvalid) ||
		err.Error() != "Global profile rev cannot reference project prompt stack worker." {
		t.Errorf("global profile with a project Preset: %v", err)
	}
	before := readBytes(t, rev.Path)
	if string(before) != profileJSON("rev", "") {
		t.Fatal("refused save changed the file")
	}
	forked, err := ForkProfile(ws, rev, ScopeProject, "rev2")
	if err != nil {
		t.Fatal(err)
	}
	edited := *rev.Profile
	edited.ThinkingLevel = "high"
	saved, err := SaveProfile(ws, ScopeGlobal, "rev", &edited, rev.SourceRevision)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteProfile(ws, ScopeGlobal, "rev", rev.SourceRevision); !errors.Is(err, ErrConflict) {
		t.Errorf("delete with a stale revision: %v", err)
	}
	if _, err := DeleteProfile(ws, ScopeGlobal, "rev", saved.SourceRevision); err != nil {
		t.Fatal(err)
	}
	lib = mustLoad(t, ws)
	if got := summary(lib); got != "profile project:rev2 rev2.json\n" {
		t.Errorf("library after writes:\n%s", got)
	}
	if lib.Profiles[0].SourceRevision != forked.SourceRevision {
		t.Error("fork revision differs from the file")
	}
}

// TestProfileWritesRefuseASecondAutoActivation: creating or saving a
// profile that requests auto-activation while another profile of the
// scope does is refused (ErrInvalid) and writes nothing; the other scope
// and the profile that already auto-activates stay writable. The refusal
// is pi-forge's editor's, word for word (src/web-host.ts,
// autoActivateConflictError, MacroSony/pi-forge 078a994 and later).
func TestProfileWritesRefuseASecondAutoActivation(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projProfiles + "a.json": profileJSON("a", `,"autoActivate":true`),
		projProfiles + "b.json": profileJSON("b", ""),
	})
	lib := mustLoad(t, ws)
	auto := true
	second, _ := profile.Parse([]byte(profileJSON("c", `,"autoActivate":true`)), "c.json", ScopeProject)
	_, err := CreateProfile(ws, ScopeProject, second)
	if !errors.Is(err, ErrInvalid) || err.Error() != "Multiple project profiles request auto-activation; exactly one is allowed (already requested by a)." {
		t.Fatalf("create: %v", err)
	}
	if _, statErr := os.Stat(filepath.Join(ws.Cwd, ".pi", "forge", "agent-profiles", "c.json")); statErr == nil {
		t.Fatal("a refused create wrote the file")
	}
	var b *Profile
	for _, p := range lib.Profiles {
		if p.ID == "b" {
			b = p
		}
	}
	changed := *b.Profile
	changed.AutoActivate = &auto
	if _, err := SaveProfile(ws, ScopeProject, "b", &changed, b.SourceRevision); !errors.Is(err, ErrInvalid) ||
		err.Error() != "Multiple project profiles request auto-activation; exactly one is allowed (already requested by a)." {
		t.Fatalf("save: %v", err)
	}
	// The one that auto-activates may be saved again, and a global one may
	// auto-activate beside it.
	var a *Profile
	for _, p := range lib.Profiles {
		if p.ID == "a" {
			a = p
		}
	}
	if _, err := SaveProfile(ws, ScopeProject, "a", a.Profile, a.SourceRevision); err != nil {
		t.Fatalf("resave a: %v", err)
	}
	if _, err := CreateProfile(ws, ScopeGlobal, second); err != nil {
		t.Fatalf("global: %v", err)
	}
}
