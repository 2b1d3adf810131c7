package capabilities

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/test/hostile"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
)

// copySession copies the demo's main session with its header's cwd
// replaced by cwd and extra lines appended, backdated so it is not live.
func (hs *harness) copySession(cwd string, extra string) string {
	t := hs.TB()
	t.Helper()
	src := hs.mainSession()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if cwd != hs.layout.ProjectDir {
		data = bytes.Replace(data, []byte(`"cwd":`+strconv.Quote(hs.layout.ProjectDir)), []byte(`"cwd":`+strconv.Quote(cwd)), 1)
	}
	data = append(data, extra...)
	out := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(out, old, old); err != nil {
		t.Fatal(err)
	}
	return out
}

// previewProblems opens the enable preview of the selected capability and
// returns its problems (the preview must not be confirmable).
func (hs *harness) enableProblems(key string) string {
	t := hs.TB()
	t.Helper()
	hs.selectCapability(key)
	hs.Press("+")
	d := hs.preview()
	if d == nil {
		t.Fatalf("no preview: %+v (status %q)", d, hs.m.status)
	}
	if d.preview.canWrite() {
		t.Fatalf("the preview can be confirmed: %+v", d.preview)
	}
	return strings.Join(d.preview.problems, " ")
}

// TestActionsRefuseAnotherProjectsSession: the panel works in the
// workbench's project; a session of another project is refused naming
// both, and confirming writes nothing.
func TestActionsRefuseAnotherProjectsSession(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	other := t.TempDir()
	file := hs.copySession(other, "")
	hs.follow(file, "")
	size := fileSize(t, file)
	problems := hs.enableProblems("project:review-mode")
	if !strings.Contains(problems, other) || !strings.Contains(problems, hs.layout.ProjectDir) {
		t.Fatalf("problems must name both projects: %s", problems)
	}
	hs.Press("y", "esc")
	if fileSize(t, file) != size {
		t.Fatal("another project's session was written")
	}
	if !strings.Contains(ansi.Strip(hs.m.View()), "another project") {
		t.Error("the session pane does not say the session belongs to another project")
	}
}

// TestActionsRefuseAForeignLeaf: a session whose last entry has a numeric
// id cannot be continued; the preview says why.
func TestActionsRefuseAForeignLeaf(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	s, err := session.Open(hs.mainSession())
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := s.Leaf()
	file := hs.copySession(hs.layout.ProjectDir, `{"type":"message","id":7,"parentId":"`+leaf.ID+`","timestamp":"2026-11-27T10:00:00.000Z","message":{"role":"user","content":"x","timestamp":1795769200000}}`+"\n")
	hs.follow(file, "")
	size := fileSize(t, file)
	if problems := hs.enableProblems("project:review-mode"); !strings.Contains(problems, "numeric id") || !strings.Contains(problems, "Pi continues from that entry") {
		t.Fatalf("problems: %s", problems)
	}
	hs.Press("y", "esc")
	if fileSize(t, file) != size {
		t.Fatal("the file was written")
	}
}

// TestActionsRefuseWhilePiRuns: a process showing itself as Pi in the
// project blocks the panel's actions, naming its pid.
func TestActionsRefuseWhilePiRuns(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	file := hs.mainSession()
	size := fileSize(t, file)
	pid := "pid " + strconv.Itoa(hostile.StartFakePi(t, hs.layout.ProjectDir))
	var problems string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		problems = hs.enableProblems("project:review-mode")
		hs.Press("esc")
		if strings.Contains(problems, pid) {
			break
		}
	}
	if !strings.Contains(problems, pid) || !strings.Contains(problems, "abandoned branch") {
		t.Fatalf("problems: %s", problems)
	}
	hs.Press("+", "y", "esc")
	if fileSize(t, file) != size {
		t.Fatal("the file was written while Pi runs")
	}
}

// TestSessionPaneSaysForgebenchEntriesWereAbandoned: after the panel's
// append, a Pi that held the session continues from its own leaf; the
// session pane then says the panel's entries sit on an abandoned branch.
func TestSessionPaneSaysForgebenchEntriesWereAbandoned(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	file := hs.mainSession()
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	piLeaf, _ := s.Leaf()
	hs.Press("A")
	hs.Type("Answer in French.")
	hs.Press("enter", "y")
	if !strings.HasPrefix(hs.m.status, "Added a manual directive: tools unchanged; its instruction goes with the next request (activation ") {
		t.Fatalf("add: %q", hs.m.status)
	}
	if strings.Contains(ansi.Strip(hs.m.View()), "abandoned branch") {
		t.Fatal("entries at the leaf are not abandoned")
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"type":"message","id":"0000bbb1","parentId":"` + piLeaf.ID + `","timestamp":"2026-11-27T11:00:00.000Z","message":{"role":"user","content":"next","timestamp":1795777200000}}` + "\n")
	f.Close()
	hs.focusOn(paneSession)
	hs.Press("r")
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "abandoned branch") || !strings.Contains(view, piLeaf.ID) {
		t.Fatalf("the session pane does not say so:\n%s", view)
	}
}
