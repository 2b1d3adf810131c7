package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
)

// ownSession makes the test session one of the workbench's project (its
// header's cwd), old enough not to look live, gives anthropic a
// placeholder key and selects entry (the leaf when "").
func ownSession(t testing.TB, hs *harness, entry string) {
	t.Helper()
	t.Setenv("ANTHROPIC_API_KEY", "")
	data, err := os.ReadFile(hs.sessFile)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"cwd":"/home/ada/projects/alpha-app"`, `"cwd":"`+hs.com.Workspace.Cwd+`"`, 1)
	if err := os.WriteFile(hs.sessFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(hs.sessFile, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(hs.com.Workspace.AgentDir, "auth.json"), []byte(`{"anthropic":{"type":"api_key","key":"placeholder"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if entry == "" {
		entry = "e0000005"
	}
	hs.com.Selection = common.Selection{SessionFile: hs.sessFile, SessionName: "review", EntryID: entry, AtLeaf: entry == "e0000005"}
	hs.Send(common.SelectionChangedMsg{Selection: hs.com.Selection})
}

// dialogText is the open dialog's title and body ("" when none is open).
func dialogText(hs *harness) string {
	d := hs.m.topDialog()
	if d == nil {
		return ""
	}
	return d.title + "\n" + d.body
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// + on a profile shows pi-forge's preflight and the entries it will
// append before anything is written; y appends them through the guarded
// append, and the session then reports the profile as last applied, as
// the CLI's profile status reads it.
func TestUseProfileShowsThePlanThenAppends(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	hs.openProfile("reviewer")
	before := readFile(t, hs.sessFile)
	hs.Press("+")
	d := hs.m.topDialog()
	if d == nil || d.kind != dialogConfirm {
		t.Fatalf("+ opened no confirmation; status %q", statusText(hs))
	}
	view := dialogText(hs)
	for _, want := range []string{"Apply profile project:reviewer?", "will be appended", "pi-forge-agent-profile-state", "pi-forge-prompt-stack-state"} {
		if !strings.Contains(view, want) {
			t.Errorf("the dialog does not say %q:\n%s", want, view)
		}
	}
	if readFile(t, hs.sessFile) != before {
		t.Fatal("the session was written before the confirmation")
	}
	hs.Press("y")
	if got := statusText(hs); !strings.Contains(got, "pi-forge: applied profile project:reviewer once") {
		t.Fatalf("status %q", got)
	}
	s, err := session.Open(hs.sessFile)
	if err != nil {
		t.Fatal(err)
	}
	st := replay.ProfileStateAt(s, s.LeafIndex())
	prov, ok := profile.ParseProvenance(st.Provenance)
	if !st.Found || !ok || prov.ProfileID != "reviewer" {
		t.Fatalf("the session records no provenance of reviewer: %+v", st)
	}
	if rt := replay.RuntimeStateAt(s, s.LeafIndex()); rt.ThinkingLevel != "medium" {
		t.Fatalf("thinking level at the new leaf is %q, not the profile's medium", rt.ThinkingLevel)
	}
}

// In an untrusted project + says why nothing will be written, in the
// CLI's words, and no answer writes.
func TestUseProfileRefusedInAnUntrustedProject(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	hs.com.Workspace.Trust.Trusted = false
	hs.openProfile("reviewer")
	before := readFile(t, hs.sessFile)
	hs.Press("+")
	if d := hs.m.topDialog(); d == nil || d.kind != dialogNotice {
		t.Fatalf("no notice; status %q", statusText(hs))
	}
	if view := dialogText(hs); !strings.Contains(view, "project is not trusted; refusing to apply an agent profile") || !strings.Contains(view, "Nothing will be written") {
		t.Fatalf("the notice does not give the CLI's refusal:\n%s", view)
	}
	hs.Press("y")
	if hs.m.topDialog() != nil || readFile(t, hs.sessFile) != before {
		t.Fatal("the notice stayed open or the session was written")
	}
}

// A profile whose model has no credentials fails pi-forge's preflight:
// the errors show and nothing is written.
func TestUseProfilePreflightErrorWritesNothing(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	os.Remove(filepath.Join(hs.com.Workspace.AgentDir, "auth.json"))
	hs.openProfile("reviewer")
	before := readFile(t, hs.sessFile)
	hs.Press("+")
	view := dialogText(hs)
	if !strings.Contains(view, "failed preflight; runtime state was not changed") {
		t.Fatalf("the preflight failure does not show:\n%s", view)
	}
	hs.Press("y")
	if readFile(t, hs.sessFile) != before {
		t.Fatal("a failed preflight wrote to the session")
	}
}

// The change is appended at the leaf: with an earlier entry selected the
// panel says so and writes nothing.
func TestUseProfileAtAnEarlierEntryIsRefused(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "e0000004")
	hs.openProfile("reviewer")
	hs.Press("+")
	if view := dialogText(hs); !strings.Contains(view, "is not the session's leaf") {
		t.Fatalf("no refusal for a non-leaf entry:\n%s", view)
	}
}

// - forgets the applied profile ({provenance: null}); with nothing
// applied it says pi-forge's message and opens nothing.
func TestForgetProfile(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "")
	hs.openProfile("reviewer")
	hs.Press("-")
	if hs.m.topDialog() != nil || !strings.Contains(statusText(hs), "no last-applied profile provenance to forget") {
		t.Fatalf("forget with nothing applied: dialog %v, status %q", hs.m.topDialog() != nil, statusText(hs))
	}
	hs.Press("+", "y")
	s, _ := session.Open(hs.sessFile)
	leaf, _ := s.Leaf()
	hs.com.Selection.EntryID = leaf.ID
	hs.Press("-")
	if view := dialogText(hs); !strings.Contains(view, "Forget the last applied profile?") || !strings.Contains(view, "pi-forge-agent-profile-state") {
		t.Fatalf("the forget dialog:\n%s", view)
	}
	hs.Press("y")
	if !strings.Contains(statusText(hs), "forgot last-applied profile provenance") {
		t.Fatalf("status %q", statusText(hs))
	}
	s, _ = session.Open(hs.sessFile)
	st := replay.ProfileStateAt(s, s.LeafIndex())
	if _, ok := profile.ParseProvenance(st.Provenance); !st.Found || ok {
		t.Fatalf("the provenance was not forgotten: %+v", st)
	}
}

// c captures the selected entry as a new profile with its model,
// thinking level and the active Preset (not promptStack null), shown
// before the file is written.
func TestCaptureProfileTakesTheActivePreset(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	ownSession(t, hs, "e0000004")
	hs.openProfile("reviewer")
	hs.Press("c")
	hs.answerPrompt("from-entry")
	view := dialogText(hs)
	for _, want := range []string{"Save profile project:from-entry?", "anthropic/claude-sonnet-4-5", "preset: alpha", "will be written"} {
		if !strings.Contains(view, want) {
			t.Errorf("the dialog does not say %q:\n%s", want, view)
		}
	}
	path := filepath.Join(hs.com.Workspace.Cwd, ".pi", "forge", "agent-profiles", "from-entry.json")
	if _, err := os.Stat(path); err == nil {
		t.Fatal("the profile was written before the confirmation")
	}
	hs.Press("y")
	text := readFile(t, path)
	if !strings.Contains(text, `"promptStack": "alpha"`) {
		t.Fatalf("the saved profile does not name the active Preset:\n%s", text)
	}
	if !strings.Contains(statusText(hs), "saved current runtime as profile from-entry") {
		t.Fatalf("status %q", statusText(hs))
	}
}
