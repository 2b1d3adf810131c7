package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// benchSession is the session FORGEBENCH_BENCH_SESSION names (bench/run.sh's
// data/small.jsonl or few.jsonl) and the entry ids in the files next to it
// (.firstleaf, else .mid; and .last); the benchmark is skipped without it.
func benchSession(b *testing.B) (path, first, last string) {
	path = os.Getenv("FORGEBENCH_BENCH_SESSION")
	if path == "" {
		b.Skip("FORGEBENCH_BENCH_SESSION names no session (bench/run.sh's data/small.jsonl)")
	}
	base := strings.TrimSuffix(path, ".jsonl")
	read := func(exts ...string) string {
		for _, ext := range exts {
			if raw, err := os.ReadFile(base + ext); err == nil {
				return strings.TrimSpace(string(raw))
			}
		}
		b.Fatalf("no %v next to %s", exts, path)
		return ""
	}
	return path, read(".firstleaf", ".mid"), read(".last")
}

// BenchmarkBranches compares two leaves of a loaded session.
func BenchmarkBranches(b *testing.B) {
	path, first, last := benchSession(b)
	s, err := session.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	ia, _ := s.IndexOf(first)
	ib, _ := s.IndexOf(last)
	b.ResetTimer()
	for range b.N {
		if _, err := Branches(Side{s, ia}, Side{s, ib}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDiffCommand is what `session diff --json` does (open, compare,
// stringify), next to BenchmarkShowCommand, what `session show --json`
// does: the budget is the ratio of the two.
func BenchmarkDiffCommand(b *testing.B) {
	path, first, last := benchSession(b)
	for range b.N {
		s, err := session.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		ia, _ := s.IndexOf(first)
		ib, _ := s.IndexOf(last)
		d, err := Branches(Side{s, ia}, Side{s, ib}, nil)
		if err != nil {
			b.Fatal(err)
		}
		_ = jsonv.Stringify(d.Value())
	}
}

// BenchmarkShowCommand: see BenchmarkDiffCommand.
func BenchmarkShowCommand(b *testing.B) {
	path, _, _ := benchSession(b)
	for range b.N {
		s, err := session.OpenForDisplay(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := session.SummaryJSON(s); err != nil {
			b.Fatal(err)
		}
	}
}
