package replay

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSplitPathsIsSetDifference: on random trees, the tails past the
// common prefix give the same added and dropped entries, membership and
// fork as sets of the whole paths did.
func TestSplitPathsIsSetDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	for round := 0; round < 2000; round++ {
		n := 1 + rng.IntN(40)
		parent := make([]int, n)
		for i := range parent {
			parent[i] = -1
			if i > 0 && rng.IntN(8) > 0 {
				parent[i] = rng.IntN(i)
			}
		}
		path := func(leaf int) []int {
			var p []int
			for cur := leaf; cur >= 0; cur = parent[cur] {
				p = append(p, cur)
			}
			slices.Reverse(p)
			return p
		}
		a, b := path(rng.IntN(n)), path(rng.IntN(n))
		onA, onB := indexSet(a), indexSet(b)
		split := splitPaths(a, b)
		var added, dropped, wantAdded, wantDropped []int
		for _, i := range b[split.common:] {
			if !split.tailA[i] {
				added = append(added, i)
			}
		}
		for _, i := range a[split.common:] {
			if !split.tailB[i] {
				dropped = append(dropped, i)
			}
		}
		for _, i := range b {
			if !onA[i] {
				wantAdded = append(wantAdded, i)
			}
		}
		for _, i := range a {
			if !onB[i] {
				wantDropped = append(wantDropped, i)
			}
		}
		if !slices.Equal(added, wantAdded) || !slices.Equal(dropped, wantDropped) {
			t.Fatalf("a %v b %v: added %v dropped %v, want %v %v", a, b, added, dropped, wantAdded, wantDropped)
		}
		for i := -1; i < n; i++ {
			if split.onA(i) != onA[i] {
				t.Fatalf("a %v b %v: onA(%d) %v", a, b, i, split.onA(i))
			}
		}
		want := -1
		for _, i := range a {
			if !onB[i] {
				break
			}
			want = i
		}
		if got := split.lastCommon(); got != want {
			t.Fatalf("a %v b %v: lastCommon %d, want %d", a, b, got, want)
		}
	}
}
