package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

const bindsProject = `{"schemaVersion":2,"id":"binder","items":[{"kind":"block","id":"a","role":"system","content":"x"}],
 "capabilities":[{"ref":"project:write-access"}]}`

// A fork that would not validate where it goes (a global copy binding a
// project capability) is refused, nothing written, as preset fork refuses
// it: pi-forge would never activate the copy.
func TestForkThatWouldNotValidateInItsScopeIsRefused(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeStack("binder", bindsProject))
	hs.openByID("project:binder")
	hs.Press("S", "tab")
	if hs.m.topDialog() == nil || hs.m.topDialog().scope != preset.ScopeGlobal {
		t.Fatal("tab does not switch the fork to the global scope")
	}
	hs.answerPrompt("binder-global")
	if _, err := os.Stat(filepath.Join(hs.com.Workspace.ForgeDir, "prompt-stacks", "binder-global.json")); err == nil {
		t.Fatalf("the invalid global copy was written; status %q", statusText(hs))
	}
	if s := statusText(hs); !strings.Contains(s, "would not validate") || !strings.Contains(s, "project capability") {
		t.Fatalf("status %q", s)
	}
	// the same copy in the project scope is fine
	hs.Press("S")
	hs.answerPrompt("binder-2")
	if _, err := os.Stat(filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "prompt-stacks", "binder-2.json")); err != nil {
		t.Fatalf("project fork: %v; status %q", err, statusText(hs))
	}
}

// An import that would not validate is refused the same way (preset new
// --from FILE refuses it too).
func TestImportThatWouldNotValidateIsRefused(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	file := filepath.Join(t.TempDir(), "dup.json")
	os.WriteFile(file, []byte(`{"schemaVersion":2,"id":"dup","items":[{"kind":"block","id":"a","content":"x"},{"kind":"block","id":"a","content":"y"}]}`), 0o644)
	hs.Press("I")
	hs.answerPrompt(file)
	hs.answerPrompt("dup")
	if _, err := os.Stat(filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "prompt-stacks", "dup.json")); err == nil {
		t.Fatalf("the invalid import was written; status %q", statusText(hs))
	}
	if s := statusText(hs); !strings.Contains(s, "Duplicate item id: a") {
		t.Fatalf("status %q", s)
	}
}
