package session

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/fsnotify/fsnotify"
)

// Large session files are memory-mapped read-only instead of being copied
// into the heap (see mapFile). The pages of a read-only file mapping belong
// to the kernel's page cache: they cost no private memory and no fresh-page
// faults, which dominate a copy on small VMs. Entries keep sub-slices of the
// mapping as they kept sub-slices of read chunks before, so decoding stays
// lazy and nothing else changes for readers of a Session.
//
// A mapped file that is truncated by another process loses the pages past
// its new end, and touching them raises SIGBUS, which Go turns into a fatal
// error unless the goroutine asked for a panic with debug.SetPanicOnFault.
// Three things keep that from crashing forgebench:
//   - the reader's goroutines, the CLI (cli.Run) and the TUI's commands run
//     with SetPanicOnFault and turn a fault inside a mapping into
//     ErrFileChanged (GuardFaults, catchFault);
//   - every caught fault heals its mapping: the pages past the file's new
//     end are replaced by zero pages, so later reads see NUL bytes (which
//     decode as malformed JSON) instead of faulting;
//   - a file watch heals a mapping as soon as its file shrinks, so code on
//     other goroutines meets zero pages, not a fault, once it has fired.
// A file replaced by rename keeps the old inode alive under the mapping and
// needs nothing.

// ErrFileChanged reports a session file that was truncated while
// forgebench held it mapped: bytes it had read are gone. Read it again.
var ErrFileChanged = errors.New("session file was truncated while it was being read")

// mapMinBytes is the smallest file that is mapped; smaller files are read
// (a variable so tests can map every file).
var mapMinBytes int64 = 1 << 20

// mapping is one file mapped over a heap allocation (mapFile).
type mapping struct {
	addr   uintptr // first mapped byte
	length uintptr // mapped bytes (page-rounded)
	size   int64   // file size at open
	path   string
	f      *os.File // kept open to learn the file's size when healing

	mu       sync.Mutex
	valid    uintptr // bytes still backed by the file (length until healed)
	released bool
	cut      bool // the file was found shorter than when it was mapped
}

// wasCut reports whether the file was found shorter than when it was
// mapped (by the file watch or a caught fault): bytes past its new end
// now read as zeros.
func (m *mapping) wasCut() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cut
}

// registry holds the live mappings, for finding the one a fault hit and
// for the file watch. It keeps addresses, never pointers into the
// mappings, so it does not keep them alive.
var registry struct {
	sync.Mutex
	maps    map[*mapping]struct{}
	watcher *fsnotify.Watcher
	watched map[string]int // path → live mappings of it
	noWatch bool           // the watch could not be set up
}

func register(m *mapping) {
	registry.Lock()
	defer registry.Unlock()
	if registry.maps == nil {
		registry.maps = map[*mapping]struct{}{}
		registry.watched = map[string]int{}
	}
	registry.maps[m] = struct{}{}
	mappedBytes(int64(m.length))
	if registry.noWatch {
		return
	}
	if registry.watcher == nil {
		w, err := fsnotify.NewWatcher()
		if err != nil {
			registry.noWatch = true
			return
		}
		registry.watcher = w
		go watchMappings(w)
	}
	{
		if registry.watched[m.path] == 0 {
			if registry.watcher.Add(m.path) != nil {
				return // healed when a fault is caught instead
			}
		}
		registry.watched[m.path]++
	}
}

func unregister(m *mapping) {
	registry.Lock()
	defer registry.Unlock()
	if _, ok := registry.maps[m]; ok {
		mappedBytes(-int64(m.length))
	}
	delete(registry.maps, m)
	if n, ok := registry.watched[m.path]; ok {
		if n <= 1 {
			delete(registry.watched, m.path)
			if registry.watcher != nil {
				_ = registry.watcher.Remove(m.path) // gone already when the file was removed
			}
		} else {
			registry.watched[m.path] = n - 1
		}
	}
}

// watchMappings heals the mappings of a file whenever it changes (a
// truncation is a write event); appends and renames change nothing.
func watchMappings(w *fsnotify.Watcher) {
	for {
		select {
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			for _, m := range mappingsOf(ev.Name) {
				m.heal()
			}
		case _, ok := <-w.Errors:
			if !ok {
				return
			}
		}
	}
}

func mappingsOf(path string) []*mapping {
	registry.Lock()
	defer registry.Unlock()
	var out []*mapping
	for m := range registry.maps {
		if m.path == path {
			out = append(out, m)
		}
	}
	return out
}

// mappingAt returns the live mapping holding addr, or nil.
func mappingAt(addr uintptr) *mapping {
	registry.Lock()
	defer registry.Unlock()
	for m := range registry.maps {
		if addr >= m.addr && addr < m.addr+m.length {
			return m
		}
	}
	return nil
}

// addrOf is the address of b's first byte, for finding the mapping it
// belongs to.
func addrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// heal replaces the pages past the file's current end with zero pages, so
// they read as NUL bytes instead of faulting. It reports whether the file
// had shrunk.
func (m *mapping) heal() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.released || m.f == nil {
		return false
	}
	fi, err := m.f.Stat()
	if err != nil {
		return false
	}
	if fi.Size() >= m.size {
		return false
	}
	m.cut = true
	page := uintptr(os.Getpagesize())
	keep := (uintptr(max(fi.Size(), 0)) + page - 1) &^ (page - 1)
	if keep < m.valid && zeroPages(m.addr+keep, m.valid-keep) == nil {
		m.valid = keep
	}
	return true
}

// shrunk reports whether the mapped file is now shorter than when it was
// mapped (healing it if so).
func (m *mapping) shrunk() bool {
	if m == nil {
		return false
	}
	return m.heal()
}

// faultAddr returns the address of a memory fault turned into a panic by
// debug.SetPanicOnFault.
func faultAddr(r any) (uintptr, bool) {
	e, ok := r.(interface{ Addr() uintptr })
	if !ok {
		return 0, false
	}
	return e.Addr(), true
}

// catchFault, deferred in a function whose goroutine runs with
// debug.SetPanicOnFault(true), turns a fault inside a mapped session file
// into ErrFileChanged in *err and heals the mapping. Any other panic goes on.
func catchFault(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if addr, ok := faultAddr(r); ok {
		if m := mappingAt(addr); m != nil {
			m.heal()
			*err = fmt.Errorf("%s: %w", m.path, ErrFileChanged)
			return
		}
	}
	panic(r)
}

// GuardFaults runs fn on the calling goroutine with memory faults enabled as
// panics (debug.SetPanicOnFault) and returns ErrFileChanged, wrapped with
// the file's path, when fn touched a mapped session file that another
// process truncated; the mapping is healed, so a retry reads zero bytes
// instead of faulting. Any other panic is not caught. The CLI runs every
// command through GuardFaults and the TUI its commands.
func GuardFaults(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer catchFault(&err)
	return fn()
}
