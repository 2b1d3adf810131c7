package presets

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A profile draft without edits follows its file when it changes on disk,
// so the next save is not refused against a stale revision.
func TestCleanProfileDraftFollowsTheFileOnDisk(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("i")
	path := hs.m.prof.p.Path
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"medium"`, `"low"`, 1)), 0o644)
	hs.Send(libraryChangedMsg{paths: []string{path}})
	if got, _ := hs.m.prof.tree.Get("thinkingLevel"); got != "low" {
		t.Fatalf("the untouched draft still shows %v, not the file's low", got)
	}
	if !strings.Contains(hs.m.profForm.View(100, 20), "low") {
		t.Fatalf("the form was not rebuilt:\n%s", hs.m.profForm.View(100, 20))
	}
}

// r in the Profiles view drops an edited profile draft (after asking), as
// the conflict status promises.
func TestReloadInProfilesViewDropsTheProfileDraft(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("i", "down", "enter")
	hs.Type("edited here")
	hs.Press("enter", "esc")
	if hs.m.prof == nil || !hs.m.prof.dirty() {
		t.Fatal("the edit did not make the draft dirty")
	}
	hs.Press("r")
	if hs.m.topDialog() == nil {
		t.Fatal("r drops unsaved profile edits without asking")
	}
	hs.Press("y")
	if hs.m.prof != nil && hs.m.prof.dirty() {
		t.Fatalf("r kept the edited profile draft; status %q", statusText(hs))
	}
}

// A profile save refused because the file changed on disk opens the same
// conflict dialog as a Preset's: the difference, overwrite, fork, reload.
func TestProfileSaveConflictDialog(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("i", "down", "enter")
	hs.Type("mine")
	hs.Press("enter")
	path := hs.m.prof.p.Path
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"medium"`, `"low"`, 1)), 0o644)
	hs.Press("ctrl+s")
	if hs.m.topDialog() == nil || hs.m.topDialog().kind != dialogConflict {
		t.Fatalf("no conflict dialog: %q", statusText(hs))
	}
	hs.Press("D")
	if view := ansi.Strip(hs.m.View()); !strings.Contains(view, `"thinkingLevel": "low"`) || !strings.Contains(view, "mine") {
		t.Fatalf("the difference is not shown:\n%s", view)
	}
	hs.Press("O")
	after, _ := os.ReadFile(path)
	if !strings.Contains(string(after), "mine") || !strings.Contains(string(after), `"medium"`) || hs.m.prof.dirty() {
		t.Fatalf("overwrite did not write the draft:\n%s\n%q", after, statusText(hs))
	}
}

// A new or forked profile is the one under the cursor once it is written,
// so the next i edits it (the dialog says so).
func TestNewAndForkedProfilesTakeTheCursor(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("a")
	hs.answerPrompt("zz-new")
	if p := hs.m.selectedProfile(); p == nil || p.ID != "zz-new" {
		t.Fatalf("after n the cursor is on %s", p.Key())
	}
	hs.openProfile("reviewer")
	hs.Press("S")
	hs.answerPrompt("aa-fork")
	if p := hs.m.selectedProfile(); p == nil || p.ID != "aa-fork" {
		t.Fatalf("after f the cursor is on %s", p.Key())
	}
}

// An edited profile draft whose file changes on disk is kept, and the
// status says so at once (not only at the next save).
func TestEditedProfileDraftNoticesADiskChange(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("i", "down", "enter")
	hs.Type("mine")
	hs.Press("enter")
	path := hs.m.prof.p.Path
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), `"medium"`, `"low"`, 1)), 0o644)
	hs.Send(libraryChangedMsg{paths: []string{path}})
	if !hs.m.prof.dirty() || !strings.Contains(statusText(hs), "changed on disk") {
		t.Fatalf("dirty %v, status %q", hs.m.prof.dirty(), statusText(hs))
	}
}
