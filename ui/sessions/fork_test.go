package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// forkWorkspace is testWorkspace with a project directory that exists (a
// fork is refused for a project that does not): the test sessions' header
// cwd names it, and one earlier fork of "rounding" sits beside them.
func forkWorkspace(t *testing.T, trusted bool) (resources.Workspace, map[string]string) {
	t.Helper()
	root := t.TempDir()
	project := filepath.Join(root, "project")
	agent := filepath.Join(root, "agent")
	dir := filepath.Join(agent, "sessions", session.EncodeCwd(project))
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for name, file := range map[string]string{
		"rounding": "2026-11-27T10-00-00-000Z_01a2f000-0000-7000-8000-000000000001.jsonl",
		"currency": "2026-11-26T08-00-00-000Z_01a2f000-0000-7000-8000-000000000002.jsonl",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		data = bytes.Replace(data, []byte(`"cwd":"`+testCwd+`"`), []byte(`"cwd":"`+project+`"`), 1)
		p := filepath.Join(dir, file)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		written, _ := time.Parse("2006-01-02T15-04-05", file[:19])
		if err := os.Chtimes(p, written, written); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	// An earlier fork of rounding at e05, made by the same code.
	s, err := session.Open(paths["rounding"])
	if err != nil {
		t.Fatal(err)
	}
	at, _ := s.IndexOf("e05")
	f, err := session.PlanFork(s, at, session.ForkOptions{Now: time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC), Cwd: project,
		NewSessionID: func(time.Time) string { return "01a2f000-0000-7000-8000-00000000f0a1" }})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.File, f.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)
	os.Chtimes(f.File, old, old)
	paths["earlier-fork"] = f.File
	t.Setenv(session.EnvSessionDir, "")
	return resources.Workspace{Cwd: project, AgentDir: agent, Trust: resources.Trust{Trusted: trusted, Source: "test"}}, paths
}

