package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkAgentsListBigTree runs `agents list` over the tree bench/gen
// writes with -tree-agents (FORGEBENCH_AGENTS_TREE names the directory
// holding its agent/ and project/; bench/run.sh sets it up): the
// in-process view of the budget, for profiling.
func BenchmarkAgentsListBigTree(b *testing.B) {
	dir := os.Getenv("FORGEBENCH_AGENTS_TREE")
	if dir == "" {
		b.Skip("FORGEBENCH_AGENTS_TREE is not set (see bench/run.sh)")
	}
	args := []string{"--cwd", filepath.Join(dir, "project"), "--agent-dir", filepath.Join(dir, "agent"),
		"--forge-dir", filepath.Join(dir, "forge"), "agents", "list", "01a2297e-0000-7000-8000-0000000000a0"}
	for b.Loop() {
		if code := Run(args, io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
