package search

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMemoryStaysBoundedWhateverTheHits: a search that finds hundreds of
// thousands of hits (a common word over months of sessions) streams them;
// the files already delivered are not kept — neither by the search (the
// issue's peak RSS "regardless of corpus size") nor, with NoCache, by the
// Searcher's cache.
func TestMemoryStaysBoundedWhateverTheHits(t *testing.T) {
	sc := newScope(t)
	const files, perFile = 40, 2000
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	filler := strings.Repeat("word ", 40)
	for f := range files {
		id := fmt.Sprintf("s%02d", f)
		lines := []string{headerLine(id)}
		parent := ""
		for k := range perFile {
			eid := fmt.Sprintf("e%02d%05d", f, k)
			lines = append(lines, userLine(eid, parent, k%3600, filler+"common "+filler))
			parent = eid
		}
		writeFile(t, filepath.Join(sc.dir, id+".jsonl"), base.Add(time.Duration(f)*time.Minute), lines...)
	}
	m, err := Compile(Query{Text: "common"})
	if err != nil {
		t.Fatal(err)
	}
	srcs, err := ListSources(sc.scope(false))
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	var peak uint64
	hits, n := 0, 0
	st, err := NewSearcher().Search(context.Background(), m, srcs, Options{NoCache: true, Workers: 2}, func(r FileResult) bool {
		hits += len(r.Hits)
		if n++; n%10 == 0 {
			peak = max(peak, heap())
		}
		return true
	})
	if err != nil || hits != files*perFile || st.Hits != hits {
		t.Fatalf("err %v, %d hits (stats %d)", err, hits, st.Hits)
	}
	// 80,000 hits hold about 40 MB; the files in flight (8 with 2
	// workers) hold about 1 MB each.
	grown := int64(peak) - int64(before)
	t.Logf("heap grew by %.1f MiB", float64(grown)/(1<<20))
	if grown > 24<<20 {
		t.Fatalf("the heap grew by %d MiB while streaming %d hits", grown>>20, hits)
	}
}
