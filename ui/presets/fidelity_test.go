package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// writeStack adds a project Preset file before the library loads.
func writeStack(name, text string) func(testing.TB, string) {
	return func(t testing.TB, cwd string) {
		dir := filepath.Join(cwd, ".pi", "forge", "prompt-stacks")
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// previewText is the rendered dock, styling stripped.
func (hs *harness) previewText() string {
	hs.TB().Helper()
	return strings.Join(hs.m.previewDock.lines(120), "\n")
}

// TestDockPreviewWithoutSessionIsAFreshSession: with no session selected
// the dock compiles against a fresh session under the draft's own policy,
// and an edit of the policy changes the runtime (issue 14, disagreement 1).
func TestDockPreviewWithoutSessionIsAFreshSession(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeStack("p", `{"schemaVersion":2,"id":"p","tools":{"allow":["read","ls","bash","edit"],"initial":["read","ls"]},
		"items":[{"kind":"block","id":"b","role":"system","content":"tools={{ runtime.selectedToolsText }} | {% if runtime.tool.bash %}yes{% endif %}"}]}`))
	hs.openByID("project:p")
	if got := hs.previewText(); !strings.Contains(got, "tools=read, ls |") {
		t.Fatalf("dock:\n%s", got)
	}
	// Dropping initial leaves the selective allow: it picks from the
	// whole catalogue.
	if err := hs.m.d.Apply(draft.Edit{Path: draft.Path{"tools", "initial"}, Delete: true, Label: "tools.initial"}); err != nil {
		t.Fatal(err)
	}
	hs.Run(hs.m.edited(0, nil))
	if got := hs.previewText(); !strings.Contains(got, "tools=read, bash, edit, ls | yes") {
		t.Fatalf("dock after the edit:\n%s", got)
	}
}

// TestDockShowsSystemCardsAsPiForgeDoes: the dock hides empty System
// messages and keeps tool declarations as history (disagreement 2).
func TestDockShowsSystemCardsAsPiForgeDoes(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	dir := t.TempDir()
	sess := filepath.Join(dir, "s.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"0c0ffee0-0000-7000-8000-000000000009","timestamp":"2026-11-27T09:00:00.000Z","cwd":"/w"}`,
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-11-27T09:00:01.000Z","message":{"role":"system","content":"","sections":{"preamble":"You are Pi.","cwd":"<cwd>\n/w\n</cwd>"},"toolsAdded":[{"name":"read","description":"r","parameters":{}}],"timestamp":1}}`,
		`{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-11-27T09:00:02.000Z","message":{"role":"user","content":"hello","timestamp":2}}`,
		`{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-11-27T09:00:03.000Z","message":{"role":"system","content":"","sections":{"cwd":"<cwd>\n/v\n</cwd>"},"timestamp":3}}`,
		`{"type":"message","id":"m4","parentId":"m3","timestamp":"2026-11-27T09:00:04.000Z","message":{"role":"system","content":"","toolsAdded":[{"name":"bash","parameters":{}}],"timestamp":4}}`,
	}
	if err := os.WriteFile(sess, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sel := hs.com.Selection
	sel.SessionFile, sel.EntryID = sess, "m4"
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	got := hs.previewText()
	for _, want := range []string{"1 empty System message(s) hidden", "(content: the compiled system prompt above)",
		"tools declared then: +read (history, not the current selection)", "tools declared then: +bash (history, not the current selection)"} {
		if !strings.Contains(got, want) {
			t.Errorf("dock lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "You are Pi.") {
		t.Errorf("Pi's own section shows in the dock:\n%s", got)
	}
}
