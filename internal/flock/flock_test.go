package flock

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// openTwice creates a file and returns two separate opens of it.
func openTwice(t *testing.T) (a, b *os.File) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	return open(), open()
}

// excludesAndGivesUp checks that a lock held on a excludes b until the
// wait runs out (ErrBusy), and that b gets it once a is released.
func excludesAndGivesUp(t *testing.T, a, b *os.File) {
	t.Helper()
	unlock, err := Lock(a, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(b, 50*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Errorf("second lock while held: %v, want ErrBusy", err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var got error
	go func() {
		defer wg.Done()
		var u func()
		if u, got = Lock(b, 5*time.Second); got == nil {
			u()
		}
	}()
	time.Sleep(20 * time.Millisecond)
	unlock()
	wg.Wait()
	if got != nil {
		t.Errorf("lock after release: %v", got)
	}
	slotsMu.Lock()
	defer slotsMu.Unlock()
	if len(slots) != 0 {
		t.Errorf("%d in-process slots left after every lock was released", len(slots))
	}
}

// Two opens of one file exclude each other; a holder that keeps the lock
// past the wait makes the other give up with ErrBusy.
func TestLockExcludesAndGivesUp(t *testing.T) {
	a, b := openTwice(t)
	excludesAndGivesUp(t, a, b)
}

// Where the system cannot lock (platforms without file locks, network
// mounts) the lock still excludes the process's own goroutines: before,
// it was a no-op there, and racing saves in one TUI could both win.
func TestLockExcludesWhereTheSystemCannotLock(t *testing.T) {
	tryLockHook = func(*os.File) (func(), lockState) { return nil, unsupported }
	defer func() { tryLockHook = tryLock }()
	a, b := openTwice(t)
	excludesAndGivesUp(t, a, b)
}

// The system part alone: a second open finds the file locked (flock on
// unix, LockFileEx on Windows), and free again after release.
func TestSystemLockExcludesSeparateOpens(t *testing.T) {
	a, b := openTwice(t)
	release, state := tryLock(a)
	if state == unsupported {
		t.Skip("no file locks here")
	}
	if state != locked {
		t.Fatalf("first lock: state %d", state)
	}
	if _, state := tryLock(b); state != busy {
		t.Errorf("second open while locked: state %d, want busy", state)
	}
	release()
	if release, state := tryLock(b); state != locked {
		t.Errorf("second open after release: state %d, want locked", state)
	} else {
		release()
	}
}

// Locks of different files do not wait for each other.
func TestLocksOfDifferentFilesAreIndependent(t *testing.T) {
	a, _ := openTwice(t)
	c, _ := openTwice(t)
	ua, err := Lock(a, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer ua()
	uc, err := Lock(c, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("lock of another file: %v", err)
	}
	uc()
}
