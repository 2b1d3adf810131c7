package replay

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
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

// TestUsagesOfInParallel checks that the usages read by one goroutine per
// range, into one list, are the usages read in one pass: assistant messages
// without usage leave gaps in the ranges that must close up in order.
func TestUsagesOfInParallel(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p"}` + "\n")
	parent := "null"
	for i := 0; i < 3*session.ParallelMin+77; i++ {
		id := fmt.Sprintf(`"e%d"`, i)
		msg := `{"role":"user","content":"q"}`
		if i%3 != 0 {
			usage := fmt.Sprintf(`,"usage":{"input":%d,"output":1,"cacheRead":%d}`, i, i%7)
			if i%11 == 0 {
				usage = "" // no usage: not a request
			}
			provider := `"p"`
			switch i % 5 {
			case 1:
				provider = `"\u0070"` // p, escaped
			case 2:
				provider = `7`
			}
			msg = `{"role":"assistant","content":[],"provider":` + provider + `,"model":"m` + fmt.Sprint(i%2) + `"` + usage + `}`
		}
		fmt.Fprintf(&b, `{"type":"message","id":%s,"parentId":%s,"timestamp":"2026-01-01T00:00:00.000Z","message":%s}`+"\n", id, parent, msg)
		parent = id
	}
	s, err := session.Read(strings.NewReader(b.String()), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each usage as usageOf reads it alone (the names decoded every time).
	var each []turndiff.Usage
	for i := range s.Entries {
		if e := &s.Entries[i]; e.Type == session.TypeMessage && e.Role == session.RoleAssistant {
			if u, ok := usageOf(e, i); ok {
				each = append(each, u)
			}
		}
	}
	if got := usagesIn(s, 0, len(s.Entries), nil); !reflect.DeepEqual(got, each) {
		t.Fatalf("usagesIn reads %d usages, usageOf %d (or they differ)", len(got), len(each))
	}
	for _, procs := range []int{2, 3, 5} {
		old := runtime.GOMAXPROCS(procs)
		got := usagesOf(s)
		runtime.GOMAXPROCS(old)
		want := usagesIn(s, 0, len(s.Entries), nil)
		if len(want) < session.ParallelMin || !reflect.DeepEqual(got, want) {
			t.Fatalf("GOMAXPROCS %d: %d usages in parallel, %d in one pass (or they differ)", procs, len(got), len(want))
		}
	}
}
