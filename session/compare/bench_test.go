package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// BenchmarkBranches compares two entries of the session named by
// FORGEBENCH_BENCH_SESSION (the bench/ 100 MB sessions: FILE, with
// FILE's .mid and .last entry ids next to it); skipped without it.
func BenchmarkBranches(b *testing.B) {
	path := os.Getenv("FORGEBENCH_BENCH_SESSION")
	if path == "" {
		b.Skip("FORGEBENCH_BENCH_SESSION names no session (bench/run.sh's data/small.jsonl)")
	}
	s, err := session.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	base := strings.TrimSuffix(path, ".jsonl")
	ids := [2]string{}
	for k, ext := range []string{".mid", ".last"} {
		raw, err := os.ReadFile(base + ext)
		if err != nil {
			b.Fatal(err)
		}
		ids[k] = strings.TrimSpace(string(raw))
	}
	ia, _ := s.IndexOf(ids[0])
	ib, _ := s.IndexOf(ids[1])
	b.ResetTimer()
	for range b.N {
		if _, err := Branches(Side{s, ia}, Side{s, ib}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
