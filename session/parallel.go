package session

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// FaultGroup runs helper goroutines for work over a session's entries.
// Each runs with debug.SetPanicOnFault, as the reader's decoders do, and a
// panic on one (a mapped file truncated under it) is carried back to the
// goroutine that waits: GuardFaults there turns it into ErrFileChanged
// instead of the process dying of a fault on a goroutine nobody guards.
type FaultGroup struct {
	wg       sync.WaitGroup
	mu       sync.Mutex
	panicked any
}

// Go runs fn on a new goroutine of the group.
func (g *FaultGroup) Go(fn func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.panicked == nil {
					g.panicked = r
				}
				g.mu.Unlock()
			}
		}()
		fn()
	}()
}

// Wait waits for the group's goroutines and re-raises the first panic one
// of them recovered, on the caller's goroutine.
func (g *FaultGroup) Wait() {
	g.wg.Wait()
	if g.panicked != nil {
		panic(g.panicked)
	}
}

// ForEachRange runs fn(w, lo, hi) for the ranges [w*chunk, (w+1)*chunk) of
// [0, n), one goroutine each, and waits for them.
func ForEachRange(n, chunk int, fn func(w, lo, hi int)) {
	var g FaultGroup
	for w, lo := 0, 0; lo < n; w, lo = w+1, lo+chunk {
		hi := min(n, lo+chunk)
		g.Go(func() { fn(w, lo, hi) })
	}
	g.Wait()
}

// InParallel runs fn(0) … fn(n-1) on up to one goroutine per core and
// waits for them; a memory fault on a helper (a mapped session file cut
// under it) is raised again on the caller's goroutine, where GuardFaults
// turns it into ErrFileChanged. Work over a session's entries that the
// TUI splits over the cores goes through it.
func InParallel(n int, fn func(j int)) { inParallel(n, fn) }

// inParallel runs fn(0) … fn(n-1) on up to one goroutine per core (on the
// caller's alone when there is one job or one core) and waits for them.
func inParallel(n int, fn func(j int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	if workers < 2 {
		for j := 0; j < n; j++ {
			fn(j)
		}
		return
	}
	var next atomic.Int64
	var g FaultGroup
	for w := 0; w < workers; w++ {
		g.Go(func() {
			for j := int(next.Add(1) - 1); j < n; j = int(next.Add(1) - 1) {
				fn(j)
			}
		})
	}
	g.Wait()
}

// ParallelMin is the entry count from which records are read by
// several goroutines.
const ParallelMin = 4096
