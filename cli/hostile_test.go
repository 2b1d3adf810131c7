package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
)

// hostileArgs stages the hostile corpus and returns the global flags that
// point every command at it (the project trusted: a cloned repository with
// a .pi/forge is trusted by default, which is the attack).
func hostileArgs(t *testing.T) (hostile.Staged, []string) {
	t.Helper()
	st := hostile.Stage(t)
	return st, []string{"--cwd", st.Cwd, "--agent-dir", st.AgentDir, "--forge-dir", st.ForgeDir, "--trust"}
}

// runWithin runs the CLI and fails when it does not return in time (a FIFO
// or /dev/zero would keep it forever).
func runWithin(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCLI(t, args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("%v did not return", args)
		return 0, "", ""
	}
}

// Every human-readable line of every command, run over the hostile
// corpus, reaches the terminal without a raw ESC, BEL, C1 or bidi control;
// --json stays valid JSON with the same values, those characters escaped
// (jsonout_test.go checks every JSON command in detail).
func TestHostileCorpusThroughEveryCommand(t *testing.T) {
	savedMatch, savedWhole := jsregex.MatchTimeout, compile.RegexTimeLimit
	jsregex.MatchTimeout, compile.RegexTimeLimit = 50*time.Millisecond, 200*time.Millisecond
	defer func() { jsregex.MatchTimeout, compile.RegexTimeLimit = savedMatch, savedWhole }()

	st, g := hostileArgs(t)
	in := func(cmd ...string) []string { return append(append([]string{}, g...), cmd...) }
	var human, jsonOut [][]string
	human = append(human,
		[]string{"session", "list", "--all"}, []string{"session", "list"},
		[]string{"preset", "list"}, []string{"preset", "show", "osc52"}, []string{"preset", "validate", "--all"},
		[]string{"preset", "compile", "osc52"}, []string{"preset", "preview", "osc52"},
		[]string{"preset", "compile", "catastrophic"}, []string{"preset", "show", hostile.LongID},
		[]string{"capability", "list"}, []string{"capability", "show", "esc-cap"}, []string{"capability", "validate"},
		[]string{"capability", "bindings", "osc52"},
		[]string{"profile", "list"}, []string{"profile", "show", "esc-profile"}, []string{"profile", "validate"},
		[]string{"profile", "preview", "esc-profile"},
		[]string{"agents", "roles"}, []string{"agents", "config"},
	)
	jsonOut = append(jsonOut,
		[]string{"session", "list", "--all", "--json"}, []string{"preset", "list", "--json"},
		[]string{"preset", "show", "osc52", "--json"}, []string{"capability", "list", "--json"},
		[]string{"profile", "list", "--json"}, []string{"agents", "roles", "--json"},
	)
	sessions := []string{}
	for name, path := range st.Sessions {
		if strings.HasSuffix(name, ".jsonl") && !strings.Contains(name, "fifo") && !strings.Contains(name, "zero") {
			sessions = append(sessions, path)
		}
	}
	if st.EscapedName != "" {
		sessions = append(sessions, st.EscapedName)
	}
	for _, f := range sessions {
		human = append(human,
			[]string{"session", "show", f}, []string{"session", "tree", f}, []string{"session", "context", f},
			[]string{"session", "context", f, "--as-sent"},
			[]string{"session", "stats", f}, []string{"session", "export", f},
			// export --format json is printed verbatim: it must be terminal-safe too.
			[]string{"session", "export", f, "--format", "json"},
			[]string{"preset", "list", "--session", f}, []string{"session", "tree", f, "--leaf", "no-such-entry"},
			[]string{"preset", "compile", "osc52", "--session", f}, []string{"preset", "preview", "osc52", "--session", f},
			[]string{"capability", "status", "--session", f}, []string{"payload", "show", "session:" + f},
			[]string{"payload", "show", "preset:osc52@" + f}, []string{"payload", "diff", "session:" + f, "preset:osc52@" + f},
		)
		jsonOut = append(jsonOut,
			[]string{"session", "show", f, "--json"}, []string{"session", "tree", f, "--json"},
			[]string{"session", "context", f, "--json"}, []string{"session", "stats", f, "--json"},
			[]string{"session", "context", f, "--as-sent", "--json"},
		)
	}
	for _, cmd := range human {
		code, out, errOut := runWithin(t, in(cmd...)...)
		what := strings.Join(cmd, " ")
		if len(what) > 120 {
			what = what[:120] + "…"
		}
		wantUsage := cmd[len(cmd)-1] == "no-such-entry"
		if code > exitFailed && !(wantUsage && code == exitUsage) {
			t.Errorf("%s: exit %d: %s", what, code, errOut)
		}
		hostile.AssertClean(t, what+" (stdout)", out)
		hostile.AssertClean(t, what+" (stderr)", errOut)
	}
	for _, cmd := range jsonOut {
		code, out, errOut := runWithin(t, in(cmd...)...)
		if code > exitFailed || !json.Valid([]byte(out)) {
			t.Errorf("%v: exit %d, valid JSON %v: %s", cmd, code, json.Valid([]byte(out)), errOut)
		}
		hostile.AssertClean(t, strings.Join(cmd, " ")+" (stdout)", out)
		hostile.AssertClean(t, strings.Join(cmd, " ")+" (stderr)", errOut)
	}
	// The project's role files were read (and the /dev/zero one refused).
	if _, out, errOut := runCLI(t, in("agents", "roles")...); !strings.Contains(out, "evil-role") ||
		(st.Special["role-zero"] != "" && !strings.Contains(errOut, "not a regular file")) {
		t.Errorf("agents roles did not read the hostile roles:\n%s\n%s", out, errOut)
	}
	// --json keeps file text exact (JSON escaping only).
	_, out, _ := runCLI(t, in("preset", "show", "osc52", "--json")...)
	if !strings.Contains(out, `\u001b]52;c;aGFja2Vk\u0007`) {
		t.Errorf("preset show --json lost the exact name")
	}
	// C1 and bidi controls too, as escapes (issue 20: they were raw).
	_, out, _ = runCLI(t, in("session", "show", st.Sessions["raw-c1-bidi.jsonl"], "--json")...)
	var shown struct{ Name string }
	if !strings.Contains(out, `\u009b31m \u0085 bidi \u202e\u2066\u200f\u061c end`) ||
		json.Unmarshal([]byte(out), &shown) != nil || shown.Name != "raw C1 \u009b31m \u0085 bidi \u202e\u2066\u200f\u061c end" {
		t.Errorf("session show --json: the name is not the same value, escaped: %s", out)
	}
}

