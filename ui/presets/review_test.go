package presets

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/components/forms"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestListFilterTakesEveryLetter: while the Preset list filter is open,
// letters that are panel keys elsewhere (p profiles, u undo, r reload, n
// new, f fork, y copy, v preview) are text of the query.
func TestListFilterTakesEveryLetter(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.Press("space") // an edit u would undo
	version := hs.m.d.Version()
	hs.m.focus = paneList
	hs.Press("/")
	hs.Type("alpunrfyvID")
	if hs.m.showProfile || hs.m.topDialog() != nil || hs.m.diff != nil {
		t.Fatalf("a letter of the query acted as a key: profiles %v, dialog %v, diff %v", hs.m.showProfile, hs.m.topDialog() != nil, hs.m.diff != nil)
	}
	if hs.m.d.Version() != version || !hs.m.d.Dirty() {
		t.Fatal("u in the query undid the draft's edit")
	}
	if got := hs.m.presets.Query(); got != "alpunrfyvID" {
		t.Fatalf("query %q", got)
	}
	hs.Press("esc")
	if hs.m.presets.Filtering() {
		t.Fatal("esc does not close the filter")
	}
}

// pressUnsettled delivers keys the way a fast typist's reach the panel: each
// before the commands of the previous one have answered; then the commands
// run in the order they were returned.
func (hs *harness) pressUnsettled(keys ...string) {
	hs.TB().Helper()
	var cmds []tea.Cmd
	for _, k := range keys {
		_, cmd := hs.m.Update(uitest.Key(k))
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		hs.Run(cmd)
	}
}

// TestFormKeysWaitForTheEditBeforeThem: a key typed before the form's
// previous edit came back reaches the form rebuilt from that edit, in every
// form (here the Properties form's mode: three cycles of three values come
// back to the start; the stale form cycled from the old value each time).
func TestFormKeysWaitForTheEditBeforeThem(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.itemsPane()
	hs.m.items.SetCursor(hs.m.d.Len()) // Properties
	hs.Press("enter", "down", "down")  // name, description, mode
	mode := func() string { return string(hs.m.d.Stack().Mode) }
	before := mode()
	hs.pressUnsettled("space", "space")
	if mode() == before {
		t.Fatalf("two cycles left the mode at %q", before)
	}
	hs.pressUnsettled("space")
	if mode() != before {
		t.Fatalf("three cycles of replace|append|prepend gave %q, want %q", mode(), before)
	}
}

// TestPolicyAndProfileFormsWaitToo: the gate is the panel's, so the
// policy form's m and the profile form's space (hosted by the profiles
// view) are held the same way.
func TestPolicyAndProfileFormsWaitToo(t *testing.T) {
	hs := newHarnessWith(t, 160, 48, writeStack("pol", `{"schemaVersion":2,"id":"pol","items":[],"tools":{"allow":["read","ls"]}}`))
	hs.openByID("project:pol")
	hs.itemsPane()
	hs.m.items.SetCursor(hs.m.d.Len() + 2) // Tool policy
	hs.Press("enter")
	hs.pressUnsettled("m", "m", "m") // allow → deny → none → allow
	if tools := hs.m.d.Stack().Tools; tools == nil || len(tools.Allow) != 2 || len(tools.Deny) != 0 {
		t.Fatalf("three mode cycles gave %+v, want the allow patterns back", tools)
	}

	hs.Press("esc", "esc", "p")
	for i, p := range hs.m.lib.Profiles {
		if p.ID == "reviewer" {
			hs.m.profiles.SetCursor(i)
		}
	}
	hs.Press("i", "down", "down", "down", "down") // thinkingLevel (medium)
	seven := []string{"space", "space", "space", "space", "space", "space", "space"}
	hs.pressUnsettled(seven...) // off … max: seven levels come round
	if got, _ := hs.m.prof.tree.Get("thinkingLevel"); got != "medium" {
		t.Fatalf("seven cycles of seven levels gave %v, want medium", got)
	}
}

// openProfile shows the profiles view with the profile id under the
// cursor.
func (hs *harness) openProfile(id string) {
	hs.TB().Helper()
	if !hs.m.showProfile {
		hs.Press("p")
	}
	for i, p := range hs.m.lib.Profiles {
		if p.ID == id {
			hs.m.profiles.SetCursor(i)
			return
		}
	}
	hs.TB().Fatalf("no profile %s", id)
}

