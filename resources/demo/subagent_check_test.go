package demo

// Checks of the pi-subagent tree (spec pi-session-formats §16–§20).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var agentPathPattern = regexp.MustCompile(`^/root(/[a-z0-9_]+)+$`)

// validateTreeState applies pi-subagent's validateState rules (§17.3) to a
// decoded state.json, returning one message per violation.
func validateTreeState(state map[string]any, treeID, rootSessionID string) []string {
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if state["version"] != float64(1) {
		fail("version %v is not 1", state["version"])
	}
	if state["id"] != treeID || state["rootSessionId"] != rootSessionID {
		fail("id/rootSessionId %v/%v do not match %s/%s", state["id"], state["rootSessionId"], treeID, rootSessionID)
	}
	validKinds := []string{"message", "task", "completion"}
	checkMailbox := func(owner string, box any) {
		msgs, ok := box.([]any)
		if !ok {
			fail("mailbox of %s is not an array", owner)
			return
		}
		for _, raw := range msgs {
			m, _ := raw.(map[string]any)
			_, idOK := m["id"].(string)
			_, textOK := m["text"].(string)
			_, fromOK := m["from"].(string)
			if !idOK || !textOK || !fromOK || m["to"] != owner || !slices.Contains(validKinds, str(m["kind"])) {
				fail("bad mailbox message %v of %s", m, owner)
			}
		}
	}
	checkMailbox("/root", state["rootMailbox"])
	agents, ok := state["agents"].(map[string]any)
	if !ok {
		fail("agents is not an object")
		return problems
	}
	statuses := []string{"pending_init", "running", "completed", "interrupted", "errored"}
	for key, raw := range agents {
		rec, _ := raw.(map[string]any)
		d, _ := rec["descriptor"].(map[string]any)
		if !agentPathPattern.MatchString(key) {
			fail("agent key %q is not a canonical non-root path", key)
		}
		if d["version"] != float64(5) || d["path"] != key || str(d["anchorId"]) == "" {
			fail("descriptor of %s: version %v, path %v, anchorId %v", key, d["version"], d["path"], d["anchorId"])
		}
		if d["parentPath"] != key[:strings.LastIndex(key, "/")] {
			fail("parentPath %v of %s is not its structural parent", d["parentPath"], key)
		}
		if !slices.Contains(statuses, str(rec["status"])) {
			fail("status %v of %s", rec["status"], key)
		}
		if _, ok := rec["sessionFile"].(string); !ok {
			fail("sessionFile of %s is not a string", key)
		}
		checkMailbox(key, rec["mailbox"])
	}
	return problems
}

func TestValidateTreeStateRejectsBrokenStates(t *testing.T) {
	good := func() map[string]any {
		return map[string]any{"version": float64(1), "id": "t", "rootSessionId": "r", "rootMailbox": []any{},
			"agents": map[string]any{"/root/a": map[string]any{"status": "completed", "sessionFile": "f", "mailbox": []any{},
				"descriptor": map[string]any{"version": float64(5), "path": "/root/a", "parentPath": "/root", "anchorId": "x"}}}}
	}
	if p := validateTreeState(good(), "t", "r"); len(p) != 0 {
		t.Fatalf("valid state rejected: %v", p)
	}
	breakers := map[string]func(map[string]any){
		"version": func(s map[string]any) { s["version"] = float64(2) },
		"root id": func(s map[string]any) { s["rootSessionId"] = "other" },
		"root mail": func(s map[string]any) {
			s["rootMailbox"] = []any{map[string]any{"id": "m", "text": "x", "from": "/root/a", "to": "/root/a", "kind": "message"}}
		},
		"key":    func(s map[string]any) { s["agents"] = map[string]any{"/root": s["agents"].(map[string]any)["/root/a"]} },
		"status": func(s map[string]any) { s["agents"].(map[string]any)["/root/a"].(map[string]any)["status"] = "done" },
		"parent": func(s map[string]any) {
			s["agents"].(map[string]any)["/root/a"].(map[string]any)["descriptor"].(map[string]any)["parentPath"] = "/root/b"
		},
	}
	for name, breakIt := range breakers {
		s := good()
		breakIt(s)
		if len(validateTreeState(s, "t", "r")) == 0 {
			t.Errorf("broken %s accepted", name)
		}
	}
}