// Special files given as session paths are refused at once with exit 4,
// and `session list` reports them instead of hanging.
func TestHostileSpecialFilesAreRefused(t *testing.T) {
	st, g := hostileArgs(t)
	in := func(cmd ...string) []string { return append(append([]string{}, g...), cmd...) }
	for _, role := range []string{"session-fifo", "session-zero"} {
		path, ok := st.Special[role]
		if !ok {
			t.Skipf("no %s on this platform", role)
		}
		for _, cmd := range [][]string{{"session", "show", path}, {"session", "tree", path}, {"session", "export", path}, {"session", "context", path}, {"session", "tail", path}} {
			code, _, errOut := runWithin(t, in(cmd...)...)
			if code != exitRefused || !strings.Contains(errOut, "not a regular file") {
				t.Errorf("%s %s: exit %d, %q", cmd[1], filepath.Base(path), code, errOut)
			}
		}
	}
	code, out, _ := runWithin(t, in("session", "list", "--all")...)
	if code != exitOK || !strings.Contains(out, "not a regular file") {
		t.Errorf("session list: exit %d:\n%s", code, out)
	}
	// A file that could not be read has no activity time and no count:
	// it said "0001-01-01 00:00  ~0 msgs", as if it were a real, empty session.
	if strings.Contains(out, "0001-01-01") || strings.Contains(out, "~0 msgs") {
		t.Errorf("session list shows a zero time or count for an unreadable file:\n%s", out)
	}
}

// session tail prints every line of the hostile sessions terminal-safe, in
// both forms; --json keeps each line's JSON value.
func TestHostileTailLines(t *testing.T) {
	st := hostile.Stage(t)
	for _, name := range []string{"escapes.jsonl", "raw-c1-bidi.jsonl"} {
		data, err := os.ReadFile(st.Sessions[name])
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			for _, asJSON := range []bool{false, true} {
				var out bytes.Buffer
				var w io.Writer = &out
				if asJSON { // Run gives a JSON command the JSON writer
					w = newJSONWriter(&out)
				}
				(&SessionTailCmd{JSON: asJSON}).printLine(w, session.TailLine{Data: line})
				hostile.AssertClean(t, fmt.Sprintf("tail (json %v) of %s", asJSON, name), out.String())
				if !asJSON {
					continue
				}
				want, err := jsonv.Parse(line)
				if err != nil {
					continue // a malformed line: escaped, not parsed
				}
				got, err := jsonv.Parse(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
				if err != nil || jsonv.Stringify(got) != jsonv.Stringify(want) {
					t.Errorf("tail --json changed a line's value (%v): %s", err, out.String())
				}
			}
		}
	}
}

