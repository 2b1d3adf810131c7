//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCompleteSessionIDs completes session ids in the bench's project
// of 2,000 sessions (bench/run.sh or bench/completion.sh generates it;
// skipped without it): the in-process part of bench/completion.sh's
// "session ids, 2,000 sessions". Besides ns/op it reports the CPU time per
// answer (cpu-ms/op, the process's user+sys): on a machine others load,
// wall time says more about them than about the answer.
func BenchmarkCompleteSessionIDs(b *testing.B) {
	home, _ := os.UserHomeDir()
	data := filepath.Join(home, ".cache", "forgebench-bench", "data")
	if dir := os.Getenv("BENCH_DIR"); dir != "" {
		data = filepath.Join(dir, "data")
	}
	if _, err := os.Stat(filepath.Join(data, "agent.stamp")); err != nil {
		b.Skip("no bench data: run bash bench/completion.sh once")
	}
	b.Setenv("COMP_LINE", "forgebench --cwd "+filepath.Join(data, "project")+" --agent-dir "+filepath.Join(data, "agent")+" --forge-dir "+filepath.Join(data, "forge")+" session show ")
	before := cpuTime()
	for b.Loop() {
		if code := Run(nil, io.Discard, io.Discard); code != exitOK {
			b.Fatal(code)
		}
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
