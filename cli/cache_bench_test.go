package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchData is bench/run.sh's data directory (FORGEBENCH_BENCH_DATA, e.g.
// ~/.cache/forgebench-bench/data), or a skip.
func benchData(b *testing.B) string {
	dir := os.Getenv("FORGEBENCH_BENCH_DATA")
	if dir == "" {
		b.Skip("FORGEBENCH_BENCH_DATA is not set (bench/run.sh's data directory, e.g. ~/.cache/forgebench-bench/data)")
	}
	return dir
}

// BenchmarkCacheReportProject runs `cache report --json` over the 2,000
// sessions bench/gen writes (bench/run.sh's project): the in-process view
// of the budget, for profiling.
func BenchmarkCacheReportProject(b *testing.B) {
	dir := benchData(b)
	args := []string{"--cwd", filepath.Join(dir, "project"), "--agent-dir", filepath.Join(dir, "agent"),
		"--forge-dir", filepath.Join(dir, "forge"), "cache", "report", "--json"}
	for b.Loop() {
		if code := Run(args, io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkCacheReportLarge runs `cache report --json` and `session stats`
// over bench/run.sh's 100 MB sessions (few large entries, many small).
func BenchmarkCacheReportLarge(b *testing.B) {
	dir := benchData(b)
	for _, name := range []string{"few", "small"} {
		file := filepath.Join(dir, name+".jsonl")
		b.Run("report/"+name, func(b *testing.B) {
			for b.Loop() {
				if code := Run([]string{"cache", "report", "--json", file}, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
		b.Run("stats/"+name, func(b *testing.B) {
			for b.Loop() {
				if code := Run([]string{"session", "stats", file}, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}

// BenchmarkCacheReportProjectCold is BenchmarkCacheReportProject with an
// empty report cache every time (the first report a user runs, or the
// first after forgebench or models.json changed).
func BenchmarkCacheReportProjectCold(b *testing.B) {
	dir := benchData(b)
	args := []string{"--cwd", filepath.Join(dir, "project"), "--agent-dir", filepath.Join(dir, "agent"),
		"--forge-dir", filepath.Join(dir, "forge"), "cache", "report", "--json"}
	for b.Loop() {
		b.StopTimer()
		b.Setenv("XDG_CACHE_HOME", b.TempDir())
		b.StartTimer()
		if code := Run(args, io.Discard, io.Discard); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
