package presets

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/uitest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

func TestInitOpensTheSessionsActivePresetAndMarksIt(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	if hs.m.rc == nil || hs.m.rc.active.String() != "project:alpha" {
		t.Fatalf("active at e0000004 = %+v", hs.m.rc)
	}
	if hs.m.open == nil || hs.m.open.Key() != "project:alpha" {
		t.Fatalf("opened %v, want the active preset", hs.m.open)
	}
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "▶P alpha") {
		t.Fatalf("active marker missing:\n%s", view)
	}
	if !slices.Contains(hs.m.rc.tools, "lint_patch") || hs.m.rc.tools[0] != "read" {
		t.Fatalf("known tools = %v, want Pi built-ins then the session's", hs.m.rc.tools)
	}
	// At the leaf the session switched the preset off.
	sel := hs.com.Selection
	sel.EntryID = ""
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if hs.m.rc.active.String() != "none" {
		t.Fatalf("pi-forge's off reads as none, got %q", hs.m.rc.active.String())
	}
}

func TestOpeningAPresetAnnouncesTheSelection(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.openByID("global:gamma")
	if len(hs.Selections) == 0 {
		t.Fatal("no SelectionChangedMsg")
	}
	got := hs.Selections[len(hs.Selections)-1]
	if got.PresetID != "global:gamma" || got.SessionFile != hs.sessFile || got.EntryID != "e0000004" {
		t.Fatalf("selection = %+v: the preset changes, the session stays", got)
	}
	if hs.m.focus != paneItems || hs.m.d.Stack().ID != "gamma" {
		t.Fatal("enter opens the preset's items")
	}
}

func TestTypingValidatesLiveAndSaveWritesTheFile(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.Press("enter") // edit the first block
	if !hs.m.CapturesInput() {
		t.Fatal("the inline editor must capture input")
	}
	hs.Type(" Be {{ brief")
	if !hs.m.d.Dirty() {
		t.Fatal("typing makes the draft dirty")
	}
	if !strings.Contains(ansi.Strip(hs.m.View()), "● alpha (unsaved)") {
		t.Fatal("unsaved marker missing")
	}
	// The unclosed forge-v1 tag fails the compile on this block.
	if ds := hs.m.draftEditor.itemDiagnostics("persona", hs.m.compiled()); len(ds) == 0 {
		t.Fatalf("want a template diagnostic on the persona block, preview %+v", hs.m.preview)
	}
	if where := ansi.Strip(hs.m.View()); !strings.Contains(where, "template error at line 2, column 32") {
		t.Fatalf("the editor locates the template error:\n%s", where)
	}
	hs.Press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	hs.Type("brief.")
	if ds := hs.m.draftEditor.itemDiagnostics("persona", hs.m.compiled()); len(ds) != 0 {
		t.Fatalf("fixed text clears the diagnostics, have %v", ds)
	}
	hs.Press("esc", "ctrl+s")
	if hs.m.d.Dirty() || hs.m.status != "saved project:alpha" {
		t.Fatalf("after save: dirty=%v status=%q", hs.m.d.Dirty(), hs.m.status)
	}
	data, err := os.ReadFile(hs.m.open.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Answer in short paragraphs. Be brief.") {
		t.Fatalf("file not updated:\n%s", data)
	}
	if _, diags := preset.Parse(data, "alpha.json"); diags.HasErrors() {
		t.Fatalf("saved file does not validate: %v", diags)
	}
	// A second save uses the new revision and succeeds.
	hs.Press("space", "ctrl+s")
	if hs.m.conflict != noConflict || hs.m.statusErr {
		t.Fatalf("second save: %q", hs.m.status)
	}
}

func TestSaveConflictKeepsTheDraftAndExplains(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	hs.Press("space") // disable persona
	path := hs.m.open.Path
	outside := []byte(strings.Replace(string(hs.m.open.Raw), "careful", "hasty", 1))
	if err := os.WriteFile(path, outside, 0o644); err != nil {
		t.Fatal(err)
	}
	draftBefore := jsonv.StringifyIndent(hs.m.d.Tree(), "  ")
	hs.Press("ctrl+s")
	if hs.m.conflict != conflictOnSave || !strings.Contains(hs.m.status, "your draft is kept") {
		t.Fatalf("conflict not reported: %q", hs.m.status)
	}
	if jsonv.StringifyIndent(hs.m.d.Tree(), "  ") != draftBefore || !hs.m.d.Dirty() {
		t.Fatal("the draft must survive a conflict")
	}
	if data, _ := os.ReadFile(path); string(data) != string(outside) {
		t.Fatal("a refused save must leave the file untouched")
	}
	if !strings.Contains(ansi.Strip(hs.m.View()), "Save refused") {
		t.Fatal("the editor explains the conflict")
	}
	// S forks the draft (with the edit) to a new id.
	hs.Press("S")
	hs.answerPrompt("alpha-2")
	if hs.m.open == nil || hs.m.open.Key() != "project:alpha-2" {
		t.Fatalf("fork did not open the copy: %v (%s)", hs.m.open, hs.m.status)
	}
	if want := "forked the draft to project:alpha-2; it is open now"; hs.m.status != want { // what happened, said after it
		t.Fatalf("the status after the fork: %q, want %q", hs.m.status, want)
	}
	if hs.m.d.Stack().Items[0].IsEnabled() {
		t.Fatal("the fork carries the draft's edit")
	}
}

