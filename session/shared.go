package session

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
	"weak"
)

// shared maps a cleaned path to the session last parsed from it.
var (
	sharedMu sync.Mutex
	shared   = map[string]*sharedEntry{}
)

// sharedEntry is one path's parsed session, held weakly: it lives as long
// as some caller still uses it, and a second caller gets the same one.
type sharedEntry struct {
	mu   sync.Mutex // held while the file is parsed, so callers wait for one parse
	ptr  weak.Pointer[Session]
	size int64
	mod  time.Time
}

// Shared opens the session at path for display (OpenForDisplay: a line
// above DisplayMaxLineBytes is skipped and reported) once per file
// version for the whole process: callers asking for the same unchanged
// file (same size and modification time) get the same *Session, which is
// immutable and safe to share. The cache holds sessions weakly, so it
// never keeps one alive by itself: the TUI's panels that show one session
// (Session, Payloads, Presets, Capabilities) share its memory instead of
// each parsing a copy.
func Shared(path string) (*Session, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	key := filepath.Clean(path)
	sharedMu.Lock()
	e := shared[key]
	if e == nil {
		e = &sharedEntry{}
		shared[key] = e
	}
	sharedMu.Unlock()

	e.mu.Lock()
	defer e.mu.Unlock()
	if s := e.ptr.Value(); s != nil && e.size == info.Size() && e.mod.Equal(info.ModTime()) {
		return s, nil
	}
	s, err := OpenForDisplay(path)
	if err != nil {
		return nil, err
	}
	e.ptr, e.size, e.mod = weak.Make(s), info.Size(), info.ModTime()
	return s, nil
}
