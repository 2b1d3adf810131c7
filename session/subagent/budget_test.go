package subagent

import (
	"os"
	"path/filepath"
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
