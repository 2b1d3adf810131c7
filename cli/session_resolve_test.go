package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSessionCommandsResolveIDs: every command that takes a session file
// also takes a session id or a unique prefix of one, resolved by the same
// resolver as `agents list ROOT_SESSION` (the issue's contract says "as
// session commands do"); an unknown or ambiguous id is a usage error.
func TestSessionCommandsResolveIDs(t *testing.T) {
	args, layout := demoArgs(t)
	const rootID = "01a2219b-7aa3-71cb-a60b-a97d171ea8a4"
	root := filepath.Join(layout.SessionDir, "2026-11-28T10-02-47-331Z_"+rootID+".jsonl")
	for _, cmd := range [][]string{
		{"session", "show", "--json"},
		{"session", "tree", "--json"},
		{"session", "context", "--json"},
		{"session", "stats", "--json"},
		{"session", "export", "--format", "json"},
		{"agents", "list", "--json"},
	} {
		run := func(arg string) (int, string, string) {
			return runCLI(t, append(in(args, cmd[:2]...), append([]string{arg}, cmd[2:]...)...)...)
		}
		code, want, errOut := run(root)
		if code != exitOK {
			t.Fatalf("%s FILE: exit %d: %s", strings.Join(cmd, " "), code, errOut)
		}
		for _, id := range []string{rootID, "01a2219b", "01A2219B-7AA3"} {
			if code, out, errOut := run(id); code != exitOK || out != want {
				t.Errorf("%s %s: exit %d, stderr %q, output differs from the file's:\n%s", strings.Join(cmd, " "), id, code, errOut, out)
			}
		}
		// 01a2219b-bd agents' sessions live in the tree directory: agents
		// are addressed by path, never by session id.
		for _, bad := range []string{"ffff", "01a2219b-bd", "no/such/file.jsonl"} {
			if code, _, errOut := run(bad); code != exitUsage || !strings.Contains(errOut, "no such session") {
				t.Errorf("%s %s: exit %d (%q), want %d and 'no such session'", strings.Join(cmd, " "), bad, code, errOut, exitUsage)
			}
		}
		// The three demo sessions share 01a2.
		if code, _, errOut := run("01a2"); code != exitUsage || !strings.Contains(errOut, "3 sessions match") {
			t.Errorf("%s 01a2: exit %d (%q), want an ambiguity", strings.Join(cmd, " "), code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, in(args, "session", "tail", "ffff")...); code != exitUsage || !strings.Contains(errOut, "no such session") {
		t.Errorf("session tail ffff: exit %d (%q)", code, errOut)
	}
}
