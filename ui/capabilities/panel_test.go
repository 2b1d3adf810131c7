package capabilities

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/ui/common"
)

func TestFollowsTheSelectedEntry(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	v := &hs.m.view
	if v.state == nil || len(v.state.Active()) != 2 || v.state.Delivery != capability.DeliveryPrepared {
		t.Fatalf("leaf state: %+v", v.state)
	}
	s, err := session.Open(hs.mainSession())
	if err != nil {
		t.Fatal(err)
	}
	// An entry before any capability event.
	early := s.Entries[3].ID
	hs.follow(hs.mainSession(), early)
	if v.state == nil || v.state.ID != early || len(v.state.Active()) != 0 {
		t.Fatalf("state at %s: %+v", early, v.state)
	}
	if !strings.Contains(hs.m.View(), "Session @ "+early) {
		t.Error("the session pane does not name the entry")
	}
	if !strings.Contains(ansi.Strip(hs.m.View()), "no capability history on this branch") {
		t.Error("an entry before any capability event is not said to have no history")
	}
	// Library rows mark what is active there: nothing.
	for _, r := range hs.m.list.Items() {
		if r.active {
			t.Errorf("%s marked active at %s", r.key, early)
		}
	}
	hs.follow(hs.mainSession(), "")
	marked := 0
	for _, r := range hs.m.list.Items() {
		if r.active {
			marked++
		}
	}
	if marked != 2 {
		t.Errorf("%d rows marked active at the leaf, want 2", marked)
	}
}

func TestEnableAndDisableWriteTheSession(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	file := hs.mainSession()
	size := fileSize(t, file)
	hs.selectCapability("project:review-mode")
	hs.Press("+")
	d := hs.preview()
	if d == nil || !d.preview.canWrite() {
		t.Fatalf("preview: %+v", d)
	}
	// The preview says what confirming will do, in the future tense, and
	// how to stop it later with the workbench's own key and command, the
	// ids whole (issue 21); not pi-forge's past-tense "Selected …" with
	// Pi's /capability disable.
	// The advice names the disable key the keymap binds (- by default,
	// docs/KEYS.md), as the dialog passes it.
	disableKey := hs.m.keys.Disable.Help().Key
	body := ansi.Strip(strings.Join(previewBody(d.preview, &hs.com.Styles, 200, disableKey), "\n"))
	activation := d.preview.plan.Result.ActivationID
	for _, want := range []string{"Enable project:review-mode: tools -edit -write -bash; its instruction reaches the model with the next request.",
		"Confirming appends 3 entries after the leaf 862c1f60", "\n" + activation + "\n", "press - on its card in the Session pane here",
		"forgebench capability disable \\\n  " + activation + " \\\n  --session 01a21c48-87b8-7bf2-bec6-d1b0faeb6b39",
		"Fingerprint of its frozen text:\n" + d.preview.fingerprint(), "Report findings"} {
		if !strings.Contains(body, want) {
			t.Errorf("preview lacks %q:\n%s", want, body)
		}
	}
	// At 80 columns the id and the command's lines are still whole lines.
	narrow := ansi.Strip(strings.Join(previewBody(d.preview, &hs.com.Styles, 64, disableKey), "\n"))
	for _, whole := range []string{"\n" + activation + "\n", "\n  " + activation + " \\\n", "\n  --session 01a21c48-87b8-7bf2-bec6-d1b0faeb6b39\n"} {
		if !strings.Contains(narrow, whole) {
			t.Errorf("at 64 columns %q is not a whole line:\n%s", whole, narrow)
		}
	}
	for _, gone := range []string{"Selected ", "/capability disable", "tools prepared"} {
		if strings.Contains(body, gone) {
			t.Errorf("the preview speaks in pi-forge's past tense (%q):\n%s", gone, body)
		}
	}
	if fileSize(t, file) != size {
		t.Fatal("the preview wrote to the file")
	}
	hs.Press("n")
	if hs.dialogOpen() || fileSize(t, file) != size {
		t.Fatal("cancel must close the preview and write nothing")
	}
	var appended []string
	hs.Intercept = func(msg tea.Msg) bool {
		if a, ok := msg.(common.SessionWrittenMsg); ok {
			appended = append(appended, a.File)
		}
		return false
	}
	hs.Press("+", "y")
	if fileSize(t, file) == size {
		t.Fatal("confirming did not write")
	}
	if len(appended) != 1 || appended[0] != file {
		t.Fatalf("the write was announced for %v, want once for %s", appended, file)
	}
	if !strings.HasPrefix(hs.m.status, "Enabled project:review-mode: tools -edit -write -bash; its instruction goes with the next request (activation ") ||
		len(hs.m.view.state.Active()) != 3 {
		t.Fatalf("after enable: %q, %d active", hs.m.status, len(hs.m.view.state.Active()))
	}
	// Disable the card under the cursor in the session pane.
	hs.focusOn(paneSession)
	hs.Press("G", "-")
	if d := hs.preview(); d == nil || !strings.Contains(strings.Join(previewBody(d.preview, &hs.com.Styles, 70, disableKey), "\n"), "stops ") {
		t.Fatalf("disable preview: %+v", d)
	}
	hs.Press("y")
	if len(hs.m.view.state.Active()) != 2 || !strings.HasPrefix(hs.m.status, "Disabled project:review-mode: tools +edit +write +bash; ") {
		t.Fatalf("after disable: %q", hs.m.status)
	}
}

