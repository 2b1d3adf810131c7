package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// w writes the edited draft, unsaved edits included, to a new file whose
// name is the new id, leaves the open Preset's file alone, and never
// replaces an existing file.
func TestExportWritesTheDraftUnderANewID(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	original, _ := os.ReadFile(hs.m.open.Path)
	hs.Press("space") // an unsaved edit: the first item disabled
	hs.Press("w")
	hs.answerPrompt("alpha-v2.json")
	path := filepath.Join(hs.com.Workspace.Cwd, "alpha-v2.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("nothing exported (%v); status %q", err, statusText(hs))
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*jsonv.Object)
	id, _ := o.Get("id")
	items, _ := o.Get("items")
	list, _ := items.([]any)
	var enabled any = "missing"
	if len(list) > 0 {
		enabled, _ = list[0].(*jsonv.Object).Get("enabled")
	}
	if id != "alpha-v2" || enabled != false {
		t.Fatalf("the export is not the edited draft under the new id:\n%s", data)
	}
	if now, _ := os.ReadFile(hs.m.open.Path); string(now) != string(original) {
		t.Fatal("export changed the open Preset's file")
	}
	if !hs.m.d.Dirty() {
		t.Fatal("export marked the draft saved")
	}
	os.WriteFile(path, []byte("mine\n"), 0o644)
	hs.Press("w")
	hs.answerPrompt("alpha-v2.json")
	if data, _ := os.ReadFile(path); string(data) != "mine\n" || !strings.Contains(statusText(hs), "exists already") {
		t.Fatalf("an existing file was replaced or the status does not say so: %q", statusText(hs))
	}
}

// w with - shows the draft as preset show --json prints it.
func TestExportShowsTheDraftAsPresetShowJSON(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.Press("space", "w")
	hs.answerPrompt("-")
	if len(hs.Shown) != 1 {
		t.Fatalf("nothing shown whole; status %q", statusText(hs))
	}
	v, err := jsonv.Parse([]byte(hs.Shown[0].Text))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*jsonv.Object)
	for _, k := range []string{"scope", "id", "key", "path", "sourceRevision", "errors", "warnings", "usable", "stack", "diagnostics"} {
		if _, ok := o.Get(k); !ok {
			t.Errorf("no %q in %s", k, hs.Shown[0].Text)
		}
	}
	if key, _ := o.Get("key"); key != "project:alpha" {
		t.Fatalf("key %v", key)
	}
}
