package search

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// The process-local cache. A file is identified by its path and known
// unchanged while its size and modification time are: Pi only appends,
// and any append changes both. Kept per file: the last few queries'
// results (a repeated query reads nothing; a query that contains a
// previous one that found nothing in the file, with the same or narrower
// filters, reads nothing either — typing a query letter by letter in the
// TUI narrows it each time), the entry tree and the session's name.

// cachedQueries is how many recent queries a file remembers.
const cachedQueries = 8

// maxCachedHits bounds the hits one cached result may hold.
const maxCachedHits = 10000

// The cache's memory budget, whatever the number of files and queries
// seen: hits held in results (a hit is a few hundred bytes) and entries
// in trees (some 100 bytes each). Past one, results with hits (or trees)
// are dropped until half the budget is left; results that found nothing
// are tiny and are what lets a narrower query skip a file, so they stay.
const (
	cacheHitBudget  = 20000
	cacheTreeBudget = 200000
)

type fileCache struct {
	size    int64
	modTime time.Time
	tree    *treeInfo
	name    string
	named   bool
	results []cachedResult // most recent first
}

type cachedResult struct {
	key queryKey
	res FileResult
}

// queryKey is what makes two searches of a file give the same hits.
type queryKey struct {
	text      string
	regex     bool
	sensitive bool
	roles     string // sorted, comma-joined; "" = all
	sinceMs   int64  // 0 = none
}

func keyOf(q Query) queryKey {
	roles := slices.Clone(q.Roles)
	slices.Sort(roles)
	roles = slices.Compact(roles)
	k := queryKey{text: q.Text, regex: q.Regex, sensitive: q.CaseSensitive, roles: strings.Join(roles, ",")}
	if !q.Since.IsZero() {
		k.sinceMs = q.Since.UnixMilli()
	}
	return k
}

// narrows reports whether every hit of k is also a hit of old: then a file
// where old found nothing has nothing for k.
func (k queryKey) narrows(old queryKey) bool {
	if k.regex || old.regex || k.sensitive != old.sensitive {
		return false
	}
	if old.roles != "" {
		if k.roles == "" {
			return false
		}
		for _, r := range strings.Split(k.roles, ",") {
			if !slices.Contains(strings.Split(old.roles, ","), r) {
				return false
			}
		}
	}
	if old.sinceMs != 0 && (k.sinceMs == 0 || k.sinceMs < old.sinceMs) {
		return false
	}
	if k.sensitive {
		return strings.Contains(k.text, old.text)
	}
	return strings.Contains(foldString(k.text), foldString(old.text))
}

func foldString(s string) string {
	var b strings.Builder
	for _, r := range queryRunes(s) {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// cache is the Searcher's per-file memory, safe for concurrent use.
type cache struct {
	mu    sync.Mutex
	files map[string]*fileCache
	// hits and treeEntries are what the files' results and trees hold.
	hits, treeEntries int
}

// entry returns the file's cache, emptied when the file changed.
func (c *cache) entry(src Source) *fileCache {
	if c.files == nil {
		c.files = map[string]*fileCache{}
	}
	fc := c.files[src.Path]
	if fc == nil || fc.size != src.Size || !fc.modTime.Equal(src.ModTime) {
		if fc != nil {
			c.forgetResults(fc, false)
			c.forgetTree(fc)
		}
		fc = &fileCache{size: src.Size, modTime: src.ModTime}
		c.files[src.Path] = fc
	}
	return fc
}

// lookup returns a result for the file without reading it, when the cache
// can answer.
func (c *cache) lookup(src Source, k queryKey) (FileResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fc := c.entry(src)
	for _, r := range fc.results {
		if r.key == k {
			res := r.res
			res.Source = src
			res.Hits = slices.Clone(res.Hits)
			return res, true
		}
	}
	for _, r := range fc.results {
		if len(r.res.Hits) == 0 && k.narrows(r.key) {
			return FileResult{Source: src, SessionID: r.res.SessionID, SessionName: r.res.SessionName}, true
		}
	}
	return FileResult{}, false
}

// store remembers a complete result of the file at the given state.
func (c *cache) store(src Source, k queryKey, res FileResult) {
	if len(res.Hits) > maxCachedHits {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	fc := c.entry(src)
	res.Hits = slices.Clone(res.Hits)
	fc.results = slices.DeleteFunc(fc.results, func(r cachedResult) bool {
		if r.key == k {
			c.hits -= len(r.res.Hits)
			return true
		}
		return false
	})
	fc.results = append([]cachedResult{{key: k, res: res}}, fc.results...)
	c.hits += len(res.Hits)
	if len(fc.results) > cachedQueries {
		for _, r := range fc.results[cachedQueries:] {
			c.hits -= len(r.res.Hits)
		}
		fc.results = fc.results[:cachedQueries]
	}
	if c.hits > cacheHitBudget {
		for _, other := range c.files {
			if c.hits <= cacheHitBudget/2 {
				break
			}
			c.forgetResults(other, true)
		}
	}
}

// forgetResults drops a file's results (only those with hits when
// keepEmpty), keeping the count of cached hits. The caller holds mu.
func (c *cache) forgetResults(fc *fileCache, keepEmpty bool) {
	fc.results = slices.DeleteFunc(fc.results, func(r cachedResult) bool {
		if keepEmpty && len(r.res.Hits) == 0 {
			return false
		}
		c.hits -= len(r.res.Hits)
		return true
	})
}

// forgetTree drops a file's tree. The caller holds mu.
func (c *cache) forgetTree(fc *fileCache) {
	if fc.tree != nil {
		c.treeEntries -= fc.tree.entries
		fc.tree = nil
	}
}

// tree returns the cached entry tree of the file, if any.
func (c *cache) tree(src Source) *treeInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entry(src).tree
}

func (c *cache) storeTree(src Source, t *treeInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fc := c.entry(src)
	c.forgetTree(fc)
	if t.entries > cacheTreeBudget/2 {
		return // one huge session: read its tree again when needed
	}
	fc.tree = t
	c.treeEntries += t.entries
	for _, other := range c.files {
		if c.treeEntries <= cacheTreeBudget {
			break
		}
		if other != fc {
			c.forgetTree(other)
		}
	}
}

// name returns the cached session name of the file, if any.
func (c *cache) name(src Source) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fc := c.entry(src)
	return fc.name, fc.named
}

func (c *cache) storeName(src Source, name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fc := c.entry(src)
	fc.name, fc.named = name, true
}
