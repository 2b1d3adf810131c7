package capabilities

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/common"
)

// writeCapability puts a capability file into the demo project and
// reloads the library.
func (hs *harness) writeCapability(id, content string) {
	hs.TB().Helper()
	data := fmt.Sprintf(`{"schemaVersion":1,"type":"pi-forge.capability","id":%q,"content":%q}`, id, content)
	path := filepath.Join(hs.layout.ProjectDir, ".pi", "forge", "capabilities", id+".json")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		hs.TB().Fatal(err)
	}
	hs.Run(hs.m.reloadLibrary())
}

// The preview of a long capability at 80x24 scrolls to its last line, and
// the fingerprint is shown whole (wrapped, not cut).
func TestPreviewScrollsToTheFullText(t *testing.T) {
	hs := newHarness(t, 80, 24, true)
	var lines []string
	for i := 1; i <= 60; i++ {
		lines = append(lines, fmt.Sprintf("rule %02d of the long capability", i))
	}
	hs.writeCapability("long", strings.Join(lines, "\n"))
	hs.selectCapability("project:long")
	hs.Press("+")
	d := hs.preview()
	if d == nil {
		t.Fatalf("preview: %+v", d)
	}
	view := ansi.Strip(hs.m.View())
	if strings.Contains(view, "rule 60") {
		t.Fatal("the whole text fits at 80x24? the test needs a longer text")
	}
	hs.Press("down", "down", "down") // the fingerprint follows how to stop the activation
	view = ansi.Strip(hs.m.View())
	want := d.preview.fingerprint()
	if want == "" {
		t.Fatal("no fingerprint")
	}
	for _, piece := range strings.Split(ansi.Wrap(want, common.DialogInner(hs.m.width), ""), "\n") { // wrapped, every piece shown
		if !strings.Contains(view, "│ "+piece+" ") {
			t.Errorf("the fingerprint %q is not shown whole (%q missing):\n%s", want, piece, view)
		}
	}
	hs.Press("G")
	if view := ansi.Strip(hs.m.View()); !strings.Contains(view, "rule 60 of the long capability") {
		t.Fatalf("G does not reach the last line:\n%s", view)
	}
	hs.Press("g")
	if view := ansi.Strip(hs.m.View()); !strings.Contains(view, "Enable project:long") || strings.Contains(view, "rule 60") {
		t.Fatalf("g does not come back to the top:\n%s", view)
	}
	hs.Press("down", "down", "up")
	if hs.preview() == nil || hs.preview().offset != 1 {
		t.Fatalf("offset after down down up: %+v", hs.preview())
	}
	hs.Press("y")
	if hs.dialogOpen() || !strings.HasPrefix(hs.m.status, "Enabled project:long: ") {
		t.Fatalf("confirming after scrolling: %q", hs.m.status)
	}
}

// Card texts are wrapped once per activation, width, theme and expansion:
// drawing again adds nothing to the cache, expanding or resizing draws
// new lines (never the old ones).
func TestCardBodiesAreCached(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.focusOn(paneSession)
	_ = hs.m.View()
	n := len(hs.m.view.bodies)
	if n != 2 {
		t.Fatalf("%d cached bodies after one frame, want one per card (2)", n)
	}
	_ = hs.m.View()
	if len(hs.m.view.bodies) != n {
		t.Fatal("a second frame wrapped the texts again")
	}
	a, _ := hs.m.view.selectedActive()
	collapsed := hs.m.view.body(a, &hs.com.Styles, 40, false)
	expanded := hs.m.view.body(a, &hs.com.Styles, 40, true)
	if len(expanded) <= len(collapsed) || !strings.Contains(ansi.Strip(strings.Join(collapsed, "\n")), "more lines") {
		t.Fatalf("collapsed %q, expanded %q", collapsed, expanded)
	}
	if narrow := hs.m.view.body(a, &hs.com.Styles, 30, true); len(narrow) <= len(expanded) {
		t.Fatal("a narrower width reused the wider lines")
	}
}