func TestUntrustedSaveExplainsReadOnly(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("global:gamma")
	ws := hs.com.Workspace
	ws.Trust = resources.Trust{Trusted: false}
	hs.com.Workspace = ws
	// A project preset of an untrusted project is refused.
	cmd := saveCmd(ws, preset.ScopeProject, "alpha", hs.m.d.Snapshot(), "x")
	hs.Run(cmd)
	if !strings.Contains(hs.m.status, "read-only") {
		t.Fatalf("status = %q", hs.m.status)
	}
}

func TestExternalEditorRoundTrip(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	script := filepath.Join(t.TempDir(), "fake-editor.sh")
	body := "#!/bin/sh\nprintf 'Rewritten by the editor.\\n' > \"$1\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	// The real hand-off, its environment faked: $VISUAL empty, so $EDITOR.
	env := map[string]string{"VISUAL": " ", "EDITOR": script}
	var ran []string
	hs.com.Editor = common.EnvEditor{Getenv: func(k string) string { return env[k] }, Exec: func(cmd *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		ran = append(ran, cmd.Args...)
		return func() tea.Msg { return done(cmd.Run()) }
	}}
	i := hs.itemIndex("rules")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(i)
	hs.Press("e")
	if len(ran) != 2 || ran[0] != script {
		t.Fatalf("ran %q, want the $EDITOR script on one file", ran)
	}
	if _, err := os.Stat(ran[1]); !os.IsNotExist(err) {
		t.Error("the temporary file is removed after reading it back")
	}
	if !strings.HasSuffix(ran[1], ".md") {
		t.Errorf("a block's file is %s, want markdown", ran[1])
	}
	if got := hs.m.d.Stack().Items[i].Content; got != "Rewritten by the editor." {
		t.Fatalf("content = %q (status %q)", got, hs.m.status)
	}
	if _, err := hs.m.editorJobAt(hs.itemIndex("history")); err == nil {
		t.Error("a slot is not handed to $EDITOR")
	}
	label, _ := hs.m.d.Undo()
	if !strings.Contains(label, "$EDITOR") || hs.m.d.Dirty() {
		t.Fatalf("the editor's change is one undo step, label %q", label)
	}
}

// The hand-off goes through Common.Editor: a fake sees the block's text
// and its answer lands in the draft; a failed editor changes nothing and
// says why.
func TestExternalEditorIsFakeable(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	fake := uitest.UseEditor(hs.com, func(text string) string { return "Faked: " + text + "\n" })
	i := hs.itemIndex("rules")
	before := hs.m.d.Stack().Items[i].Content
	hs.m.focus = paneItems
	hs.m.items.SetCursor(i)
	hs.Press("e")
	if len(fake.Given) != 1 || fake.Given[0] != before {
		t.Fatalf("the editor was handed %q, want the block's text %q", fake.Given, before)
	}
	if got := hs.m.d.Stack().Items[i].Content; got != "Faked: "+before {
		t.Fatalf("content = %q, want the editor's text without the newline it added", got)
	}
	fake.Err = uitest.ErrEditorFailed
	hs.Press("e")
	if !hs.m.statusErr || !strings.Contains(hs.m.status, uitest.ErrEditorFailed.Error()) {
		t.Fatalf("status = %q, want the editor's failure", hs.m.status)
	}
	if got := hs.m.d.Stack().Items[i].Content; got != "Faked: "+before {
		t.Fatalf("a failed editor changed the block to %q", got)
	}
}

