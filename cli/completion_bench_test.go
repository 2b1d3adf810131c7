package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCompleteSessionIDs completes session ids in the bench's project
// of 2,000 sessions (bench/run.sh generates it; skipped without it): the
// in-process part of the "completion, 2,000 sessions" row.
func BenchmarkCompleteSessionIDs(b *testing.B) {
	home, _ := os.UserHomeDir()
	data := filepath.Join(home, ".cache", "forgebench-bench", "data")
	if dir := os.Getenv("BENCH_DIR"); dir != "" {
		data = filepath.Join(dir, "data")
	}
	if _, err := os.Stat(filepath.Join(data, "agent.stamp")); err != nil {
		b.Skip("no bench data: run bash bench/run.sh once")
	}
	b.Setenv("COMP_LINE", "forgebench --cwd "+filepath.Join(data, "project")+" --agent-dir "+filepath.Join(data, "agent")+" --forge-dir "+filepath.Join(data, "forge")+" session show ")
	for b.Loop() {
		if code := Run(nil, io.Discard, io.Discard); code != exitOK {
			b.Fatal(code)
		}
	}
}
