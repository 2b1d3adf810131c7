package session

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// TestDescribeInOrder: every entry once, in the order asked, with the
// summary DescribeEntry gives, on one core and on several.
func TestDescribeInOrder(t *testing.T) {
	path, _ := writeGenerated(t, t.TempDir(), 8<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	n := len(s.Entries)
	if n < 4*describeChunk {
		t.Fatalf("only %d entries: the helpers would not run", n)
	}
	order := func(k int) int { return n - 1 - k } // backwards, so order is not file order
	for _, procs := range []int{1, 2, 4} {
		prev := runtime.GOMAXPROCS(procs)
		next := 0
		DescribeInOrder(n, func(k int) *Entry { return &s.Entries[order(k)] }, func(k int, sum *EntrySummary) {
			if k != next {
				t.Fatalf("GOMAXPROCS %d: called for %d, want %d", procs, k, next)
			}
			next++
			if want := DescribeEntry(&s.Entries[order(k)]); *sum != want {
				t.Fatalf("GOMAXPROCS %d: entry %d: %+v, want %+v", procs, k, *sum, want)
			}
		})
		// Lines in a tree's column: the same kind, the text clipped again,
		// no counts.
		clipped := 0
		DescribeLinesInOrder(n, 80, func(k int) *Entry { return &s.Entries[order(k)] }, func(k int, sum *EntrySummary) {
			full := DescribeEntry(&s.Entries[order(k)])
			if full.Text != sum.Text {
				clipped++
			}
			want := EntrySummary{Kind: full.Kind, Text: sanitize.Clip(full.Text, 80)}
			if *sum != want {
				t.Fatalf("GOMAXPROCS %d: entry %d in 80 runes: %+v, want %+v", procs, k, *sum, want)
			}
		})
		runtime.GOMAXPROCS(prev)
		if next != n {
			t.Fatalf("GOMAXPROCS %d: %d calls, want %d", procs, next, n)
		}
		if clipped == 0 {
			t.Fatalf("GOMAXPROCS %d: no summary is wider than 80 runes: the clipped form went untested", procs)
		}
	}
}

// TestDescribeInOrderTruncatedIsAnError: the helpers that describe ahead
// touch a mapping truncated under them; that is ErrFileChanged from the
// guarded caller, not a crash of the process.
func TestDescribeInOrderTruncatedIsAnError(t *testing.T) {
	mapsFiles(t)
	withoutWatch(t)
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	path, _ := writeGenerated(t, t.TempDir(), 2<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 4096); err != nil {
		t.Fatal(err)
	}
	err = GuardFaults(func() error {
		DescribeInOrder(len(s.Entries), func(k int) *Entry { return &s.Entries[k] }, func(int, *EntrySummary) {})
		return nil
	})
	if !errors.Is(err, ErrFileChanged) {
		t.Fatalf("describing a truncated mapping: %v, want ErrFileChanged", err)
	}
}