func TestSubagentTree(t *testing.T) {
	layout := unpackForTest(t)
	sessionDir := layout.SessionDir
	states, err := filepath.Glob(filepath.Join(sessionDir, "*.subagents", "*", "state.json"))
	if err != nil || len(states) != 1 {
		t.Fatalf("want exactly one tree, found %v (%v)", states, err)
	}
	treeDir := filepath.Dir(states[0])
	treeID := filepath.Base(treeDir)
	rootID := strings.TrimSuffix(filepath.Base(filepath.Dir(treeDir)), ".subagents")
	data, err := os.ReadFile(states[0])
	if err != nil {
		t.Fatalf("read state.json: %v", err)
	}
	if strings.Count(string(data), "\n") != 1 || !strings.HasSuffix(string(data), "\n") {
		t.Errorf("state.json is not a single JSON line with a trailing newline")
	}
	var state map[string]any
	if err := json.Unmarshal(data, &state); err != nil {
		t.Fatalf("parse state.json: %v", err)
	}
	if !uuidV7Pattern.MatchString(treeID) {
		t.Errorf("tree id %q is not a UUIDv7", treeID)
	}
	for _, p := range validateTreeState(state, treeID, rootID) {
		t.Error(p)
	}

	rootFiles, _ := filepath.Glob(filepath.Join(sessionDir, "*_"+rootID+".jsonl"))
	if len(rootFiles) != 1 {
		t.Fatalf("root session %s not found next to the tree", rootID)
	}
	root := readSession(t, rootFiles[0])
	if !hasCustom(root, "pi-subagent/tree-v2", map[string]any{"version": float64(1), "id": treeID, "rootSessionId": rootID}) {
		t.Error("root session has no matching pi-subagent/tree-v2 entry")
	}

	agents := state["agents"].(map[string]any)
	files := map[string]string{"/root": rootFiles[0]}
	maxDepth := 0
	for key, raw := range agents {
		files[key] = str(raw.(map[string]any)["sessionFile"])
	}
	for key, raw := range agents {
		rec := raw.(map[string]any)
		d := rec["descriptor"].(map[string]any)
		file := files[key]
		if filepath.Dir(file) != filepath.Join(treeDir, "sessions") {
			t.Errorf("%s: session file %s is not in the tree's sessions directory", key, file)
		}
		child := readSession(t, file)
		parentPath := str(d["parentPath"])
		if child.header["parentSession"] != files[parentPath] {
			t.Errorf("%s: header parentSession %v, want %s", key, child.header["parentSession"], files[parentPath])
		}
		depth := strings.Count(key, "/") - 1
		maxDepth = max(maxDepth, depth)
		if d["depth"] != float64(depth) || d["cwd"] != layout.ProjectDir {
			t.Errorf("%s: descriptor depth %v / cwd %v", key, d["depth"], d["cwd"])
		}
		checkChildSession(t, key, child, d, state["id"].(string))
		parent := root
		if parentPath != "/root" {
			parent = readSession(t, files[parentPath])
		}
		anchor := parent.byID[str(d["anchorId"])]
		if anchor == nil || anchor["customType"] != "pi-subagent/registration-v2" ||
			!reflect.DeepEqual(anchor["data"], map[string]any{"treeId": treeID, "path": key}) {
			t.Errorf("%s: anchorId does not name its registration entry in the parent session", key)
		}
		if run := str(rec["runId"]); rec["status"] != "pending_init" && !uuidV7Pattern.MatchString(run) {
			t.Errorf("%s: runId %q", key, run)
		}
		receipts := deliveredIDs(child)
		for _, m := range rec["mailbox"].([]any) {
			if receipts[str(m.(map[string]any)["id"])] {
				t.Errorf("%s: pending mailbox message already has a receipt", key)
			}
		}
	}
	if len(agents) != 4 || maxDepth != 2 {
		t.Errorf("tree has %d agents, deepest at depth %d; want 4 agents reaching depth 2", len(agents), maxDepth)
	}
	for _, raw := range state["rootMailbox"].([]any) {
		m := raw.(map[string]any)
		if deliveredIDs(root)[str(m["id"])] {
			t.Errorf("pending root message %v already has a receipt", m["id"])
		}
		if m["kind"] == "completion" && m["id"] != "completion:"+str(m["runId"]) {
			t.Errorf("completion id %v does not match its runId", m["id"])
		}
	}
}

// checkChildSession checks the §20.2 entry order of an agent session.
func checkChildSession(t *testing.T, key string, child sessionFile, d map[string]any, treeID string) {
	t.Helper()
	descIndex := slices.IndexFunc(child.entries, func(e map[string]any) bool { return e["customType"] == "pi-subagent/descriptor" })
	if descIndex < 0 {
		t.Fatalf("%s: no pi-subagent/descriptor entry", key)
	}
	if !reflect.DeepEqual(child.entries[descIndex]["data"], d) {
		t.Errorf("%s: descriptor entry differs from state.json", key)
	}
	for _, e := range child.entries[:descIndex] {
		if e["type"] != "message" {
			t.Errorf("%s: inherited prefix holds a %v entry", key, e["type"])
		}
	}
	if (descIndex > 0) != (d["forkTurns"] == "all") {
		t.Errorf("%s: inherited prefix of %d entries does not fit forkTurns %v", key, descIndex, d["forkTurns"])
	}
	next := child.entries[descIndex+1]
	if next["type"] != "session_info" || next["name"] != "[subagent] "+key {
		t.Errorf("%s: descriptor is not followed by its session_info name", key)
	}
	var prompt, envelope bool
	for _, e := range child.entries[descIndex:] {
		m, _ := e["message"].(map[string]any)
		if m["role"] == "user" && reflect.DeepEqual(m["content"], []any{map[string]any{"type": "text", "text": "Process the assigned agent tasks and messages below."}}) {
			prompt = true
		}
		if m["customType"] == "pi-subagent/message-v2" && prompt {
			details := m["details"].(map[string]any)
			envelope = envelope || details["treeId"] == treeID && strings.HasPrefix(str(m["content"]), "[Agent task: ")
		}
	}
	if !prompt || !envelope {
		t.Errorf("%s: run prompt %v / task envelope %v missing", key, prompt, envelope)
	}
}

// deliveredIDs collects the mailbox ids acknowledged by message-v2 receipts.
func deliveredIDs(sf sessionFile) map[string]bool {
	out := map[string]bool{}
	for _, e := range sf.entries {
		carrier := e
		if m, ok := e["message"].(map[string]any); ok {
			carrier = m
		}
		if carrier["customType"] != "pi-subagent/message-v2" {
			continue
		}
		details, _ := carrier["details"].(map[string]any)
		ids, _ := details["messageIds"].([]any)
		for _, id := range ids {
			out[str(id)] = true
		}
	}
	return out
}

func hasCustom(sf sessionFile, customType string, data map[string]any) bool {
	for _, e := range sf.entries {
		if e["type"] == "custom" && e["customType"] == customType && reflect.DeepEqual(e["data"], data) {
			return true
		}
	}
	return false
}
