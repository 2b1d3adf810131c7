package common

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/forgebench/forgebench/session"
)

// SessionCacheSize is how many session files the shared cache keeps
// parsed: the selected session and a few the Payloads panel compares.
const SessionCacheSize = 4

// SessionCache keeps the sessions the panels opened with session.Open
// (every line Pi accepts), keyed by path and checked against the file's
// size and modification time. Several panels follow the selection and
// each needs the parsed session at every cursor move: with the cache a
// 100 MB file is read once and shared (a session is immutable once read),
// and a file that changed on disk (follow mode, an append) is read again.
// Requests for a file that is being read wait for that read instead of
// starting their own. At most SessionCacheSize files are kept, the least
// recently used leaving first. Safe for concurrent use from commands.
type SessionCache struct {
	mu      sync.Mutex
	entries map[string]*cachedSession
	// order lists the cached paths, least recently used first.
	order []string
	max   int
	reads int
}

// cachedSession is one file's parsed session, or the read in progress
// (done is closed when s and err are set).
type cachedSession struct {
	size int64
	mod  time.Time
	done chan struct{}
	s    *session.Session
	err  error
}

// NewSessionCache returns an empty cache of at most max files (at least 1).
func NewSessionCache(max int) *SessionCache {
	return &SessionCache{entries: map[string]*cachedSession{}, max: max}
}

// Open returns the session at path as session.Open reads it, from the
// cache when the file has not changed since it was read.
func (c *SessionCache) Open(path string) (*session.Session, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	c.mu.Lock()
	e, ok := c.entries[path]
	if ok && e.size == info.Size() && e.mod.Equal(info.ModTime()) {
		c.touch(path)
		c.mu.Unlock()
		<-e.done
		return e.s, e.err
	}
	e = &cachedSession{size: info.Size(), mod: info.ModTime(), done: make(chan struct{})}
	c.entries[path] = e
	c.touch(path)
	c.reads++
	c.mu.Unlock()

	e.s, e.err = session.Open(path)
	close(e.done)
	if e.err != nil { // not kept: the next request tries again
		c.mu.Lock()
		if c.entries[path] == e {
			delete(c.entries, path)
			c.order = slices.DeleteFunc(c.order, func(p string) bool { return p == path })
		}
		c.mu.Unlock()
	}
	return e.s, e.err
}

// touch makes path the most recently used and drops the oldest files
// beyond the limit (c.mu held).
func (c *SessionCache) touch(path string) {
	c.order = slices.DeleteFunc(c.order, func(p string) bool { return p == path })
	c.order = append(c.order, path)
	for len(c.order) > max(1, c.max) {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
}

// Reads is how many times a file was actually read (not served from the
// cache) since the cache was made.
func (c *SessionCache) Reads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads
}
