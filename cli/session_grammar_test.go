package cli

import (
	"strings"
	"testing"
)

// TestEverySessionFlagTakesAnID: every flag or argument that names a
// session takes a file, an id or a unique prefix of one through the one
// resolver, and answers the same as with the file.
func TestEverySessionFlagTakesAnID(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	const prefix = "01a21c48" // the main demo session
	for _, cmd := range [][]string{
		{"capability", "status", "--json", "--session", "%s"},
		{"profile", "status", "--json", "--session", "%s"},
		{"preset", "preview", "guarded-worker", "--session", "%s"},
		{"preset", "compile", "guarded-worker", "--session", "%s"},
		{"preset", "list", "--json", "--session", "%s"},
		// These print fresh ids or the file's path: compared by exit code.
		{"capability", "enable", "test-runner", "--dry-run", "--force", "--json", "--session", "%s"},
		{"preset", "use", "pi-mirror", "--dry-run", "--force", "--json", "--session", "%s"},
		{"payload", "show", "session:%s"},
	} {
		exact := cmd[0] != "payload" && !strings.Contains(strings.Join(cmd, " "), "--dry-run")
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
		if code, got, errOut := run(prefix); code != exitOK || (exact && got != want) {
			t.Errorf("%v with the id prefix %s: exit %d %s; output differs from the file's: %v", cmd, prefix, code, errOut, got != want)
		}
		code, _, errOut = run("01a2")
		if code != exitUsage || !strings.Contains(errOut, "3 sessions match") {
			t.Errorf("%v 01a2: exit %d %q, want the ambiguity", cmd, code, errOut)
		}
		// The candidates, one per line, by title and time, not by path.
		if !strings.Contains(errOut, "\n  01a21c48-87b8-7bf2-bec6-d1b0faeb6b39  ") || !strings.Contains(errOut, "Invoice rounding fix") || strings.Contains(errOut, ".jsonl") {
			t.Errorf("%v 01a2: the ambiguity does not list titles one per line:\n%s", cmd, errOut)
		}
	}
}

// TestReadsDefaultWritesNever: a command that reads one session reads the
// project's newest when none is named and says which on stderr; a command
// that writes never picks one.
func TestReadsDefaultWritesNever(t *testing.T) {
	args, _ := demoArgs(t)
	const newest = "01a2219b" // Pre-release review, the newest demo session with the agent tree
	for _, cmd := range [][]string{
		{"capability", "status", "--json"},
		{"profile", "status", "--json"},
		{"session", "show", "--json"},
		{"session", "tree", "--json"},
		{"session", "stats", "--json"},
		{"session", "context", "--json"},
		{"agents", "list", "--json"},
	} {
		code, out, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitOK || !strings.Contains(errOut, "newest session, "+newest+` "Pre-release review"`) {
			t.Errorf("%v without a session: exit %d, stderr %q; want the newest named", cmd, code, errOut)
			continue
		}
		// The same as naming it (the id goes where the command takes it).
		named := append([]string{}, cmd...)
		if cmd[0] == "session" || cmd[0] == "agents" {
			named = append(named[:2:2], append([]string{newest}, cmd[2:]...)...)
		} else {
			named = append(named, "--session", newest)
		}
		if code, same, errOut := runCLI(t, in(args, named...)...); code != exitOK || same != out || strings.Contains(errOut, "newest") {
			t.Errorf("%v: naming the newest session gives another answer (exit %d %q)", named, code, errOut)
		}
	}
	for _, cmd := range [][]string{
		{"capability", "enable", "test-runner"},
		{"capability", "enable", "test-runner", "--dry-run"},
		{"capability", "disable", "write-access"},
		{"capability", "enable-bound", "write-access"},
		{"capability", "reset"},
		{"capability", "add", "Answer in French."},
		{"preset", "use", "none"},
	} {
		code, _, errOut := runCLI(t, in(args, cmd...)...)
		if code != exitUsage || !strings.Contains(errOut, "name the session to change with --session") {
			t.Errorf("%v without --session: exit %d %q, want %d and a request to name it", cmd, code, errOut, exitUsage)
		}
	}
}

// TestAllProjectsIsTheFlagEverywhere: session list takes --all-projects, as
// search does; --all keeps working and is no longer advertised.
func TestAllProjectsIsTheFlagEverywhere(t *testing.T) {
	args, _ := demoArgs(t)
	code, want, errOut := runCLI(t, in(args, "session", "list", "--all-projects", "--json")...)
	if code != exitOK {
		t.Fatalf("--all-projects: %d %s", code, errOut)
	}
	if code, got, _ := runCLI(t, in(args, "session", "list", "--all", "--json")...); code != exitOK || got != want {
		t.Errorf("--all no longer does what --all-projects does (exit %d)", code)
	}
	_, help, _ := runCLI(t, "session", "list", "--help")
	if !strings.Contains(help, "--all-projects") || strings.Contains(help, "--all ") {
		t.Errorf("session list --help:\n%s", help)
	}
	_, help, _ = runCLI(t, "search", "--help")
	if !strings.Contains(help, "--all-projects") {
		t.Errorf("search --help has no --all-projects")
	}
}
