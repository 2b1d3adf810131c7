package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExitCodesMeanOneThing is the table of issue 23: every command group ×
// situation → its one exit code. 0 ok, 1 the checked thing failed, 2 usage
// or no such thing (an unknown capability, Preset, profile, agent or
// session), 3 conflict, 4 refused for safety.
func TestExitCodesMeanOneThing(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	noTree := filepath.Join(layout.SessionDir, filepath.Base(file)) // the main session has no agent tree
	live := filepath.Join(t.TempDir(), "live.jsonl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(live, data, 0o600); err != nil { // just written, and not by forgebench
		t.Fatal(err)
	}
	cases := []struct {
		situation string
		argv      []string
		want      int
	}{
		// 0: ok.
		{"preset list", in(args, "preset", "list"), exitOK},
		{"capability status", in(args, "capability", "status", "--session", "01a21c48"), exitOK},
		{"profile status, newest session", in(args, "profile", "status"), exitOK},
		{"agents list, newest tree", in(args, "agents", "list"), exitOK},
		{"session show by prefix", in(args, "session", "show", "01a21c48"), exitOK},
		{"capability disable of nothing active (pi-forge's notice)", in(args, "capability", "disable", "nope", "--session", file, "--dry-run"), exitOK},
		// 1: the checked thing failed.
		{"preset validate, a Preset with errors", in(args, "preset", "validate", "broken-on-purpose"), exitFailed},
		{"preset use, a Preset with errors", in(args, "preset", "use", "broken-on-purpose", "--session", file, "--dry-run"), exitFailed},
		{"search without hits", in(args, "search", "zq-no-such-text-zq"), exitFailed},
		// 2: usage, or no such thing.
		{"unknown flag", in(args, "preset", "list", "--nope"), exitUsage},
		{"unknown capability (enable)", in(args, "capability", "enable", "nope", "--session", file), exitUsage},
		{"unknown capability (show)", in(args, "capability", "show", "nope"), exitUsage},
		{"unknown binding", in(args, "capability", "enable-bound", "nope", "--session", file), exitUsage},
		{"unknown Preset (use)", in(args, "preset", "use", "ghost", "--session", file), exitUsage},
		{"unknown Preset (show)", in(args, "preset", "show", "ghost"), exitUsage},
		{"unknown Preset (preview)", in(args, "preset", "preview", "ghost"), exitUsage},
		{"unknown profile", in(args, "profile", "show", "ghost"), exitUsage},
		{"unknown agent", in(args, "agents", "show", "ghost"), exitUsage},
		{"a session without an agent tree", in(args, "agents", "list", noTree), exitUsage},
		{"unknown session (argument)", in(args, "session", "show", "ffff"), exitUsage},
		{"unknown session (--session)", in(args, "capability", "status", "--session", "ffff"), exitUsage},
		{"unknown session (payload reference)", in(args, "payload", "show", "session:ffff"), exitUsage},
		{"ambiguous session prefix", in(args, "profile", "status", "--session", "01a2"), exitUsage},
		{"a write that names no session", in(args, "capability", "reset"), exitUsage},
		{"unknown entry", in(args, "session", "tree", file, "--leaf", "nope"), exitUsage},
		// 3: conflict.
		{"the session ends elsewhere than --leaf", in(args, "capability", "reset", "--session", file, "--leaf", "00000000"), exitConflict},
		// 4: refused for safety.
		{"untrusted project", in(args, "--no-trust", "capability", "enable", "plain-english", "--session", file), exitRefused},
		{"a session written a moment ago by something else", in(args, "capability", "enable", "test-runner", "--session", live), exitRefused},
	}
	// No such thing is said in the product's words, once, with pi-forge's
	// own text quoted as pi-forge's.
	words := map[string]string{
		"unknown capability (enable)": `unknown capability "nope" (pi-forge: Capability capability "nope" not found.)`,
		"unknown capability (show)":   `unknown capability "nope" (pi-forge: Capability capability "nope" not found.)`,
		"unknown Preset (use)":        `unknown Preset "ghost" (pi-forge: Unknown prompt stack: ghost)`,
		"unknown Preset (show)":       `unknown Preset "ghost" (pi-forge: Unknown prompt stack: ghost)`,
		"unknown profile":             `unknown profile "ghost" (pi-forge: Unknown agent profile: ghost)`,
		"preset use, a Preset with errors": "Preset project:broken-on-purpose has errors and cannot be activated:\n" +
			"    error [intro]: Duplicate item id: intro",
	}
	for _, c := range cases {
		if c.argv[len(c.argv)-1] == live { // the live window is 10 s
			now := time.Now()
			if err := os.Chtimes(live, now, now); err != nil {
				t.Fatal(err)
			}
		}
		code, out, errOut := runCLI(t, c.argv...)
		if code != c.want {
			t.Errorf("%s: exit %d, want %d\n%s%s", c.situation, code, c.want, out, errOut)
		}
		if w, ok := words[c.situation]; ok && !strings.Contains(errOut, "forgebench: "+w+"\n") {
			t.Errorf("%s: stderr %q, want %q", c.situation, errOut, w)
		}
	}
}