// Ids of 235–250 characters failed with exit 1 (the temporary name was too
// long); 251+ with exit 4 and a message about symbolic links. Now the
// first work and the others say the id is too long for the file system.
func TestLongIDsThroughTheCLI(t *testing.T) {
	_, g := hostileArgs(t)
	in := func(cmd ...string) []string { return append(append([]string{}, g...), cmd...) }
	for _, n := range []int{235, 250} {
		id := strings.Repeat("n", n)
		if code, _, errOut := runCLI(t, in("preset", "new", id)...); code != exitOK {
			t.Errorf("preset new with a %d-character id: exit %d %q", n, code, errOut)
		}
		if code, _, errOut := runCLI(t, in("preset", "fork", id, id[:n-1]+"f")...); code != exitOK {
			t.Errorf("preset fork to a %d-character id: exit %d %q", n, code, errOut)
		}
	}
	for _, cmd := range [][]string{
		{"preset", "new", strings.Repeat("x", 251)},
		{"preset", "fork", "osc52", strings.Repeat("y", 300)},
		{"capability", "new", strings.Repeat("z", 251), "--content", "x"},
	} {
		code, _, errOut := runCLI(t, in(cmd...)...)
		if code != exitRefused || !strings.Contains(errOut, "id too long for this file system") || strings.Contains(errOut, "symbolic link") {
			t.Errorf("%s %s: exit %d %q", cmd[0], cmd[1], code, errOut)
		}
	}
}

// The write and report commands also print file-derived text: legacy file
// names in migrate-stacks, a template's output, refused deletes and forks.
func TestHostileWriteAndReportCommands(t *testing.T) {
	st, g := hostileArgs(t)
	in := func(cmd ...string) []string { return append(append([]string{}, g...), cmd...) }
	legacy := filepath.Join(st.Cwd, ".pi", "prompt-stacks")
	if err := os.MkdirAll(legacy, 0o755); err != nil {
		t.Fatal(err)
	}
	evilName := "evil\x1b]52;c;aGk=\x07\u202e.json"
	if err := os.WriteFile(filepath.Join(legacy, evilName), []byte(`{"schemaVersion":2,"id":"legacy-evil","name":"\u001b[2J","items":[]}`), 0o644); err != nil {
		t.Skipf("escaped file name: %v", err)
	}
	tmpl := filepath.Join(st.Dir, "evil.tmpl")
	if err := os.WriteFile(tmpl, []byte("Hello \x1b]52;c;aGk=\x07 \u009b31m \u202e {{ cwd }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"preset", "migrate-stacks", "--dry-run"},
		{"preset", "migrate-stacks"},
		{"template", "render", tmpl},
		{"preset", "delete", "osc52", "--revision", strings.Repeat("0", 64)},
		{"capability", "delete", "esc-cap", "--revision", strings.Repeat("0", 64)},
		{"profile", "delete", "esc-profile", "--revision", strings.Repeat("0", 64)},
		{"preset", "fork", "osc52", "osc52-copy"},
		{"preset", "new", "osc52"},
	} {
		code, out, errOut := runWithin(t, in(cmd...)...)
		what := strings.Join(cmd, " ")
		if code == exitUsage && strings.Contains(errOut, "not implemented") {
			continue
		}
		hostile.AssertClean(t, what+" (stdout)", out)
		hostile.AssertClean(t, what+" (stderr)", errOut)
	}
}

// An export written with -o is read later with cat or a pager: the file
// is as terminal-safe as standard output, in both formats.
func TestHostileExportFilesAreClean(t *testing.T) {
	st, g := hostileArgs(t)
	for name, f := range st.Sessions {
		if strings.Contains(name, "fifo") || strings.Contains(name, "zero") {
			continue
		}
		for _, format := range []string{"markdown", "json"} {
			out := filepath.Join(t.TempDir(), "export")
			if code, _, errOut := runWithin(t, append(append([]string{}, g...), "session", "export", f, "-o", out, "--format", format)...); code != exitOK {
				t.Errorf("%s (%s): exit %d %q", name, format, code, errOut)
				continue
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			hostile.AssertClean(t, name+" exported as "+format, string(data))
		}
	}
}
