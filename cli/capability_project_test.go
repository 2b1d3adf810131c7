package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/test/hostile"

	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/session"
)

// otherProject makes a second project next to the demo: its own project
// capability review-mode (with other content than the demo's) and a copy
// of the demo's main session whose header names it. untrusted adds a
// trust-requiring resource (.pi/settings.json) and no saved decision, so
// Pi — and forgebench — treat it as untrusted.
func otherProject(t *testing.T, layout demo.Layout, untrusted bool) (dir, file string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "project-b")
	caps := filepath.Join(dir, ".pi", "forge", "capabilities")
	if err := os.MkdirAll(caps, 0o755); err != nil {
		t.Fatal(err)
	}
	capJSON := `{"schemaVersion":1,"type":"pi-forge.capability","id":"review-mode","name":"B review","content":"Project B's own review rules.","tools":{"add":[],"remove":[]}}`
	if err := os.WriteFile(filepath.Join(caps, "review-mode.json"), []byte(capJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	if untrusted {
		if err := os.WriteFile(filepath.Join(dir, ".pi", "settings.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file = withHeaderCwd(t, mainSession(t, layout), dir)
	return dir, file
}

// withHeaderCwd copies a session into a new file whose header names cwd,
// backdated so the live window does not apply.
func withHeaderCwd(t *testing.T, src, cwd string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"cwd":`+strconv.Quote(s.Header.Cwd)), []byte(`"cwd":`+strconv.Quote(cwd)), 1)
	out := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(out, data, 0o644); err != nil {
		t.Fatal(err)
	}
	backdate(t, out)
	return out
}

func backdate(t *testing.T, file string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
}

// globalsOnly are the demo's agent and forge directories without --cwd:
// the command runs from the test's own directory (a neutral, trusted one).
func globalsOnly(layout demo.Layout) []string {
	return []string{"--agent-dir", layout.AgentDir, "--forge-dir", layout.ForgeDir}
}

// TestAppendTakesTheLibraryFromTheSessionsProject: without --cwd, an
// append takes its capabilities from the project the session's header
// names, not from the directory forgebench runs in.
func TestAppendTakesTheLibraryFromTheSessionsProject(t *testing.T) {
	_, layout := demoArgs(t)
	_, fileB := otherProject(t, layout, false)
	code, out, errOut := runCLI(t, in(globalsOnly(layout), "capability", "enable", "review-mode", "--session", fileB)...)
	if code != exitOK || !strings.HasPrefix(out, "Selected ") {
		t.Fatalf("enable from the session's project: %d %s %s", code, out, errOut)
	}
	data, _ := os.ReadFile(fileB)
	if !bytes.Contains(data, []byte("Project B's own review rules.")) || bytes.Contains(data[len(data)-4000:], []byte("Report findings with file")) {
		t.Fatal("the snapshot is not project B's capability")
	}
}

// TestAppendRefusesWhenCwdNamesAnotherProject: --cwd A with a session of
// project B is refused (exit 4) naming both, and nothing of A is written
// into B.
func TestAppendRefusesWhenCwdNamesAnotherProject(t *testing.T) {
	args, layout := demoArgs(t)
	dirB, fileB := otherProject(t, layout, false)
	before, _ := os.ReadFile(fileB)
	for _, argv := range [][]string{
		{"capability", "enable", "review-mode", "--session", fileB},
		{"capability", "add", "x", "--session", fileB},
		{"preset", "use", "none", "--session", fileB},
	} {
		code, out, errOut := runCLI(t, in(args, argv...)...)
		if code != exitRefused || !strings.Contains(errOut, dirB) || !strings.Contains(errOut, layout.ProjectDir) {
			t.Errorf("%v: exit %d (want %d), must name both projects: %s%s", argv, code, exitRefused, out, errOut)
		}
	}
	if after, _ := os.ReadFile(fileB); !bytes.Equal(before, after) {
		t.Fatal("project A's snapshots were written into project B's session")
	}
	// The same project named through a symbolic link is not another one.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dirB, link); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, in(globalsOnly(layout), "--cwd", link, "capability", "enable", "review-mode", "--session", fileB)...); code != exitOK {
		t.Fatalf("--cwd through a link: %d %s", code, errOut)
	}
}

// TestAppendRefusesAnUntrustedSessionProject: a session of an untrusted
// project is refused (exit 4) although forgebench runs in a trusted
// directory, and the message names the project.
func TestAppendRefusesAnUntrustedSessionProject(t *testing.T) {
	_, layout := demoArgs(t)
	dirB, fileB := otherProject(t, layout, true)
	before, _ := os.ReadFile(fileB)
	for _, argv := range [][]string{
		{"capability", "add", "x", "--session", fileB},
		{"capability", "enable", "global:plain-english", "--session", fileB},
		{"capability", "disable", "manual", "--session", fileB},
		{"preset", "use", "none", "--session", fileB},
	} {
		code, out, errOut := runCLI(t, in(globalsOnly(layout), argv...)...)
		if code != exitRefused || !strings.Contains(errOut, dirB) || !strings.Contains(strings.ToLower(errOut), "not trusted") {
			t.Errorf("%v: exit %d (want %d): %s%s", argv, code, exitRefused, out, errOut)
		}
	}
	if after, _ := os.ReadFile(fileB); !bytes.Equal(before, after) {
		t.Fatal("an untrusted project's session was written")
	}
	// Reset is pi-forge's way out of "Active capabilities require a trusted
	// project": it works untrusted, and status then has nothing to complain of.
	_, out, _ := runCLI(t, in(globalsOnly(layout), "--cwd", dirB, "capability", "status", "--session", fileB)...)
	if !strings.Contains(out, "Active capabilities require a trusted project. Use /capability reset to clear them, or trust the project.") {
		t.Fatalf("untrusted status lacks pi-forge's problem:\n%s", out)
	}
	if code, out, errOut := runCLI(t, in(globalsOnly(layout), "capability", "reset", "--session", fileB)...); code != exitOK ||
		strings.TrimSpace(out) != "Capabilities stopped; tools recomputed. Historical messages and completed work are not undone." {
		t.Fatalf("untrusted reset: %d %s%s", code, out, errOut)
	}
	if st := status(t, in(globalsOnly(layout), "--cwd", dirB), fileB); len(st["active"].([]any)) != 0 || st["problem"] != nil {
		t.Fatalf("after reset: %v %v", st["active"], st["problem"])
	}
	_, out, _ = runCLI(t, in(globalsOnly(layout), "--cwd", dirB, "capability", "status", "--session", fileB)...)
	if strings.Contains(out, "require a trusted project") {
		t.Fatalf("the problem outlived the reset:\n%s", out)
	}
	before, _ = os.ReadFile(fileB)
	// --trust trusts the session's project for the run, as Pi's --approve.
	if code, _, errOut := runCLI(t, in(globalsOnly(layout), "--trust", "capability", "add", "x", "--session", fileB)...); code != exitOK {
		t.Fatalf("--trust: %d %s", code, errOut)
	}
}

// TestAppendRefusesASessionWhoseProjectIsGone: Pi will not continue a
// session whose cwd does not exist; neither does forgebench append to it.
func TestAppendRefusesASessionWhoseProjectIsGone(t *testing.T) {
	_, layout := demoArgs(t)
	gone := filepath.Join(t.TempDir(), "gone")
	file := withHeaderCwd(t, mainSession(t, layout), gone)
	code, _, errOut := runCLI(t, in(globalsOnly(layout), "capability", "add", "x", "--session", file)...)
	if code != exitRefused || !strings.Contains(errOut, gone) || !strings.Contains(errOut, "does not exist") {
		t.Fatalf("missing project: %d %s", code, errOut)
	}
}

// TestAppendRefusesAForeignLeaf: a session whose last entry has a numeric
// id is refused with exit 3, the file unchanged, saying why; `session
// context` still follows it.
func TestAppendRefusesAForeignLeaf(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := s.Leaf()
	for _, id := range []string{`"id":7,`, `"id":"",`, ``} {
		data, _ := os.ReadFile(file)
		data = append(data, []byte(`{"type":"message",`+id+`"parentId":"`+leaf.ID+`","timestamp":"2026-11-27T10:00:00.000Z","message":{"role":"user","content":"foreign","timestamp":1795769200000}}`+"\n")...)
		bad := filepath.Join(t.TempDir(), "foreign.jsonl")
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		backdate(t, bad)
		for _, argv := range [][]string{
			{"capability", "add", "x", "--session", bad},
			{"capability", "reset", "--session", bad, "--force"},
			{"preset", "use", "none", "--session", bad},
		} {
			code, _, errOut := runCLI(t, in(args, argv...)...)
			if code != exitConflict || !strings.Contains(errOut, "Pi continues from that entry") {
				t.Errorf("%s %v: exit %d (want %d): %s", id, argv, code, exitConflict, errOut)
			}
		}
		if after, _ := os.ReadFile(bad); !bytes.Equal(after, data) {
			t.Fatal("the file changed")
		}
		if code, out, _ := runCLI(t, in(args, "session", "context", bad)...); code != exitOK || !strings.Contains(out, "foreign") {
			t.Fatalf("session context must still follow the leaf: %d", code)
		}
	}
}

// TestAppendRefusesWhilePiRunsInTheProject starts a process that shows
// itself as Pi does ("pi") in the session's project: the append is
// refused (exit 4) naming its pid, unless --force.
func TestAppendRefusesWhilePiRunsInTheProject(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	before, _ := os.ReadFile(file)
	pid := strconv.Itoa(hostile.StartFakePi(t, layout.ProjectDir))
	var code int
	var errOut string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		code, _, errOut = runCLI(t, in(args, "capability", "add", "x", "--session", file)...)
		if code != exitOK || strings.Contains(errOut, pid) {
			break
		}
	}
	if code != exitRefused || !strings.Contains(errOut, "pid "+pid) || !strings.Contains(errOut, "abandoned branch") || !strings.Contains(errOut, "--force") {
		t.Fatalf("running Pi: exit %d: %s", code, errOut)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("the file changed")
	}
	if code, _, errOut := runCLI(t, in(args, "capability", "add", "x", "--session", file, "--force")...); code != exitOK {
		t.Fatalf("--force: %d %s", code, errOut)
	}
}

// TestCapabilityStatusSaysWhenForgebenchEntriesWereAbandoned: after an
// offline change, a Pi that still held the session chains its next
// message from its in-memory leaf; status (text and JSON) then says the
// entries forgebench wrote sit on an abandoned branch.
func TestCapabilityStatusSaysWhenForgebenchEntriesWereAbandoned(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	piLeaf, _ := s.Leaf()
	if code, _, errOut := runCLI(t, in(args, "capability", "add", "Answer in French.", "--session", file)...); code != exitOK {
		t.Fatalf("add: %s", errOut)
	}
	st := status(t, args, file)
	if list, ok := st["abandonedWrites"].([]any); !ok || len(list) != 0 {
		t.Fatalf("nothing is abandoned yet: %v", st["abandonedWrites"])
	}
	after, _ := session.Open(file)
	var ours []string
	for i := len(s.Entries); i < len(after.Entries); i++ {
		ours = append(ours, after.Entries[i].ID)
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"type":"message","id":"0000bbb1","parentId":"` + piLeaf.ID + `","timestamp":"2026-11-27T11:00:00.000Z","message":{"role":"user","content":"next","timestamp":1795777200000}}` + "\n")
	f.Close()
	st = status(t, args, file)
	list, _ := st["abandonedWrites"].([]any)
	if len(list) != 1 {
		t.Fatalf("abandonedWrites %v", st["abandonedWrites"])
	}
	w := list[0].(map[string]any)
	ids, _ := w["entryIds"].([]any)
	if len(ids) != len(ours) || ids[0] != ours[0] || w["parentId"] != piLeaf.ID {
		t.Fatalf("abandoned %v, appended %v after %s", w, ours, piLeaf.ID)
	}
	code, out, _ := runCLI(t, in(args, "capability", "status", "--session", file)...)
	if code != exitOK || !strings.Contains(out, "abandoned branch") || !strings.Contains(out, ours[0]) {
		t.Fatalf("text: %s", out)
	}
}