// newForkHarness is newHarnessWith on forkWorkspace; pi says whether a
// `pi` executable is on PATH (a script that prints its arguments).
func newForkHarness(t *testing.T, w, h int, trusted, pi bool) (*harness, map[string]string) {
	t.Helper()
	bin := t.TempDir()
	if pi {
		script := "#!/bin/sh\necho \"fake pi: $*\"\n"
		if err := os.WriteFile(filepath.Join(bin, "pi"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	old := newForkSessionID
	newForkSessionID = func(time.Time) string { return "01a2f000-0000-7000-8000-0000000000ff" }
	t.Cleanup(func() { newForkSessionID = old })
	ws, paths := forkWorkspace(t, trusted)
	keys := keymap.DefaultSet()
	com := &common.Common{Styles: hsStyles(), Keys: &keys, Workspace: ws, Width: w, Height: h}
	m := New(com)
	m.SetSize(w, h)
	hs := &harness{Harness: uitest.ForPanel(t, m, com), com: com, m: m, now: testNow}
	com.Now = func() time.Time { return hs.now }
	hs.Run(m.Init())
	hs.Settle()
	hs.openFile(paths["rounding"])
	return hs, paths
}

// openFile opens a listed session with the picker, as the user does.
func (hs *harness) openFile(file string) {
	hs.TB().Helper()
	hs.focusOn(panePicker)
	hs.m.picker.moveToPath(file)
	hs.Press("enter")
	hs.Settle()
	if hs.m.ls == nil || hs.m.ls.file != file {
		hs.TB().Fatalf("%s did not open", file)
	}
}

// selectAt puts the timeline's cursor on entry id.
func (hs *harness) selectAt(id string) {
	hs.TB().Helper()
	hs.focusOn(paneTimeline)
	hs.Press("g")
	for range len(hs.m.ls.rows) {
		if hs.m.ls.sess.Entries[hs.m.currentEntry()].ID == id {
			return
		}
		hs.Press("down")
	}
	hs.TB().Fatalf("entry %s is not on the timeline", id)
}

func sessionFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(m)
	return m
}

// displayedAt makes the dialog name the fork as it would under the test
// sessions' own project (/home/ada/…) so the goldens do not hold the
// test's temporary directory: only the file shown changes.
func displayedAt(hs *harness) {
	d := hs.m.openForkDialog()
	plan := *d.plan
	plan.File = "/home/ada/.pi/agent/sessions/--home-ada-projects-demo-app--/" + filepath.Base(plan.File)
	d.plan = &plan
	d.confirm.Body = forkDialogBody(d)
}

func TestContinueInPiAsksWritesTheForkAndCopiesTheCommandWithoutPi(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		hs, paths := newForkHarness(t, size[0], size[1], true, false)
		dir := filepath.Dir(paths["rounding"])
		before := sessionFiles(t, dir)
		src, _ := os.ReadFile(paths["rounding"])
		fi0, _ := os.Stat(paths["rounding"])
		hs.selectAt("e07")
		hs.Press("C")
		d := hs.m.openForkDialog()
		if d == nil {
			t.Fatalf("no dialog; status %q", hs.m.status[paneTimeline].Text())
		}
		if !hs.m.CapturesInput() || !slices.Equal(sessionFiles(t, dir), before) {
			t.Fatal("the dialog must hold the keys and nothing may be written before yes")
		}
		want := filepath.Join(dir, "2026-12-01T12-00-00-000Z_01a2f000-0000-7000-8000-0000000000ff.jsonl")
		if d.plan.File != want {
			t.Fatalf("planned %s, want %s", d.plan.File, want)
		}
		real := d.plan
		displayedAt(hs)
		view := hs.view()
		for _, s := range []string{"Continue in Pi from entry e07?", "This will write a new session of", "pi is not on PATH"} {
			if !strings.Contains(view, s) {
				t.Errorf("the dialog does not say %q:\n%s", s, view)
			}
		}
		uitest.Golden(t, "fork_dialog_"+sizeName(size), view)
		hs.m.openForkDialog().plan = real

		var clip string
		hs.Intercept = func(msg tea.Msg) bool {
			if reflect.TypeOf(msg) == reflect.TypeOf(tea.SetClipboard("x")()) {
				clip = reflect.ValueOf(msg).String()
				return true
			}
			return false
		}
		hs.Press("y")
		hs.Settle()
		hs.Intercept = nil
		if clip != "pi --session "+want {
			t.Fatalf("clipboard %q", clip)
		}
		if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "pi is not on PATH: copied pi --session …/"+filepath.Base(want)) {
			t.Errorf("status %q", st)
		}
		fork, err := session.Open(want)
		if err != nil {
			t.Fatal(err)
		}
		if fork.Header.ParentSession != paths["rounding"] || fork.Header.ID != "01a2f000-0000-7000-8000-0000000000ff" {
			t.Fatalf("fork header %+v", fork.Header)
		}
		if leaf, _ := fork.Leaf(); leaf.ID != "e07" && leaf.Type != session.TypeLabel {
			t.Errorf("the fork ends at %s", leaf.ID)
		}
		if after, _ := os.ReadFile(paths["rounding"]); !bytes.Equal(after, src) {
			t.Fatal("the source changed")
		}
		if fi1, _ := os.Stat(paths["rounding"]); !fi1.ModTime().Equal(fi0.ModTime()) {
			t.Fatal("the source's mtime changed")
		}
		// The new session is listed under its parent, the cursor on it.
		if hs.m.picker.currentPath() != want {
			t.Errorf("picker cursor on %s", hs.m.picker.currentPath())
		}
		hs.focusOn(panePicker)
		uitest.Golden(t, "fork_picker_tree_"+sizeName(size), hs.view())
	}
}

func sizeName(s [2]int) string {
	return map[int]string{80: "80x24", 160: "160x48"}[s[0]]
}

func TestForkedSessionsListUnderTheirParent(t *testing.T) {
	hs, paths := newForkHarness(t, 120, 40, true, false)
	var order, prefixes []string
	for _, it := range hs.m.picker.list.Items() {
		order = append(order, it.path)
		prefixes = append(prefixes, it.fork)
	}
	i := slices.Index(order, paths["rounding"])
	if i < 0 || i+1 >= len(order) || order[i+1] != paths["earlier-fork"] || prefixes[i+1] != "└ " || prefixes[i] != "" {
		t.Fatalf("picker order %v prefixes %q", order, prefixes)
	}
}

func TestForkTreeDrawsNestedAndOrphanedForks(t *testing.T) {
	items := []session.ListItem{
		{Path: "/s/a"}, {Path: "/s/b", ParentSession: "/s/a"}, {Path: "/s/c"}, {Path: "/s/d", ParentSession: "/s/b"},
		{Path: "/s/e", ParentSession: "/s/a"}, {Path: "/s/f", ParentSession: "/elsewhere/x"},
		{Path: "/s/g", ParentSession: "/s/h"}, {Path: "/s/h", ParentSession: "/s/g"},
	}
	got, prefix := forkTree(items)
	var rows []string
	for i, it := range got {
		rows = append(rows, prefix[i]+it.Path)
	}
	want := []string{"/s/a", "├ /s/b", "│ └ /s/d", "└ /s/e", "/s/c", "⑂ /s/f", "⑂ /s/g", "└ /s/h"}
	if !slices.Equal(rows, want) {
		t.Fatalf("rows\n%q\nwant\n%q", rows, want)
	}
}

