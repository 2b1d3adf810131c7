package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// branchesSession is the two-branch session of session/compare's tests.
const branchesSession = "../session/compare/testdata/branches.jsonl"

// checkGolden compares out with testdata/golden/NAME; UPDATE_GOLDEN=1
// rewrites it (review the diff: goldens change only on purpose).
func checkGolden(t *testing.T, name, out string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
	}
	if out != string(want) {
		t.Errorf("%s differs from the golden (UPDATE_GOLDEN=1 to accept):\n--- got\n%s\n--- want\n%s", name, out, want)
	}
}

func TestSessionDiffText(t *testing.T) {
	code, out, errOut := runCLI(t, "--agent-dir", t.TempDir(), "session", "diff", branchesSession+"#a0000005", "#b0000004")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkGolden(t, "session-diff.txt", out)
}

func TestSessionDiffJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "--agent-dir", t.TempDir(), "session", "diff", branchesSession+"#a0000005", branchesSession+"#b0000004", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	v, err := jsonv.Parse([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(*jsonv.Object)
	if got := strings.Join(obj.Keys(), ","); got != "forkPoint,a,b" {
		t.Fatalf("keys %s", got)
	}
	fp, _ := obj.Get("forkPoint")
	a, _ := obj.Get("a")
	if fp != "r0000003" || strings.Join(a.(*jsonv.Object).Keys(), ",") != "leaf,entries,messages,toolCalls,filesTouched,tokens,cost,durationMs,models,lastText" {
		t.Fatalf("fork point %v, side keys %v", fp, a.(*jsonv.Object).Keys())
	}
	checkGolden(t, "session-diff.json", out)
}

// TestSessionDiffJSONEscapesFormatCharacters: the last text comes from the
// file; a bidi override in it must reach the terminal as an escape.
func TestSessionDiffJSONEscapesFormatCharacters(t *testing.T) {
	data, err := os.ReadFile(branchesSession)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bidi.jsonl")
	hostile := strings.Replace(string(data), "fails one test.", "fails \u202eone\u0085 test.", 1)
	if err := os.WriteFile(path, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "--agent-dir", t.TempDir(), "session", "diff", path+"#a0000005", "#b0000004", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.ContainsRune(out, '\u202e') || strings.ContainsRune(out, '\u0085') || !strings.Contains(out, `fails \u202eone\u0085 test.`) {
		t.Fatalf("format characters not escaped: %q", out)
	}
	code, out, _ = runCLI(t, "--agent-dir", t.TempDir(), "session", "diff", path+"#a0000005", "#b0000004")
	if code != exitOK || strings.ContainsRune(out, '\u202e') || strings.ContainsRune(out, '\u0085') {
		t.Fatalf("text output carries format characters (exit %d): %q", code, out)
	}
}

func emptySession(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(path, []byte(`{"type":"session","version":3,"id":"e1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSessionDiffRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"empty entry", []string{branchesSession + "#", "#b0000004"}, "empty entry"},
		{"A names no file", []string{"#a0000005", "#b0000004"}, "names no session"},
		{"unknown entry", []string{branchesSession + "#nope", "#b0000004"}, `no entry "nope"`},
		{"missing file", []string{"/nonexistent/x.jsonl#a", "#b"}, "x.jsonl"},
		{"unrelated", []string{branchesSession + "#a0000005", "testdata/session.jsonl"}, "neither is a fork of the other"},
		{"empty session", []string{emptySession(t), branchesSession}, "has no entries"},
	} {
		code, _, errOut := runCLI(t, append([]string{"--agent-dir", t.TempDir(), "session", "diff"}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, errOut, exitUsage, c.want)
		}
	}
}

// Both commands take a session id prefix as every session argument does,
// and answer as with the file.
func TestSessionDiffAndCompositionTakeAnID(t *testing.T) {
	args, layout := demoArgs(t)
	file := filepath.Join(layout.SessionDir, filepath.Base(demoSession))
	const prefix = "01a21c48"
	for _, cmd := range [][]string{
		{"session", "diff", "%s#2e32a9eb", "#a37d5e1c", "--json"},
		{"session", "diff", "%s#2e32a9eb", "%s#a37d5e1c"},
		{"session", "composition", "%s", "--leaf", "c0430f5a", "--json"},
	} {
		run := func(arg string) (int, string, string) {
			argv := make([]string, len(cmd))
			for i, a := range cmd {
				argv[i] = strings.ReplaceAll(a, "%s", arg)
			}
			return runCLI(t, in(args, argv...)...)
		}
		code, want, errOut := run(file)
		if code != exitOK {
			t.Fatalf("%v with the file: exit %d: %s", cmd, code, errOut)
		}
		if code, got, errOut := run(prefix); code != exitOK || got != want {
			t.Errorf("%v with the id prefix: exit %d %s; output differs: %v", cmd, code, errOut, got != want)
		}
	}
}