func TestResetAsksTwice(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	file := hs.mainSession()
	size := fileSize(t, file)
	hs.Press("R")
	if hs.preview() == nil || hs.preview().preview.step != 0 {
		t.Fatal("reset opens its preview")
	}
	hs.Press("y")
	if hs.preview() == nil || hs.preview().preview.step != 1 || fileSize(t, file) != size {
		t.Fatal("the first confirmation must ask again, not write")
	}
	if !strings.Contains(hs.m.View(), "Really stop all 2 active capabilities?") {
		t.Error("second step does not say what it stops")
	}
	hs.Press("y")
	if fileSize(t, file) == size || len(hs.m.view.state.Active()) != 0 {
		t.Fatal("the second confirmation resets")
	}
}

func TestAddAndEnableBound(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.Press("A")
	hs.Type("Answer in French.")
	hs.Press("enter")
	if d := hs.preview(); d == nil || d.preview.op.Arg != "Answer in French." {
		t.Fatalf("add preview %+v", d)
	}
	hs.Press("y")
	act := hs.m.view.state.Active()
	if len(act) != 3 || act[2].Snapshot.Source.Kind != capability.SourceManual {
		t.Fatalf("manual directive: %+v", act)
	}
	// Enable-bound offers the bindings of the Preset in force.
	hs.Press("B")
	d, _ := hs.m.dialogs.Top().(*choiceDialog)
	if d == nil || len(d.choices) != 2 {
		t.Fatalf("bindings chooser: %+v", d)
	}
	hs.Press("enter") // write-access is already active as the user's
	if d := hs.preview(); d == nil || d.preview.canWrite() || !strings.Contains(d.preview.plan.Result.Message, "is already active as") {
		t.Fatalf("idempotent enable-bound: %+v", d)
	}
	hs.Press("esc")
	hs.Press("B", "down", "enter", "y") // review: human-only binding with overrides
	act = hs.m.view.state.Active()
	if len(act) != 4 || act[3].Snapshot.BindingID() != "review" {
		t.Fatalf("bound review: %+v", act)
	}
}

func TestRefusals(t *testing.T) {
	// Untrusted: the preview says why and cannot be confirmed.
	hs := newHarness(t, 160, 48, false)
	file := hs.mainSession()
	size := fileSize(t, file)
	hs.selectCapability("global:plain-english")
	hs.Press("A")
	hs.Type("x")
	hs.Press("enter")
	d := hs.preview()
	if d == nil || d.preview.canWrite() || !strings.Contains(strings.Join(d.preview.problems, " "), capability.MsgUntrustedActivate) {
		t.Fatalf("untrusted: %+v", d)
	}
	hs.Press("y", "esc")
	if fileSize(t, file) != size {
		t.Fatal("untrusted project written")
	}
	if !strings.Contains(hs.m.View(), "project not trusted") {
		t.Error("the status line does not say the project is untrusted")
	}

	// A live file: refused in the preview.
	hs = newHarness(t, 160, 48, true)
	file = hs.mainSession()
	hs.m.now = time.Now
	now := time.Now()
	if err := os.Chtimes(file, now, now); err != nil {
		t.Fatal(err)
	}
	hs.selectCapability("project:test-runner")
	hs.Press("+")
	if d := hs.preview(); d == nil || d.preview.canWrite() || !strings.Contains(strings.Join(d.preview.problems, " "), "Pi may be running") {
		t.Fatalf("live: %+v", d)
	}
	// The panel has no override; it says what to do instead.
	if problems := strings.Join(hs.preview().preview.problems, " "); !strings.Contains(problems, "Close Pi") || !strings.Contains(problems, "--force") {
		t.Errorf("the live refusal does not say how to proceed: %s", problems)
	}
	hs.Press("esc")

	// Changed since read: the append's guard refuses and nothing lands.
	hs = newHarness(t, 160, 48, true)
	file = hs.mainSession()
	hs.selectCapability("project:test-runner")
	hs.Press("+")
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"label","targetId":"x","id":"feedbeef","parentId":null,"timestamp":"2026-11-27T10:00:00.000Z"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	old := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	_ = os.Chtimes(file, old, old)
	size = fileSize(t, file)
	hs.Press("y")
	if !hs.m.statusErr || !strings.Contains(hs.m.status, "changed since it was read") || fileSize(t, file) != size {
		t.Fatalf("stale guard: %q", hs.m.status)
	}

	// Not at the leaf: actions are refused up front.
	s, _ := session.Open(file)
	hs.follow(file, s.Entries[3].ID)
	hs.Press("R")
	if hs.dialogOpen() || !strings.Contains(hs.m.status, "select its leaf") {
		t.Fatalf("not at the leaf: %q", hs.m.status)
	}
}