// TestProfileRawJSONInline: v shows the profile as JSON in the Preset's
// Advanced view; typing edits the draft live (one undo step for a run of
// typing), a parse error keeps the draft and points at line:col, v goes
// back to the form, and the save writes what was typed.
func TestProfileRawJSONInline(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("m")
	if hs.m.prof == nil || !hs.m.profRaw || !hs.m.profFocus {
		t.Fatal("v does not open the profile's raw JSON")
	}
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, `"thinkingLevel": "medium"`) || !strings.Contains(view, "whole profile file") {
		t.Fatalf("the raw view does not show the profile:\n%s", view)
	}
	hs.Press("enter", "ctrl+end", "backspace") // drop the closing brace
	view = ansi.Strip(hs.m.View())
	if !strings.Contains(view, "invalid JSON at line") || hs.m.prof.dirty() {
		t.Fatalf("a parse error changed the draft or was not located:\n%s", view)
	}
	hs.Type("}")
	if hs.m.prof.dirty() {
		t.Fatal("the same JSON back made the draft dirty")
	}
	// Change the thinking level by typing over "medium".
	text := hs.m.profForm.(interface{ Text() string }).Text()
	line := strings.Count(text[:strings.Index(text, `"medium"`)], "\n")
	hs.Press("ctrl+home")
	for range line {
		hs.Press("down")
	}
	hs.Press("end", "left", "left") // before `",`
	for range len("medium") {
		hs.Press("backspace")
	}
	hs.Type("high")
	if got, _ := hs.m.prof.tree.Get("thinkingLevel"); got != "high" {
		t.Fatalf("typing did not reach the draft: %v", got)
	}
	if len(hs.m.prof.history) != 1 {
		t.Fatalf("%d undo steps for one run of typing", len(hs.m.prof.history))
	}
	hs.Press("esc", "m") // stop typing, back to the form
	if hs.m.profRaw {
		t.Fatal("v does not go back to the form")
	}
	if !strings.Contains(ansi.Strip(hs.m.View()), "thinkingLevel   high") {
		t.Fatalf("the form does not show the typed value:\n%s", ansi.Strip(hs.m.View()))
	}
	hs.Press("ctrl+s")
	data, _ := os.ReadFile(hs.m.prof.p.Path)
	if !strings.Contains(string(data), `"thinkingLevel": "high"`) {
		t.Fatalf("saved:\n%s\n%q", data, statusText(hs))
	}
	if problem := forms.ParseProblem("[1]", forms.NounProfile); problem != "Profile root must be a JSON object." {
		t.Fatal(problem)
	}
}

// TestProfileStatusCardMarksTheToolsDriftAsForgebenchs: the card shows the
// last applied profile, its drift, and says the tools drift is
// forgebench's own check (pi-forge's /profile status has none).
func TestProfileStatusCardMarksTheToolsDriftAsForgebenchs(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	prov := `{"type":"custom","customType":"pi-forge-agent-profile-state","data":{"provenance":{"profileId":"reviewer","scope":"project",` +
		`"sourcePath":"reviewer.json","sourceFingerprint":"{}","appliedAt":"2026-11-27T09:00:01.500Z",` +
		`"snapshot":{"model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"high","promptStack":"alpha"}}},` +
		`"id":"e0000009","parentId":"e0000004","timestamp":"2026-11-27T09:00:04.000Z"}` + "\n"
	f, err := os.OpenFile(hs.sessFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(prov)
	f.Close()
	hs.com.Selection.EntryID = "e0000009"
	hs.Press("p")
	view := ansi.Strip(hs.m.View())
	for _, want := range []string{"last applied ◆ project:reviewer", "thinking   high → off", "tools *", "* forgebench's own check"} {
		if !strings.Contains(view, want) {
			t.Errorf("the card lacks %q:\n%s", want, view)
		}
	}
}

// TestPromptInputFitsItsDialog: the text field of a prompt whose label is
// longer than "id: " (name:, file:) fits the dialog instead of being cut
// with an ellipsis.
func TestPromptInputFitsItsDialog(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs := newHarness(t, size.w, size.h, false)
		hs.openByID("project:alpha")
		hs.itemsPane()
		hs.Press("a")
		hs.Type("Tone Guide")
		for _, l := range strings.Split(ansi.Strip(hs.m.View()), "\n") {
			if strings.Contains(l, "name: Tone Guide") && strings.Contains(l, "…") {
				t.Errorf("%dx%d: the field is cut: %q", size.w, size.h, l)
			}
		}
	}
}

// TestDeletingTheSelectedPresetClearsTheSelection: the shared selection
// (the header, the other panels) does not keep naming a Preset that no
// longer exists.
func TestDeletingTheSelectedPresetClearsTheSelection(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:beta") // a user's open announces it
	if hs.com.Selection.PresetID != "project:beta" {
		t.Fatalf("selection %q", hs.com.Selection.PresetID)
	}
	hs.m.focus = paneList
	hs.Press("x", "y")
	if hs.com.Selection.PresetID == "project:beta" {
		t.Fatal("the selection still names the deleted Preset")
	}
}

// TestProfileRawRefusedKeepsTheOtherDraftsView: v on another profile while
// one has unsaved edits is refused and leaves that draft's form as it was.
func TestProfileRawRefusedKeepsTheOtherDraftsView(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openProfile("reviewer")
	hs.Press("i", "down", "down", "down", "down", "space") // an unsaved edit in the form
	hs.Press("esc")
	hs.openProfile("lost")
	hs.Press("m")
	if hs.m.prof.p.ID != "reviewer" || !strings.Contains(statusText(hs), "unsaved edits") {
		t.Fatalf("v opened lost over reviewer's edits: %q", statusText(hs))
	}
	hs.openProfile("reviewer")
	hs.Press("i")
	if hs.m.profRaw {
		t.Fatal("the refused v switched reviewer's editor to raw JSON")
	}
	hs.openProfile("lost")
	hs.Press("m")
	if hs.m.profRaw {
		t.Fatal("the refused v left the raw view flag set")
	}
}