func TestContinueInPiHandsTheForkToPiOnPath(t *testing.T) {
	hs, paths := newForkHarness(t, 120, 40, true, true)
	hs.selectAt("e05")
	hs.Press("C")
	if d := hs.m.openForkDialog(); d == nil || !strings.Contains(d.confirm.Body, "Then Pi opens it here") || !strings.HasSuffix(d.pi, "/pi") {
		t.Fatalf("dialog %+v", hs.m.openForkDialog())
	}
	hs.Press("y")
	hs.Settle()
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "running pi --session") {
		t.Fatalf("status %q", st)
	}
	if len(sessionFiles(t, filepath.Dir(paths["rounding"]))) != 4 {
		t.Fatal("the fork was not written")
	}
	// Back from Pi: the sessions are read again and the status says so.
	hs.Send(piExitedMsg{file: paths["rounding"]})
	hs.Settle()
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "back from Pi") {
		t.Fatalf("status %q", st)
	}
}

func TestContinueInPiNoWritesNothingAndUntrustedIsRefused(t *testing.T) {
	hs, paths := newForkHarness(t, 120, 40, true, false)
	dir := filepath.Dir(paths["rounding"])
	before := sessionFiles(t, dir)
	hs.selectAt("e05")
	hs.Press("C")
	hs.Press("j", "q", "3") // swallowed while the dialog asks
	if hs.m.openForkDialog() == nil || hs.Quit {
		t.Fatal("a key that does not answer closed the dialog")
	}
	hs.Press("n")
	hs.Settle()
	if hs.m.openForkDialog() != nil || !slices.Equal(sessionFiles(t, dir), before) {
		t.Fatal("no must close the dialog and write nothing")
	}
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "nothing was written") {
		t.Fatalf("status %q", st)
	}

	hs, paths = newForkHarness(t, 120, 40, false, false)
	dir = filepath.Dir(paths["rounding"])
	before = sessionFiles(t, dir)
	hs.selectAt("e05")
	hs.Press("C")
	hs.Settle()
	if hs.m.openForkDialog() != nil || !slices.Equal(sessionFiles(t, dir), before) {
		t.Fatal("an untrusted project must be refused before the dialog")
	}
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "is not trusted") {
		t.Fatalf("status %q", st)
	}
}

// addSession copies a hostile corpus session into the workspace's
// session directory with its header naming the workspace's project.
func addSession(t *testing.T, hs *harness, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "test", "hostile", "sessions", name))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"cwd":"/hostile"`), []byte(`"cwd":"`+hs.com.Workspace.Cwd+`"`), 1)
	p := filepath.Join(dir, "2026-03-01T10-00-00-000Z_"+strings.TrimSuffix(name, ".jsonl")+".jsonl")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	hs.focusOn(panePicker)
	hs.Press("r")
	hs.Settle()
	hs.openFile(p)
	return p
}

func TestContinueInPiRefusesABrokenTreeAndKeepsHostileTextOffTheScreen(t *testing.T) {
	hs, paths := newForkHarness(t, 160, 48, true, false)
	dir := filepath.Dir(paths["rounding"])
	addSession(t, hs, dir, "cycle.jsonl")
	before := sessionFiles(t, dir)
	hs.selectAt("u") // below the loop a → b → c → a
	hs.Press("C")
	hs.Settle()
	if hs.m.openForkDialog() != nil || !slices.Equal(sessionFiles(t, dir), before) {
		t.Fatal("a fork through a parent loop must be refused before the dialog")
	}
	if st := hs.m.status[paneTimeline].Text(); !strings.Contains(st, "loops back") || !strings.Contains(st, "nothing was written") {
		t.Fatalf("status %q", st)
	}

	addSession(t, hs, dir, "escapes.jsonl")
	hs.focusOn(paneTimeline)
	hs.Press("G", "C")
	if hs.m.openForkDialog() == nil {
		t.Fatalf("no dialog: %q", hs.m.status[paneTimeline].Text())
	}
	hostile.AssertCleanView(t, "fork dialog over escapes.jsonl", hs.view())
}
