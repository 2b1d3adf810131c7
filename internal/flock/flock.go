// Package flock takes the exclusive locks that serialise forgebench's own
// writers: a check of what a file holds and the write that follows it
// become one step for every forgebench process and goroutine. Pi and
// pi-forge take no locks, so the checks themselves (revisions, append
// guards) stay what protects against them. A leaf (standard library and
// golang.org/x/sys only), shared by resources and session.
//
// A lock has two parts: one held in this process (keyed by the file's
// path), which serialises goroutines on every platform, and one held by
// the operating system on the open file (flock(2) on unix, LockFileEx on
// Windows), which serialises processes where the file system supports it.
package flock

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// ErrBusy reports a lock another holder kept longer than the wait.
var ErrBusy = errors.New("another forgebench write to the same place did not finish in time; try again")

// lockState is what one attempt at the system lock found.
type lockState int

const (
	locked      lockState = iota // the lock is ours
	busy                         // another open file holds it
	unsupported                  // this file system or platform cannot lock
)

// tryLockHook is tryLock; tests replace it to act as a file system that
// cannot lock.
var tryLockHook = tryLock

// Lock takes an exclusive lock on f (a file, or a directory opened for
// reading), waiting at most wait, and returns the function that releases
// it; the caller keeps f open until then. Locks of separate opens of one
// path exclude each other, within one process and across processes. Where
// the system cannot lock (some network mounts, platforms without file
// locks) the lock still excludes this process's other holders and the
// caller goes on; after wait it fails with ErrBusy.
func Lock(f *os.File, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	leave, err := enter(keyOf(f), deadline)
	if err != nil {
		return nil, err
	}
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		release, state := tryLockHook(f)
		switch state {
		case locked:
			return func() { release(); leave() }, nil
		case unsupported:
			return leave, nil
		}
		if time.Now().After(deadline) {
			leave()
			return nil, ErrBusy
		}
		time.Sleep(pause)
	}
}

// keyOf names f's path for the in-process part of the lock.
func keyOf(f *os.File) string {
	if abs, err := filepath.Abs(f.Name()); err == nil {
		return abs
	}
	return filepath.Clean(f.Name())
}

// slot is the in-process lock of one path: a semaphore of one, and how
// many holders and waiters use it (the slot is dropped at zero).
type slot struct {
	sem  chan struct{}
	refs int
}

var (
	slotsMu sync.Mutex
	slots   = map[string]*slot{}
)

// enter takes the in-process lock of key, waiting until deadline at most,
// and returns the function that leaves it.
func enter(key string, deadline time.Time) (leave func(), err error) {
	slotsMu.Lock()
	s := slots[key]
	if s == nil {
		s = &slot{sem: make(chan struct{}, 1)}
		slots[key] = s
	}
	s.refs++
	slotsMu.Unlock()
	drop := func() {
		slotsMu.Lock()
		if s.refs--; s.refs == 0 {
			delete(slots, key)
		}
		slotsMu.Unlock()
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem; drop() }, nil
	case <-timer.C:
		drop()
		return nil, ErrBusy
	}
}
