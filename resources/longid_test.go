package resources

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

// Ids of 235–250 characters pass the id grammar and fit the 255-byte file
// name limit as <id>.json, but the old temporary names (".<id>.json.tmp-N")
// did not: create and save failed. They work now.
func TestLongIDsThatFitAreWritable(t *testing.T) {
	ws := newWorkspace(t, nil)
	for _, n := range []int{235, 240, 250} {
		id := strings.Repeat("a", n)
		stack, diags := preset.Parse([]byte(stackJSON(id, "")), id+".json")
		if stack == nil {
			t.Fatalf("parse %d: %v", n, diags)
		}
		res, err := CreatePreset(ws, ScopeProject, stack)
		if err != nil {
			t.Fatalf("create with a %d-character id: %v", n, err)
		}
		name := "Renamed"
		stack.Name = &name
		saved, err := SavePreset(ws, ScopeProject, id, stack, res.SourceRevision)
		if err != nil {
			t.Fatalf("save with a %d-character id: %v", n, err)
		}
		if _, err := DeletePreset(ws, ScopeProject, id, saved.SourceRevision); err != nil {
			t.Fatalf("delete with a %d-character id: %v", n, err)
		}
	}
}

// An id whose file name the file system cannot hold is refused (exit 4 in
// the CLI) with a message that says so, not "outside storage or traverses a
// symbolic link".
func TestIDTooLongForTheFileSystem(t *testing.T) {
	ws := newWorkspace(t, nil)
	id := strings.Repeat("b", 251)
	stack, _ := preset.Parse([]byte(stackJSON(id, "")), id+".json")
	for _, kind := range []Kind{KindPreset, KindCapability, KindProfile} {
		err := CheckTarget(ws, kind, ScopeProject, TargetPath(ws, kind, ScopeProject, id), id)
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "id too long for this file system") ||
			strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s: %v", kind, err)
		}
	}
	_, err := CreatePreset(ws, ScopeProject, stack)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "id too long for this file system") {
		t.Errorf("create: %v", err)
	}
	if entries, _ := os.ReadDir(StorageDir(ws, KindPreset, ScopeProject)); len(entries) != 0 {
		t.Errorf("a refused create left files: %v", entries)
	}
}
