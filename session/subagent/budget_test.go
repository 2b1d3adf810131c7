package subagent

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestWriteBudgetTree writes the tree the listing budget is measured on
// (issue 12: 1,000 agents with 1 MB sessions, listed by a fresh process in
// at most a second) into $FORGEBENCH_BUDGET_TREE. It is skipped unless that
// variable names a directory; the tree is never committed. Measure with
//
//	FORGEBENCH_BUDGET_TREE=/tmp/tree go test ./session/subagent -run TestWriteBudgetTree
//	forgebench --agent-dir /tmp/tree/agent --cwd /home/u/proj agents list <root> --json
func TestWriteBudgetTree(t *testing.T) {
	out := os.Getenv("FORGEBENCH_BUDGET_TREE")
	if out == "" {
		t.Skip("FORGEBENCH_BUDGET_TREE not set: the 1 GB budget tree is written only on request")
	}
	b := newTreeBuilder(t)
	b.dir = filepath.Join(out, "agent", "sessions", "--home-u-proj--")
	b.root = newJSONL(filepath.Join(b.dir, filepath.Base(b.root.path)), b.rootID, "", b.start)
	b.root.custom(TreeCustomType, map[string]any{"version": 1, "id": b.treeID, "rootSessionId": b.rootID})
	for i := range 1000 {
		// Four runs of about 250 KiB of tool output each (JSON-escaped):
		// ~1 MB per agent.
		b.addAgent(spec{path: "/root/" + agentName(i), status: StatusCompleted, runs: 4, padBytes: 185 << 10, onBranch: true})
	}
	root := b.finish()
	files, _ := filepath.Glob(filepath.Join(b.treeDir(), "sessions", "*.jsonl"))
	var total int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			total += fi.Size()
		}
	}
	t.Logf("root %s: %d agent sessions, %d MB", root, len(files), total>>20)
}

// TestStateIsReadWithoutDecodingItWhole: state.json is read in parts, so
// reading 5,000 records (each with its role's snapshot, as pi-subagent
// writes them) allocates the read window, the batches in flight and the
// records (as decoded, then in path order) — about twice the file. Decoded
// whole into a tree of values first, it allocated six times the file
// (1.2 GB and half a minute for 100,000 agents).
func TestStateIsReadWithoutDecodingItWhole(t *testing.T) {
	prompt := strings.Repeat("review the change and report each finding with its file and line ", 7)
	var b strings.Builder
	b.WriteString(`{"version":1,"id":"t","rootSessionId":"r","rootMailbox":[],"agents":{`)
	const n = 5000
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		path := fmt.Sprintf("/root/a%04d", i)
		fmt.Fprintf(&b, `%q:{"descriptor":{"version":5,"id":"01a2297e-%04x-7000-8000-000000000001","path":%q,"parentPath":"/root","depth":1,`+
			`"cwd":"/home/u/proj","createdAt":"2026-11-28T10:00:00.000Z","agent":{"name":"reviewer","description":"Reviews.","tools":["read","grep"],"systemPrompt":%q,"source":"user"},`+
			`"model":{"provider":"anthropic","id":"claude-sonnet-4-5"},"thinkingLevel":"medium","forkTurns":"none",`+
			`"settings":{"agentScope":"user","maxDepth":3,"maxConcurrentAgents":4,"inheritExtensions":false,"openAIIdentity":false,"maxOutputBytes":51200},"anchorId":"r%04x"},`+
			`"sessionFile":"/home/u/.pi/agent/sessions/x/s%04x.jsonl","status":"completed","runId":"run-%d","mailbox":[]}`, path, i, path, prompt, i, i, i)
	}
	b.WriteString("}}\n")
	data := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	st, diags := ParseState(data, "state.json", "t", "r")
	runtime.ReadMemStats(&after)
	if st == nil || len(st.Records) != n {
		t.Fatalf("%v", diags)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d records, %.1f MiB of state: %.1f MiB allocated", n, float64(len(data))/(1<<20), float64(allocated)/(1<<20))
	if allocated > uint64(len(data))*5/2 {
		t.Errorf("reading %d bytes of state allocated %d bytes", len(data), allocated)
	}
}
