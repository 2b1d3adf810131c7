package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// hostileTree writes a project whose root session owns a pi-subagent tree
// with a hostile state.json: records keyed "/root" and "/root/Bad" (keys
// pi-subagent refuses), one agent whose sessionFile points at another
// project's session, one whose sessionFile is relative (to the tree), one
// plain agent, and a session file in sessions/ no record names. Every
// session mentions "wombat". It returns the CLI's workspace flags, the
// root file and the other project's session.
func hostileTree(t *testing.T) (env []string, root, foreign string) {
	t.Helper()
	cwd, agentDir := t.TempDir(), t.TempDir()
	dir := filepath.Join(agentDir, "sessions", session.EncodeCwd(cwd))
	const rootID, treeID = "01a2219b-7aa3-71cb-a60b-a97d171e0001", "01a2219b-bd13-79b5-a1d6-433f90ab0002"
	tree := filepath.Join(dir, rootID+".subagents", treeID)
	write := func(path string, lines ...string) string {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	header := func(id string) string {
		return `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-28T10:00:00.000Z","cwd":"` + cwd + `"}`
	}
	entry := func(id, parent, rest string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"custom","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-11-28T10:00:01.000Z",` + rest + `}`
	}
	user := func(id, parent, text string) string {
		return `{"type":"message","id":"` + id + `","parentId":"` + parent + `","timestamp":"2026-11-28T10:00:02.000Z","message":{"role":"user","content":"` + text + `","timestamp":1}}`
	}
	lines := []string{header(rootID),
		entry("m1", "", `"customType":"pi-subagent/tree-v2","data":{"version":1,"id":"`+treeID+`","rootSessionId":"`+rootID+`"}`)}
	parent := "m1"
	for _, name := range []string{"a", "b", "c", "root", "Bad"} {
		id := "reg-" + strings.ToLower(name)
		lines = append(lines, entry(id, parent, `"customType":"pi-subagent/registration-v2","data":{"treeId":"`+treeID+`","path":"/root/`+name+`"}`))
		parent = id
	}
	lines = append(lines, user("u1", parent, "the root wants a wombat"))
	root = write(filepath.Join(dir, "2026-11-28T10-00-00-000Z_"+rootID+".jsonl"), lines...)
	agentSession := func(name, anchor string) string {
		return write(filepath.Join(tree, "sessions", name+".jsonl"), header("01a2219b-0000-7000-8000-0000000000"+fmt.Sprintf("%02x", len(name))),
			entry("d1", "", `"customType":"pi-subagent/descriptor","data":{"version":5,"path":"/root/`+name+`","parentPath":"/root","anchorId":"`+anchor+`"}`),
			user("x1", "d1", "agent "+name+" saw a wombat"))
	}
	files := map[string]string{"a": agentSession("a", "reg-a"), "c": agentSession("c", "reg-c")}
	agentSession("ghost", "reg-a") // in sessions/, named by no record
	foreign = write(filepath.Join(t.TempDir(), "other-project.jsonl"), header("01a2219b-0000-7000-8000-00000000ffff"),
		user("f1", "", "another project's wombat"))
	record := func(path, anchor, sessionFile string) string {
		return fmt.Sprintf(`%q:{"descriptor":{"version":5,"path":%q,"parentPath":"/root","anchorId":%q},"sessionFile":%q,"status":"completed","mailbox":[]}`,
			path, path, anchor, sessionFile)
	}
	state := `{"version":1,"id":"` + treeID + `","rootSessionId":"` + rootID + `","rootMailbox":[],"agents":{` + strings.Join([]string{
		record("/root", "reg-root", files["a"]),
		record("/root/Bad", "reg-bad", files["a"]),
		record("/root/a", "reg-a", files["a"]),
		record("/root/b", "reg-b", foreign),
		record("/root/c", "reg-c", filepath.Join("sessions", "c.jsonl")),
	}, ",") + `}}`
	write(filepath.Join(tree, "state.json"), state)
	return []string{"--cwd", cwd, "--agent-dir", agentDir, "--forge-dir", t.TempDir()}, root, foreign
}

// agents list, agents show, agents transcript and search --agents agree on
// which agents exist and which file is each one's session.
func TestAgentCommandsAgreeOnAHostileTree(t *testing.T) {
	env, root, foreign := hostileTree(t)
	code, out, errOut := runCLI(t, append(env, "agents", "list", root, "--all", "--json")...)
	if code != exitOK {
		t.Fatalf("list: exit %d: %s", code, errOut)
	}
	var list []struct {
		Path, SessionFile string
		Visible           bool
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{} // agent → its session file, when read
	var paths []string
	for _, a := range list {
		paths = append(paths, a.Path)
		if !a.Visible {
			t.Errorf("%s hidden", a.Path)
		}
		if a.SessionFile != foreign {
			listed[a.Path] = a.SessionFile
		}
	}
	if got := strings.Join(paths, ","); got != "/root/a,/root/b,/root/c" {
		t.Fatalf("agents list: %s", got)
	}
	if !strings.Contains(errOut, "outside the tree's sessions/ directory") || !strings.Contains(errOut, `"/root" — the key is not a canonical agent path`) {
		t.Errorf("list stderr: %s", errOut)
	}
	code, out, _ = runCLI(t, append(env, "agents", "list", root)...)
	if code != exitOK || !strings.Contains(out, "· 3 agents ·") || strings.Contains(out, "hidden") || strings.Contains(out, "no agents") {
		t.Errorf("list text (exit %d):\n%s", code, out)
	}
	for _, p := range []string{"/root/a", "/root/b", "/root/c"} {
		if code, _, errOut := runCLI(t, append(env, "agents", "show", p, "-s", root, "--json")...); code != exitOK {
			t.Errorf("show %s: exit %d: %s", p, code, errOut)
		}
	}
	for _, p := range []string{"/root/ghost", "/root/Bad", "/root"} {
		if code, _, _ := runCLI(t, append(env, "agents", "show", p, "-s", root)...); code != exitUsage {
			t.Errorf("show %s: exit %d, want %d (no such agent)", p, code, exitUsage)
		}
	}
	for _, p := range []string{"/root/a", "/root/c"} {
		code, out, errOut := runCLI(t, append(env, "agents", "transcript", p, "-s", root)...)
		if code != exitOK || !strings.Contains(out, "saw a wombat") {
			t.Errorf("transcript %s: exit %d %s\n%s", p, code, errOut, out)
		}
	}
	// /root/b's recorded file is another project's session: never read.
	code, out, errOut = runCLI(t, append(env, "agents", "transcript", "/root/b", "-s", root)...)
	if code != exitFailed || strings.Contains(out, "another project") || !strings.Contains(errOut, "session file of /root/b is missing") {
		t.Errorf("transcript /root/b: exit %d %s\n%s", code, errOut, out)
	}

	code, out, errOut = runCLI(t, append(env, "search", "wombat", "--agents", "--json")...)
	if code != exitOK {
		t.Fatalf("search: exit %d: %s", code, errOut)
	}
	searched := map[string]string{}
	var noAgent []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var h struct {
			File      string
			AgentPath *string
		}
		if err := json.Unmarshal([]byte(line), &h); err != nil {
			t.Fatal(err)
		}
		switch {
		case h.File == foreign:
			t.Errorf("search read another project's session through state.json")
		case h.AgentPath != nil:
			searched[*h.AgentPath] = h.File
		case h.File != root:
			noAgent = append(noAgent, filepath.Base(h.File))
		}
	}
	var want, got []string
	for p, f := range listed {
		if _, err := os.Stat(f); err == nil {
			want = append(want, p+"="+f)
		}
	}
	for p, f := range searched {
		got = append(got, p+"="+f)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("search --agents names\n%s\nagents list names\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The session no record names is searched, but as no agent's.
	if strings.Join(noAgent, ",") != "ghost.jsonl" {
		t.Errorf("transcripts without an agent: %v", noAgent)
	}
}
