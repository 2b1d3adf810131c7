package search

import (
	"fmt"
	"testing"
	"time"
)

// TestCacheMemoryIsBounded: the TUI's Searcher lives as long as the
// program and sees query after query; what its cache holds — hits and
// entry trees — stays under a fixed budget however many files and
// queries it has seen, while the results that found nothing (what lets
// a narrower query skip a file) are kept.
func TestCacheMemoryIsBounded(t *testing.T) {
	var c cache
	hitsPer := maxCachedHits
	for f := range 400 {
		src := Source{Path: fmt.Sprintf("/s/%d.jsonl", f), Size: 10, ModTime: time.Unix(1, 0)}
		for q := range cachedQueries {
			key := queryKey{text: fmt.Sprint("q", q)}
			res := FileResult{Source: src}
			if q%2 == 0 {
				res.Hits = make([]Hit, hitsPer)
			}
			c.store(src, key, res)
		}
		c.storeTree(src, &treeInfo{entries: 5000})
	}
	hits, trees, empty := 0, 0, 0
	for _, fc := range c.files {
		for _, r := range fc.results {
			hits += len(r.res.Hits)
			if len(r.res.Hits) == 0 {
				empty++
			}
		}
		if fc.tree != nil {
			trees += fc.tree.entries
		}
	}
	if hits > cacheHitBudget || trees > cacheTreeBudget {
		t.Fatalf("the cache holds %d hits (budget %d) and trees of %d entries (budget %d)", hits, cacheHitBudget, trees, cacheTreeBudget)
	}
	if empty != 400*cachedQueries/2 {
		t.Fatalf("%d empty results kept, want all %d", empty, 400*cachedQueries/2)
	}
}
