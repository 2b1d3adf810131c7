package capabilities

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/resources"
)

// A tool that is neither a Pi built-in nor declared in the session (a
// tool of an extension that is not loaded yet) can be typed by name.
func TestToolPickerTakesATypedName(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.selectCapability("project:test-runner")
	hs.Press("enter", "tab", "tab", "tab") // name → description → content → tools
	e := hs.m.edit
	if e == nil || e.field != fieldTools {
		t.Fatalf("editor on the tools field: %+v", e)
	}
	n := len(e.tools)
	hs.Press("a")
	if d := hs.prompt(); d == nil || d.kind != promptToolName || !hs.m.CapturesInput() {
		t.Fatalf("t opens the tool-name prompt: %+v", d)
	}
	hs.Type("a b")
	hs.Press("enter")
	if d := hs.prompt(); d == nil || !strings.Contains(d.body, "cannot contain whitespace") {
		t.Fatalf("an invalid name is refused in the prompt: %+v", d)
	}
	hs.Press("esc")
	hs.Press("a")
	hs.Type("web_search")
	hs.Press("enter")
	if hs.dialogOpen() || len(e.tools) != n+1 {
		t.Fatalf("typed tool: dialog %+v, %d tools (had %d)", hs.m.dialogs.Top(), len(e.tools), n)
	}
	if got := e.tools[e.toolCursor]; got.name != "web_search" || got.state != toolAdd {
		t.Fatalf("cursor on %+v", got)
	}
	// A name already offered is not added twice: the cursor goes there.
	hs.Press("a")
	hs.Type("bash")
	hs.Press("enter")
	if len(e.tools) != n+1 || e.tools[e.toolCursor].name != "bash" {
		t.Fatalf("typing an offered tool: %d tools, cursor on %s", len(e.tools), e.tools[e.toolCursor].name)
	}
	hs.Press("ctrl+s")
	raw, err := os.ReadFile(filepath.Join(hs.layout.ProjectDir, ".pi/forge/capabilities/test-runner.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, diags := capability.Parse(raw, "test-runner.json", resources.ScopeProject)
	if diags.HasErrors() || strings.Join(c.Tools.Add, ",") != "bash,web_search" {
		t.Fatalf("saved %s", raw)
	}
}