func TestItemKeysAndDeleteConfirm(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	n := hs.m.d.Len()
	hs.Press("d")
	if hs.m.d.Len() != n+1 || hs.m.d.Stack().Items[1].ID != "persona-copy" {
		t.Fatal("d duplicates under a new id")
	}
	hs.Press("J")
	if hs.m.d.Stack().Items[2].ID != "persona-copy" || hs.m.items.Cursor() != 2 {
		t.Fatal("J moves the item down and the cursor with it")
	}
	hs.Press("x")
	if hs.m.topDialog() == nil || !hs.m.CapturesInput() {
		t.Fatal("x asks first")
	}
	hs.Press("n")
	if hs.m.d.Len() != n+1 {
		t.Fatal("n cancels the delete")
	}
	hs.Press("x", "y")
	if hs.m.d.Len() != n {
		t.Fatal("y deletes")
	}
	hs.Press("A", "down", "down", "enter") // third slot: tool-guidelines
	if hs.m.d.Stack().Items[hs.m.items.Cursor()].ID != "tool-guidelines" {
		t.Fatalf("A adds the picked slot, cursor on %s", hs.m.d.Stack().Items[hs.m.items.Cursor()].ID)
	}
	if hs.m.form == nil || hs.m.formKind != formSlot {
		t.Fatal("a slot row shows its options form")
	}
	hs.Press("u", "u", "u", "u")
	if hs.m.d.Dirty() {
		t.Fatal("undoing every edit returns to the saved preset")
	}
}

func TestNewPresetFromTheMirrorAndProfiles(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.Press("a")
	hs.answerPrompt("fresh")
	if hs.m.open == nil || hs.m.open.Key() != "project:fresh" {
		t.Fatalf("new preset not opened: %q", hs.m.status)
	}
	if !hs.m.open.Usable() || hs.m.open.Stack.AutoActivate != nil {
		t.Fatalf("the mirror copy is valid and does not auto-activate: %v", hs.m.open.Diagnostics)
	}
	if hs.m.focus != paneItems {
		t.Fatalf("a new preset opens with its items focused, focus = %v", hs.m.focus)
	}
	hs.Press("p")
	if !hs.m.showProfile {
		t.Fatal("p shows the profiles")
	}
	for i, p := range hs.m.lib.Profiles {
		if p.ID == "reviewer" {
			hs.m.profiles.SetCursor(i)
		}
	}
	hs.Press("enter")
	if hs.m.showProfile || hs.m.open.Key() != "project:alpha" {
		t.Fatal("enter on a profile opens its preset")
	}
}

// The item rows are the kit's list over values built from the draft: an
// edit, an undo and a check of typed text each show on the rows.
func TestRowsFollowEveryEdit(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	view := func() string { return ansi.Strip(hs.m.View()) }
	hs.Press("down")
	if !strings.Contains(view(), "● sys blk House Rules") {
		t.Fatalf("setup: rules is enabled:\n%s", view())
	}
	hs.Press("space")
	if !strings.Contains(view(), "○ sys blk House Rules") {
		t.Fatal("the toggled row is drawn anew")
	}
	hs.Press("u")
	if !strings.Contains(view(), "● sys blk House Rules") {
		t.Fatal("the undone row is drawn anew")
	}
	hs.Press("up", "enter")
	hs.Type(" {{ oops")
	if !hs.m.d.Checked() {
		t.Fatal("the harness runs the check of the typed text")
	}
	if !strings.Contains(view(), "Persona") || !regexp.MustCompile(`Persona\s+✗1`).MatchString(view()) {
		t.Fatalf("the row of the block with a template error shows it:\n%s", view())
	}
}

func TestPaletteActionsPressTheirKeys(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	if len(hs.m.Actions()) != 7 {
		t.Fatalf("actions = %d", len(hs.m.Actions()))
	}
	hs.Press("space")
	_, cmd := hs.m.Update(actionUndo)
	hs.Run(cmd)
	if hs.m.d.Dirty() {
		t.Fatal("the undo action undoes")
	}
	_, cmd = hs.m.Update(actionProfiles)
	hs.Run(cmd)
	if !hs.m.showProfile {
		t.Fatal("the profiles action shows the profiles")
	}
}

func TestJumpsToAPresetOnlyWhenClean(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	jump := func(id string) {
		hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPresets, PresetID: id}})
	}
	jump("global:gamma")
	if hs.m.open.Key() != "global:gamma" {
		t.Fatalf("a clean draft gives way to a jump, open %s", hs.m.open.Key())
	}
	hs.m.focus = paneItems
	hs.Press("space")
	jump("project:beta")
	if hs.m.open.Key() != "global:gamma" || !hs.m.d.Dirty() {
		t.Fatal("a dirty draft is never replaced by a jump from elsewhere")
	}
	// It asks instead of ignoring the jump (issue 21: the palette's jump
	// to a Preset did nothing and said nothing): n keeps the draft, y
	// opens the Preset jumped to.
	if hs.m.topDialog() == nil || hs.m.topDialog().title != "Open project:beta?" || !strings.Contains(hs.m.topDialog().body, "discards the unsaved changes to global:gamma") {
		t.Fatalf("the jump does not ask: %+v", hs.m.topDialog())
	}
	hs.Press("n")
	if hs.m.open.Key() != "global:gamma" || !hs.m.d.Dirty() {
		t.Fatal("n keeps the draft")
	}
	jump("project:beta")
	hs.Press("y")
	if hs.m.open.Key() != "project:beta" || hs.com.Selection.PresetID != "project:beta" {
		t.Fatalf("y opens the Preset jumped to: %s", hs.m.open.Key())
	}
}

