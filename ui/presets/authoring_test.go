package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
)

const dupStack = `{"schemaVersion":2,"id":"dup","x-note":{"keep":true},"items":[
 {"kind":"block","id":"intro","name":"Intro","role":"system","content":"one"},
 {"kind":"block","id":"intro","role":"user","content":"two"},
 {"kind":"slot","id":"h","slot":"chat-history"}]}`

func (hs *harness) itemsPane() {
	hs.m.focus = paneItems
}

// TestItemPropertiesFixTheDuplicateID: i on an item opens its properties,
// the id edit fixes "Duplicate item id", and the save keeps unknown keys.
func TestItemPropertiesFixTheDuplicateID(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeStack("dup", dupStack))
	hs.openByID("project:dup")
	if hs.m.d.Diagnostics().Count(preset.LevelError) != 1 {
		t.Fatalf("want the duplicate error: %v", hs.m.d.Diagnostics())
	}
	hs.itemsPane()
	hs.m.items.SetCursor(1)
	hs.Press("i", "down", "enter", "ctrl+u")
	hs.Type("outro")
	hs.Press("enter")
	if got := hs.m.d.Stack().Items[1].ID; got != "outro" || hs.m.d.Diagnostics().Count(preset.LevelError) != 0 {
		t.Fatalf("id %q, diagnostics %v", got, hs.m.d.Diagnostics())
	}
	hs.Press("ctrl+s")
	data, _ := os.ReadFile(hs.m.open.Path)
	if !strings.Contains(string(data), `"x-note": {`) || !strings.Contains(string(data), `"id": "outro"`) {
		t.Fatalf("saved:\n%s", data)
	}
}

// TestAddAsksForANameAndDuplicateNamesTheCopy.
func TestAddAsksForANameAndDuplicateNamesTheCopy(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("a")
	if hs.m.topDialog() == nil {
		t.Fatal("a does not ask for a name")
	}
	hs.Type("Tone Guide")
	hs.Press("enter")
	it, _, _ := hs.m.d.Item(hs.m.items.Cursor())
	if it.ID != "tone-guide" || it.Name == nil || *it.Name != "Tone Guide" {
		t.Fatalf("new block %+v", it)
	}
	hs.m.items.SetCursor(hs.itemIndex("persona"))
	hs.Press("d")
	cp, _, _ := hs.m.d.Item(hs.m.items.Cursor())
	if cp.ID != "persona-copy" || cp.Name == nil || *cp.Name != "Persona (copy)" {
		t.Fatalf("copy %+v", cp)
	}
}

// TestUndoOfAMoveFollowsTheItemAndRedo.
func TestUndoOfAMoveFollowsTheItemAndRedo(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.m.items.SetCursor(0)
	hs.Press("J", "J")
	if hs.m.items.Cursor() != 2 || hs.itemIndex("persona") != 2 {
		t.Fatalf("after moves: cursor %d", hs.m.items.Cursor())
	}
	hs.Press("u")
	if hs.itemIndex("persona") != 1 || hs.m.items.Cursor() != 1 {
		t.Fatalf("undo: persona at %d, cursor %d", hs.itemIndex("persona"), hs.m.items.Cursor())
	}
	hs.Press("U")
	if hs.itemIndex("persona") != 2 || hs.m.items.Cursor() != 2 || !strings.Contains(statusText(hs), "redid move persona") {
		t.Fatalf("redo: persona at %d, cursor %d, %q", hs.itemIndex("persona"), hs.m.items.Cursor(), statusText(hs))
	}
}

// TestCopyCopiesWhatTheItemCompilesTo.
func TestCopyCopiesWhatTheItemCompilesTo(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.m.items.SetCursor(hs.itemIndex("persona"))
	text, what := hs.m.copyText()
	if !strings.HasPrefix(text, "You are Alpha") || !strings.Contains(what, "compiles to") {
		t.Fatalf("%q %q", text, what)
	}
	hs.Press("y")
	if !strings.Contains(statusText(hs), "copied what Persona compiles to") {
		t.Fatalf("%q", statusText(hs))
	}
	hs.m.focus = panePreview
	if text, _ := hs.m.copyText(); text != hs.m.preview.res.Result.System.SystemPrompt {
		t.Fatal("the dock copies the whole system prompt")
	}
}

// TestListFilterDeleteAndScopeOfNew.
func TestListFilterDeleteAndScopeOfNew(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.m.focus = paneList
	hs.Press("/")
	hs.Type("gam")
	if hs.m.presets.Len() != 1 || !hs.m.CapturesInput() {
		t.Fatalf("filter shows %d", hs.m.presets.Len())
	}
	hs.Press("enter", "esc")
	hs.m.presets.SetQuery("")
	// delete beta, confirmed
	for i, p := range hs.m.lib.Presets {
		if p.ID == "beta" {
			hs.m.presets.SetCursor(i)
		}
	}
	path := ""
	for _, p := range hs.m.lib.Presets {
		if p.ID == "beta" {
			path = p.Path
		}
	}
	hs.Press("x")
	if hs.m.topDialog() == nil {
		t.Fatal("x does not ask")
	}
	hs.Press("y")
	if _, err := os.Stat(path); !os.IsNotExist(err) || !strings.Contains(statusText(hs), "deleted project:beta") {
		t.Fatalf("%v %q", err, statusText(hs))
	}
	// new in the global scope
	hs.Press("a", "tab")
	if hs.m.topDialog() == nil || hs.m.topDialog().scope != preset.ScopeGlobal {
		t.Fatal("tab does not switch the scope")
	}
	hs.answerPrompt("fresh")
	if _, err := os.Stat(filepath.Join(hs.com.Workspace.ForgeDir, "prompt-stacks", "fresh.json")); err != nil {
		t.Fatalf("global new: %v", err)
	}
}

