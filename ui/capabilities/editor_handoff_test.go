package capabilities

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// ctrl+e hands the capability's content to Common.Editor (a fake here, so
// no $EDITOR runs): the editor sees the content, its text replaces it (the
// newline it added dropped) and the draft is dirty; a failed editor
// changes nothing and says why.
func TestContentGoesThroughTheExternalEditor(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	fake := uitest.UseEditor(hs.com, func(text string) string { return "Edited elsewhere.\n" })
	hs.selectCapability("project:test-runner")
	hs.Press("enter")
	e := hs.m.edit
	if e == nil {
		t.Fatal("enter opens the editor")
	}
	before := e.content.Value()
	hs.Press("ctrl+e")
	if len(fake.Given) != 1 || fake.Given[0] != before || !strings.HasSuffix(fake.Patterns[0], ".md") {
		t.Fatalf("handed %q as %q, want the content %q in a markdown file", fake.Given, fake.Patterns, before)
	}
	want := "Edited elsewhere."
	if strings.HasSuffix(before, "\n") {
		want += "\n"
	}
	if got := hs.m.edit.content.Value(); got != want || !hs.m.edit.dirty {
		t.Fatalf("content %q (dirty %v), want %q", got, hs.m.edit.dirty, want)
	}
	fake.Err = uitest.ErrEditorFailed
	hs.Press("ctrl+e")
	if !strings.Contains(hs.m.status, uitest.ErrEditorFailed.Error()) || hs.m.edit.content.Value() != want {
		t.Fatalf("a failed editor: status %q, content %q", hs.m.status, hs.m.edit.content.Value())
	}
}
