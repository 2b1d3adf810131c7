package resources

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// TestFixtureSourceRevisions loads pi-forge's example files as a library and
// checks the revisions against the ones pi-forge computed, then uses each
// as the expected revision of a guarded save.
func TestFixtureSourceRevisions(t *testing.T) {
	var vectors struct {
		SourceRevisions []struct {
			File           string `json:"file"`
			SourceRevision string `json:"sourceRevision"`
		} `json:"sourceRevisions"`
	}
	if err := json.Unmarshal(fixtures.Read(t, "pi-forge/fingerprint-vectors.json"), &vectors); err != nil {
		t.Fatal(err)
	}
	if len(vectors.SourceRevisions) == 0 {
		t.Fatal("no sourceRevisions in fingerprint-vectors.json")
	}
	ws := newWorkspace(t, nil)
	fileOf := map[string]string{}
	for _, v := range vectors.SourceRevisions {
		kind := KindPreset
		if strings.Contains(v.File, "capabilities/") {
			kind = KindCapability
		}
		raw := fixtures.Read(t, "pi-forge/"+v.File)
		// Writes address <root>/<id>.json, so store each file under its id.
		id := strings.TrimSuffix(filepath.Base(v.File), ".json")
		if kind == KindPreset {
			stack, _ := preset.Parse(raw, filepath.Base(v.File))
			id = stack.ID
		}
		writeFile(t, TargetPath(ws, kind, ScopeProject, id), string(raw))
		fileOf[v.File] = id + ".json"
	}
	lib := mustLoad(t, ws)
	byFile := map[string]*Resource{}
	for _, p := range lib.Presets {
		byFile[p.FileName()] = &p.Resource
	}
	for _, c := range lib.Capabilities {
		byFile[c.FileName()] = &c.Resource
	}
	for _, v := range vectors.SourceRevisions {
		r := byFile[fileOf[v.File]]
		if r == nil {
			t.Errorf("%s not loaded", v.File)
			continue
		}
		if r.SourceRevision != v.SourceRevision {
			t.Errorf("%s: revision %s, pi-forge %s", v.File, r.SourceRevision, v.SourceRevision)
		}
		if !r.Usable() {
			t.Errorf("%s: example has errors: %v", v.File, r.Diagnostics)
			continue
		}
		// The fixture revision is accepted as the expected revision.
		if _, err := SaveFile(ws, kindOf(lib, r), ScopeProject, r.ID, r.Raw, v.SourceRevision); err != nil {
			t.Errorf("%s: save with the fixture revision: %v", v.File, err)
		}
	}
}

func kindOf(lib *Library, r *Resource) Kind {
	for _, c := range lib.Capabilities {
		if &c.Resource == r {
			return KindCapability
		}
	}
	return KindPreset
}