// TestSaveConflictDialog: a change on disk refuses the save and offers
// the difference and overwrite.
func TestSaveConflictDialog(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("space") // an edit
	path := hs.m.open.Path
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha (edited elsewhere)", 1)), 0o644)
	hs.Press("ctrl+s")
	if hs.m.topDialog() == nil || hs.m.topDialog().kind != dialogConflict {
		t.Fatalf("no conflict dialog: %q", statusText(hs))
	}
	hs.Press("D")
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "Alpha (edited elsewhere)") || !strings.Contains(view, "on disk") {
		t.Fatalf("the difference is not shown:\n%s", view)
	}
	hs.Press("O")
	after, _ := os.ReadFile(path)
	if strings.Contains(string(after), "edited elsewhere") || hs.m.d.Dirty() {
		t.Fatalf("overwrite did not write the draft:\n%s", after)
	}
}

// TestDiskChangeReloadsAnUntouchedDraftAndKeepsAnEditedOne.
func TestDiskChangeReloadsAnUntouchedDraftAndKeepsAnEditedOne(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	path := hs.m.open.Path
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha Two", 1)), 0o644)
	hs.Send(libraryChangedMsg{paths: []string{path}})
	if n := hs.m.d.Stack().Name; n == nil || *n != "Alpha Two" {
		t.Fatalf("untouched draft not reloaded: %v", n)
	}
	hs.itemsPane()
	hs.Press("space")
	os.WriteFile(path, []byte(strings.Replace(string(data), "Alpha Helper", "Alpha Three", 1)), 0o644)
	hs.Send(libraryChangedMsg{paths: []string{path}})
	if !hs.m.d.Dirty() || !strings.Contains(statusText(hs), "changed on disk; your draft is kept") {
		t.Fatalf("the edited draft was not kept: %q", statusText(hs))
	}
}

// TestPropertiesAndRawJSONRows: the settings rows edit the properties and
// the whole Preset; a save keeps unknown keys.
func TestPropertiesAndRawJSONRows(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeStack("dup", dupStack))
	hs.openByID("project:dup")
	hs.itemsPane()
	hs.m.items.SetCursor(hs.m.d.Len()) // Properties
	hs.Press("enter", "down", "enter")
	hs.Type("What it is for")
	hs.Press("enter")
	if d := hs.m.d.Stack().Description; d == nil || *d != "What it is for" {
		t.Fatalf("description %v", d)
	}
	hs.Press("esc")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(hs.m.d.Len() + len(settingsRows) - 1) // Advanced
	hs.Press("enter", "enter", "ctrl+home")
	hs.Press("right") // after "{"
	hs.Type(` "x-more": 1,`)
	if _, ok := hs.m.d.Tree().Get("x-more"); !ok {
		t.Fatalf("the typed key did not reach the draft:\n%s", ansi.Strip(hs.m.View()))
	}
	hs.Press("esc", "ctrl+s")
	data, _ := os.ReadFile(hs.m.open.Path)
	if !strings.Contains(string(data), `"x-more": 1`) || !strings.Contains(string(data), `"x-note"`) {
		t.Fatalf("saved:\n%s", data)
	}
}

// TestProfilesEditSaveAndDelete.
func TestProfilesEditSaveAndDelete(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.Press("p")
	for i, p := range hs.m.lib.Profiles {
		if p.ID == "reviewer" {
			hs.m.profiles.SetCursor(i)
		}
	}
	hs.Press("i")
	if hs.m.profForm == nil || !hs.m.profFocus {
		t.Fatal("i does not open the profile form")
	}
	hs.Press("down", "down", "down", "down", "space") // thinkingLevel → high
	hs.Press("ctrl+s")
	path := hs.m.prof.p.Path
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"thinkingLevel": "high"`) {
		t.Fatalf("saved:\n%s\n%q", data, statusText(hs))
	}
	hs.Press("esc", "a")
	hs.answerPrompt("helper")
	if _, err := os.Stat(filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "agent-profiles", "helper.json")); err != nil {
		t.Fatalf("new profile: %v %q", err, statusText(hs))
	}
	for i, p := range hs.m.lib.Profiles {
		if p.ID == "helper" {
			hs.m.profiles.SetCursor(i)
		}
	}
	hs.Press("x", "y")
	if _, err := os.Stat(filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "agent-profiles", "helper.json")); !os.IsNotExist(err) {
		t.Fatalf("delete: %v", err)
	}
}
