package session

import (
	"errors"
	"os"
	"testing"
)

// A mapped file truncated under a reader of its entries on every core (as
// session/stats reads them): the faults happen on the helper goroutines
// that read the entries, and must come back to the guarded caller as
// ErrFileChanged, not crash the process.
func TestTruncatedUnderStatsIsAnError(t *testing.T) {
	mapsFiles(t)
	withoutWatch(t) // the guard alone must do it
	path, _ := writeGenerated(t, t.TempDir(), 16<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if mappingOf(s) == nil || len(s.Entries) < ParallelMin {
		t.Fatalf("want a mapped file of %d entries or more: %d", ParallelMin, len(s.Entries))
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	err = GuardFaults(func() error {
		var sums [64]int
		ForEachRange(len(s.Entries), (len(s.Entries)+3)/4, func(w, lo, hi int) {
			for i := lo; i < hi; i++ {
				for _, b := range s.Entries[i].Raw {
					sums[w] += int(b)
				}
			}
		})
		return nil
	})
	if !errors.Is(err, ErrFileChanged) {
		t.Fatalf("stats over a truncated mapping: %v", err)
	}
}

// TestInParallelRunsEveryJob checks that every job runs exactly once.
func TestInParallelRunsEveryJob(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		runs := make([]int, n)
		inParallel(n, func(j int) { runs[j]++ })
		for j, r := range runs {
			if r != 1 {
				t.Fatalf("n=%d: job %d ran %d times", n, j, r)
			}
		}
	}
}
