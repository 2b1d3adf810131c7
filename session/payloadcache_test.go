package session

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/forgebench/forgebench/engine/turndiff"
)

// TestEachBranchUsage compares the side-by-side walk with a search per
// path entry, on paths in file order (short and long gaps) and on paths
// that go back, as a hand-made file's parent links may.
func TestEachBranchUsage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		entries := 1 + rng.IntN(400)
		var file []turndiff.Usage
		for i := 0; i < entries; i++ {
			if rng.IntN(3) == 0 {
				file = append(file, turndiff.Usage{Index: i})
			}
		}
		var path []int
		for i := 0; i < entries; i++ {
			if rng.IntN(1+round%40) == 0 {
				path = append(path, i)
			}
		}
		if round%4 == 3 { // out of file order
			rng.Shuffle(len(path), func(a, b int) { path[a], path[b] = path[b], path[a] })
		}
		var want []int
		for _, i := range path {
			k := sort.Search(len(file), func(k int) bool { return file[k].Index >= i })
			if k < len(file) && file[k].Index == i {
				want = append(want, k)
			}
		}
		var got []int
		n := eachBranchUsage(path, file, func(k int) { got = append(got, k) })
		if n != len(want) || !slices.Equal(got, want) {
			t.Fatalf("round %d: path %v file %v: got %d %v, want %v", round, path, file, n, got, want)
		}
	}
}