func TestEditSaveConflictKeepsTheDraft(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.selectCapability("project:test-runner")
	hs.Press("enter")
	if hs.m.edit == nil || !hs.m.CapturesInput() {
		t.Fatal("enter opens the editor with the name field focused")
	}
	hs.Type(" v2")
	path := filepath.Join(hs.layout.ProjectDir, ".pi/forge/capabilities/test-runner.json")
	raw, _ := os.ReadFile(path)
	if err := os.WriteFile(path, append(raw, ' '), 0o644); err != nil { // an edit behind our back
		t.Fatal(err)
	}
	hs.Press("ctrl+s")
	if hs.m.edit == nil || !strings.Contains(hs.m.edit.conflict, "changed on disk") {
		t.Fatalf("conflict: %+v", hs.m.edit)
	}
	if what, dirty := hs.m.Unsaved(); !dirty || !strings.Contains(what, "project:test-runner") {
		t.Fatal("the draft must be kept and guarded")
	}
	if after, _ := os.ReadFile(path); string(after) != string(raw)+" " {
		t.Fatal("a refused save wrote the file")
	}
}

func TestCreateEditToolsAndDelete(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.Press("a")
	hs.Type("lint")
	hs.Press("enter")
	e := hs.m.edit
	if e == nil || !e.create || e.id != "lint" {
		t.Fatalf("new editor: %+v", e)
	}
	hs.Type("Lint")        // name
	hs.Press("tab", "tab") // content
	hs.Type("Run the linter before committing.")
	hs.Press("tab")           // tools: read is first
	hs.Press("down", "space") // bash: +add
	hs.Press("ctrl+s")
	path := filepath.Join(hs.layout.ProjectDir, ".pi/forge/capabilities/lint.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("create: %v (status %q)", err, hs.m.status)
	}
	c, diags := capability.Parse(raw, "lint.json", resources.ScopeProject)
	if diags.HasErrors() || *c.Name != "Lint" || c.Content != "Run the linter before committing." || strings.Join(c.Tools.Add, ",") != "bash" {
		t.Fatalf("saved %s", raw)
	}
	if hs.m.edit != nil {
		t.Fatal("a successful save closes the editor")
	}
	hs.focusOn(paneLibrary)
	hs.selectCapability("project:lint")
	hs.Press("x")
	if _, ok := hs.m.dialogs.Top().(*confirmDialog); !ok {
		t.Fatal("delete asks first")
	}
	hs.Press("y")
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("delete: %v", err)
	}
}

func TestBindingsViewAndEnableFromIt(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.focusOn(paneDetail)
	hs.Press("b")
	view := hs.m.View()
	if !strings.Contains(view, "Bindings of project:guarded-worker") || !strings.Contains(view, "SOURCE project:write-access") {
		t.Fatalf("bindings view:\n%s", view)
	}
	// x would delete a binding in the Presets panel; here it does nothing.
	hs.Press("x")
	if hs.dialogOpen() {
		t.Fatal("x is not an action in the bindings view")
	}
	hs.Press("down", "+")
	if d := hs.preview(); d == nil || d.preview.op != (capstate.Operation{Kind: capstate.OpEnableBound, Arg: "review"}) {
		t.Fatalf("enable from the bindings view: %+v", d)
	}
}

func TestHelpFollowsFocus(t *testing.T) {
	hs := newHarness(t, 80, 24, true)
	names := func() string {
		var out []string
		for _, b := range hs.m.ShortHelp() {
			out = append(out, b.Help().Desc)
		}
		return strings.Join(out, ",")
	}
	if !strings.Contains(names(), "new capability") {
		t.Errorf("library help: %s", names())
	}
	hs.focusOn(paneSession)
	if !strings.Contains(names(), "disable") || !strings.Contains(names(), "reset all") {
		t.Errorf("session help: %s", names())
	}
	_ = common.KeyHint(hs.m.ShortHelp())
}

// An empty library says how to add a capability with the key the keymap
// binds to new (a, docs/KEYS.md), not a literal that outlived the key
// grammar.
func TestEmptyLibraryNamesTheNewKey(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	for _, dir := range []string{filepath.Join(hs.layout.ProjectDir, ".pi", "forge", "capabilities"), filepath.Join(hs.layout.ForgeDir, "capabilities")} {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	hs.Press("r")
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "No capabilities.") {
		t.Fatalf("the library is not empty:\n%s", view)
	}
	if want := "or press " + hs.m.keys.New.Help().Key + "."; hs.m.keys.New.Help().Key != "a" || !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
		t.Errorf("the empty library does not say %q:\n%s", want, view)
	}
}
