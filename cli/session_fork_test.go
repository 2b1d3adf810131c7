package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
)

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestSessionForkWritesANewSessionAndNeverTouchesTheSource(t *testing.T) {
	args, layout := demoArgs(t)
	src := mainSession(t, layout)
	backdate(t, src)
	before, _ := os.ReadFile(src)
	fi0, _ := os.Stat(src)
	s, err := session.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	leaf := s.Entries[len(s.Entries)/2].ID

	// By a unique prefix of the session id, as session show resolves it.
	code, out, errOut := runCLI(t, in(args, "session", "fork", s.Header.ID[:13], "--leaf", leaf, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	keys := []string{}
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, []string{"command", "file", "parentSession", "sessionId"}) {
		t.Fatalf("keys %v", keys)
	}
	file := got["file"].(string)
	if got["parentSession"] != src || filepath.Dir(file) != filepath.Dir(src) || got["command"] != "pi --session "+session.ShellQuote(file) {
		t.Fatalf("output %v", got)
	}
	if !strings.HasSuffix(file, "_"+got["sessionId"].(string)+".jsonl") {
		t.Fatalf("file %s for id %v", file, got["sessionId"])
	}
	fork, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	if fork.Header.ParentSession != src || fork.Header.ID != got["sessionId"] || fork.Header.Cwd != s.Header.Cwd {
		t.Fatalf("header %+v", fork.Header)
	}
	var forkLeafPath []string
	for _, i := range fork.PathTo(fork.LeafIndex()) {
		if e := fork.Entries[i]; e.Type != session.TypeLabel {
			forkLeafPath = append(forkLeafPath, e.ID)
		}
	}
	li, _ := s.IndexOf(leaf)
	var srcPath []string
	for _, i := range s.PathTo(li) {
		if e := s.Entries[i]; e.Type != session.TypeLabel {
			srcPath = append(srcPath, e.ID)
		}
	}
	if !reflect.DeepEqual(forkLeafPath, srcPath) {
		t.Fatalf("fork path %v, source path %v", forkLeafPath, srcPath)
	}
	after, _ := os.ReadFile(src)
	fi1, _ := os.Stat(src)
	if !bytes.Equal(before, after) || !fi0.ModTime().Equal(fi1.ModTime()) || fi0.Mode() != fi1.Mode() {
		t.Fatal("the source changed")
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != fi0.Mode().Perm() {
		t.Errorf("fork mode %v, source %v", st.Mode(), fi0.Mode())
	}

	// The human form names the file and the command.
	code, out, errOut = runCLI(t, in(args, "session", "fork", src)...)
	if code != 0 || !strings.Contains(out, "continue it in Pi: pi --session ") || !strings.Contains(out, "forked ") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
}

func TestSessionForkDryRunWritesNothing(t *testing.T) {
	args, layout := demoArgs(t)
	src := mainSession(t, layout)
	names := dirNames(t, layout.SessionDir)
	code, out, errOut := runCLI(t, in(args, "session", "fork", src, "--dry-run")...)
	if code != 0 || !strings.Contains(out, "nothing was written") || !strings.Contains(out, "parent (root)") {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, in(args, "session", "fork", src, "--dry-run", "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil || h["parentSession"] != src || h["version"] != 3.0 {
		t.Fatalf("header %v %v", h, err)
	}
	if len(lines) < 10 {
		t.Fatalf("%d lines", len(lines))
	}
	if got := dirNames(t, layout.SessionDir); !reflect.DeepEqual(got, names) {
		t.Fatalf("the session directory changed: %v → %v", names, got)
	}
}

func TestSessionForkRefusals(t *testing.T) {
	_, layout := demoArgs(t)
	// An untrusted project: exit 4, nothing written next to the copy.
	_, untrusted := otherProject(t, layout, true)
	names := dirNames(t, filepath.Dir(untrusted))
	code, _, errOut := runCLI(t, append(globalsOnly(layout), "session", "fork", untrusted)...)
	if code != exitRefused || !strings.Contains(errOut, "not trusted") {
		t.Fatalf("untrusted: exit %d: %s", code, errOut)
	}
	if got := dirNames(t, filepath.Dir(untrusted)); !reflect.DeepEqual(got, names) {
		t.Fatalf("written in an untrusted project: %v", got)
	}
	// An entry that is not in the file, and a parent chain that loops.
	_, trusted := otherProject(t, layout, false)
	code, _, errOut = runCLI(t, append(globalsOnly(layout), "session", "fork", trusted, "--leaf", "nope")...)
	if code != exitRefused || !strings.Contains(errOut, "no entry nope") {
		t.Fatalf("unknown leaf: exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(trusted)
	loop := string(data) + `{"type":"custom","customType":"x","id":"loop0001","parentId":"loop0002","timestamp":"2026-11-30T10:00:00.000Z"}` + "\n" +
		`{"type":"custom","customType":"x","id":"loop0002","parentId":"loop0001","timestamp":"2026-11-30T10:00:00.000Z"}` + "\n"
	if err := os.WriteFile(trusted, []byte(loop), 0o644); err != nil {
		t.Fatal(err)
	}
	backdate(t, trusted)
	names = dirNames(t, filepath.Dir(trusted))
	code, _, errOut = runCLI(t, append(globalsOnly(layout), "session", "fork", trusted)...)
	if code != exitRefused || !strings.Contains(errOut, "loops back") || !strings.Contains(errOut, "nothing was written") {
		t.Fatalf("cycle: exit %d: %s", code, errOut)
	}
	if got := dirNames(t, filepath.Dir(trusted)); !reflect.DeepEqual(got, names) {
		t.Fatalf("written for a cycle: %v", got)
	}
}

// TestSessionForkKeepsHostileTextOffTheTerminal forks every session of the
// hostile corpus (moved to a project that exists): the listing, the JSON
// lines and the written file's report hold no escape or control, and a
// fork through a parent loop is refused (cycle.jsonl; in duplicates.jsonl
// the last copies of two ids name each other, so Pi's walk loops too).
func TestSessionForkKeepsHostileTextOffTheTerminal(t *testing.T) {
	_, layout := demoArgs(t)
	project := t.TempDir()
	names, err := filepath.Glob(filepath.Join("..", "test", "hostile", "sessions", "*.jsonl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("corpus: %v %v", names, err)
	}
	for _, name := range names {
		f := withHeaderCwd(t, name, project)
		for _, args := range [][]string{{"--dry-run"}, {"--dry-run", "--json"}, {}, {"--json"}} {
			code, out, errOut := runCLI(t, append(append(globalsOnly(layout), "session", "fork", f), args...)...)
			what := filepath.Base(name) + " " + strings.Join(args, " ")
			switch {
			case (filepath.Base(name) == "cycle.jsonl" || filepath.Base(name) == "duplicates.jsonl") && code == exitRefused && strings.Contains(errOut, "loops back"):
			case code != 0:
				t.Errorf("%s: exit %d: %s", what, code, errOut)
			}
			hostile.AssertClean(t, what+" (stdout)", out)
			hostile.AssertClean(t, what+" (stderr)", errOut)
		}
	}
}
