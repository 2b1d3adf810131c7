package resources

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// A file whose name differs from the id inside it is listed, shown and
// resolved under that id; deleting it must remove that very file (pi-forge
// deletes the loaded filePath), not look for <id>.json.
func TestDeleteLoadedRemovesTheFileThatWasRead(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + "other-name.json":    stackJSON("renamed", ""),
		projCaps + "cap-file.json":        capJSON("cap-id"),
		projProfiles + "prof-file.json":   profileJSON("prof-id", ""),
		globStacks + "keep.json":          stackJSON("keep", ""),
		legacy + "old.json":               stackJSON("old", ""),
		projStacks + "renamed-guard.json": stackJSON("guard", ""),
	})
	lib := mustLoad(t, ws)
	p, err := lib.ResolvePreset("renamed")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteLoaded(ws, KindPreset, &p.Resource, "0000"); !errors.Is(err, ErrConflict) {
		t.Fatalf("stale revision: %v", err)
	}
	path, err := DeleteLoaded(ws, KindPreset, &p.Resource, p.SourceRevision)
	if err != nil || path != p.Path {
		t.Fatalf("delete %s: %q %v", p.Path, path, err)
	}
	if _, err := os.Stat(p.Path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the preset file is still there")
	}
	c, err := lib.ResolveCapability("cap-id")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteLoaded(ws, KindCapability, &c.Resource, c.SourceRevision); err != nil {
		t.Fatalf("capability: %v", err)
	}
	pr, err := lib.ResolveProfile("prof-id")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteLoaded(ws, KindProfile, &pr.Resource, pr.SourceRevision); err != nil {
		t.Fatalf("profile: %v", err)
	}

	// The legacy directory is read-only: refused, file untouched.
	old, err := lib.ResolvePreset("old")
	if err != nil {
		t.Fatal(err)
	}
	_, err = DeleteLoaded(ws, KindPreset, &old.Resource, old.SourceRevision)
	if !errors.Is(err, ErrRefused) || err.Error() != "Legacy prompt stacks are read-only: "+old.Path+". Run preset migrate-stacks to move them into .pi/forge/prompt-stacks." {
		t.Fatalf("legacy delete: %v", err)
	}
	if _, err := os.Stat(old.Path); err != nil {
		t.Fatal("a refused legacy delete removed the file")
	}

	// Trust still applies to project files.
	guard, _ := lib.ResolvePreset("guard")
	ws.Trust = Trust{Trusted: false, Source: "test"}
	if _, err := DeleteLoaded(ws, KindPreset, &guard.Resource, guard.SourceRevision); !errors.Is(err, ErrUntrusted) {
		t.Fatalf("untrusted delete: %v", err)
	}
}

// A loaded file reached through a symlinked storage directory is refused
// like any other mutation through a symlink.
func TestDeleteLoadedRefusesSymlinks(t *testing.T) {
	ws := newWorkspace(t, map[string]string{"p/elsewhere/x.json": stackJSON("x", "")})
	if err := os.MkdirAll(wsPath(ws, "p/.pi/forge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(wsPath(ws, "p/elsewhere"), wsPath(ws, "p/.pi/forge/prompt-stacks")); err != nil {
		t.Fatal(err)
	}
	lib := mustLoad(t, ws)
	p, err := lib.ResolvePreset("x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DeleteLoaded(ws, KindPreset, &p.Resource, p.SourceRevision); !errors.Is(err, ErrRefused) {
		t.Fatalf("delete through a symlinked directory: %v", err)
	}
	if _, err := os.Stat(wsPath(ws, "p/elsewhere/x.json")); err != nil {
		t.Fatal("the file behind the symlink was removed")
	}
}

// An id is taken in a scope when any loaded file of that scope carries it,
// whatever the file is called: creating <id>.json next to it would make
// both files duplicates and unusable.
func TestIDTakenSeesFilesNamedOtherwise(t *testing.T) {
	ws := newWorkspace(t, map[string]string{
		projStacks + "other-name.json": stackJSON("renamed", ""),
		globCaps + "cap-file.json":     capJSON("cap-id"),
		projProfiles + "pf.json":       profileJSON("prof-id", ""),
	})
	lib := mustLoad(t, ws)
	for _, c := range []struct {
		kind  Kind
		scope Scope
		id    string
		file  string
	}{
		{KindPreset, ScopeProject, "renamed", projStacks + "other-name.json"},
		{KindCapability, ScopeGlobal, "cap-id", globCaps + "cap-file.json"},
		{KindProfile, ScopeProject, "prof-id", projProfiles + "pf.json"},
	} {
		err := lib.IDTaken(c.kind, c.scope, c.id)
		if !errors.Is(err, ErrConflict) || !strings.HasSuffix(err.Error(), " already exists: "+wsPath(ws, c.file)) {
			t.Errorf("%s %s:%s: %v", c.kind, c.scope, c.id, err)
		}
	}
	if err := lib.IDTaken(KindPreset, ScopeGlobal, "renamed"); err != nil {
		t.Errorf("the id is free in the other scope: %v", err)
	}
}