func TestActivePresetReplacesAnUntouchedAutoPick(t *testing.T) {
	hs := newHarness(t, 160, 48, false) // no session: the first preset opens
	if hs.m.open.Key() != "project:alpha" || !hs.m.autoOpened {
		t.Fatalf("auto-pick %s", hs.m.open.Key())
	}
	hs.m.autoOpened = true
	hs.m.presets.SetCursor(0)
	// The session says beta is active at its entry.
	_, cmd := hs.m.Update(contextMsg{ctx: &runContext{active: replay.ActivePreset{Choice: replay.PresetSelected, Selector: "project:beta"}, source: "test"}})
	hs.Run(cmd)
	if hs.m.open.Key() != "project:beta" {
		t.Fatalf("the active preset should replace the auto-pick, open %s", hs.m.open.Key())
	}
}

func TestKeysWhileADraftIsReloadingDoNotPanic(t *testing.T) {
	hs := newHarness(t, 80, 24, false)
	hs.m.focus = paneItems
	_ = hs.m.reload() // the library result is not delivered yet
	for _, k := range []string{"space", "J", "a", "d", "x", "e", "u", "f", "v", "tab", "down"} {
		_, _ = hs.m.Update(uitest.Key(k))
		_ = hs.m.View()
	}
	if hs.m.focus != paneList {
		t.Fatalf("focus %d, want the list while no draft is open", hs.m.focus)
	}
}

func TestWithoutSessionOpensWhatAFreshSessionWouldActivate(t *testing.T) {
	hs := newHarnessWith(t, 120, 40, func(t testing.TB, cwd string) {
		p := filepath.Join(filepath.Dir(cwd), "forge", "prompt-stacks", "gamma.json")
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// gamma auto-activates: a fresh pi-forge session would use it.
		raw = []byte(strings.Replace(string(raw), `"items"`, `"autoActivate": true, "items"`, 1))
		if err := os.WriteFile(p, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if hs.m.open == nil || hs.m.open.Key() != "global:gamma" {
		t.Fatalf("opened %v, want the auto-activating global:gamma", hs.m.open.Key())
	}
}

func TestSaveExplainsAFileNamedOtherThanItsID(t *testing.T) {
	hs := newHarnessWith(t, 120, 40, func(t testing.TB, cwd string) {
		dir := filepath.Join(cwd, ".pi", "forge", "prompt-stacks")
		if err := os.Rename(filepath.Join(dir, "beta.json"), filepath.Join(dir, "beta-prompt-stack.json")); err != nil {
			t.Fatal(err)
		}
	})
	hs.openByID("project:beta")
	before, _ := os.ReadFile(hs.m.open.Path)
	hs.Press("ctrl+s")
	if !strings.Contains(hs.m.status, "beta-prompt-stack.json") || !strings.Contains(hs.m.status, "fork") {
		t.Fatalf("status %q should explain the file name and offer fork", hs.m.status)
	}
	if after, _ := os.ReadFile(hs.m.open.Path); string(after) != string(before) {
		t.Fatal("the file must be untouched")
	}
}

// TestANewQuestionReplacesTheOneOpen: a question that arrives while
// another is open (a jump over "Delete item?") takes its place on the
// dialog stack instead of stacking over it, so the older answer, which
// acts on the draft as it was, can never run later; esc then closes the
// only dialog and the footer is the panes' again.
func TestANewQuestionReplacesTheOneOpen(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.m.focus = paneItems
	hs.Press("space") // dirty: a jump asks
	hs.Press("x")
	if d := hs.m.topDialog(); d == nil || d.title != "Delete item?" {
		t.Fatalf("x does not ask before deleting the item: %+v", d)
	}
	if got := common.KeyHint(hs.m.ShortHelp()); got != common.KeyHint([]key.Binding{hs.m.keys.Confirm, hs.m.keys.Cancel}) {
		t.Fatalf("the footer is not the question's keys: %q", got)
	}
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPresets, PresetID: "project:beta"}})
	if hs.m.dialogs.Len() != 1 || hs.m.topDialog().title != "Open project:beta?" {
		t.Fatalf("%d dialogs open, top %+v", hs.m.dialogs.Len(), hs.m.topDialog())
	}
	n := hs.m.d.Len()
	hs.Press("esc")
	if hs.m.dialogs.Open() || hs.m.CapturesInput() || hs.m.d.Len() != n {
		t.Fatalf("esc left a dialog open (%d) or an item was deleted (%d of %d)", hs.m.dialogs.Len(), hs.m.d.Len(), n)
	}
}
