package subagent

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/stats"
)

// Cache keeps what was read from session files, keyed by path and
// invalidated when a file's size or modification time changes, so a reload
// or a follow re-reads only the files that grew. It is safe for concurrent
// use. The zero value is not usable; use NewCache.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cached
}

type cached struct {
	size    int64
	mod     time.Time
	cat     *catalog.Catalog
	summary *FileSummary
	// parent is what a parent's children need (the ids on the active
	// branch, the spawn_agent tasks), filled on first request.
	parent *parentView
}

// parentView is what the children of an agent need from its session: the
// ids on its active branch (for visibility) and the messages of its
// spawn_agent calls by task name (for a child whose own files name no
// task).
type parentView struct {
	branch     map[string]bool
	spawnTasks map[string]string
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{entries: map[string]*cached{}} }

// Len is the number of files cached.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// fileState is what decides whether a cached value is still valid.
func fileState(path string) (int64, time.Time, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, time.Time{}, err
	}
	if !fi.Mode().IsRegular() {
		return 0, time.Time{}, fmt.Errorf("%s is not a regular file", path)
	}
	return fi.Size(), fi.ModTime(), nil
}

// summary returns the file's summary, and with asParent what its
// children need from it, reading the file only when the cache has nothing
// for its current size and mtime (or was filled with another catalog).
func (c *Cache) summary(path string, cat *catalog.Catalog, asParent bool) (*FileSummary, *parentView, error) {
	size, mod, err := fileState(path)
	if err != nil {
		return nil, nil, err
	}
	if c != nil {
		c.mu.Lock()
		e := c.entries[path]
		c.mu.Unlock()
		if e != nil && e.size == size && e.mod.Equal(mod) && e.cat == cat && (!asParent || e.parent != nil) {
			return e.summary, e.parent, nil
		}
	}
	d, err := stats.ReadDigest(path, stats.DigestOptions{})
	if err != nil {
		return nil, nil, err
	}
	fs := summarize(d, cat)
	var parent *parentView
	if asParent {
		parent = &parentView{branch: branchIDs(d), spawnTasks: spawnTasksOf(d)}
	}
	if c != nil {
		c.mu.Lock()
		// The digest saw the file as it was while reading; record the
		// size it read so a file still growing is read again next time.
		c.entries[path] = &cached{size: d.Size, mod: mod, cat: cat, summary: fs, parent: parent}
		if d.Size != size {
			c.entries[path].mod = time.Time{}
		}
		c.mu.Unlock()
	}
	return fs, parent, nil
}

// branchIDs is the set of entry ids on the path to the default leaf.
func branchIDs(d *stats.Digest) map[string]bool {
	path := d.PathTo(d.LeafIndex())
	ids := make(map[string]bool, len(path))
	for _, i := range path {
		if e := &d.Entries[i]; e.HasID {
			ids[e.ID] = true
		}
	}
	return ids
}
