package session

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgebench/forgebench/test/hostile"
)

// Appends that all read the same guard race: exactly one may append, the
// others must find the session moved on (ErrConflict), and the guarded
// leaf gets one new child, not a fork no one asked for. (The guard held:
// 200 goroutines here, 100 processes of capability add --force by hand.)
func TestConcurrentAppendsOfOneGuardHaveOneWinner(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	g := guardOf(t, path)
	const writers = 200
	wins, errs := hostile.Race(writers, func(int) error {
		_, err := Append(path, g, []NewEntry{CustomEntry("forgebench/race", nil)}, AppendOptions{Force: true})
		return err
	})
	if wins != 1 {
		t.Errorf("%d of %d appends with one guard won", wins, writers)
	}
	for _, err := range errs {
		if !errors.Is(err, ErrConflict) {
			t.Errorf("not a conflict: %v", err)
			break
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if children := childrenOf(s, g.LeafID); children != 1 {
		t.Errorf("the guarded leaf has %d new children, want 1", children)
	}
}

// One append is held between its guard check and its write while a second
// append with the same guard runs. Without a lock around check and write
// the second passed the same check and both appended: two batches chained
// from one leaf. With it, the second waits and then finds the session
// moved on.
func TestAppendCheckAndWriteAreOneStep(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	g := guardOf(t, path)
	entry := []NewEntry{CustomEntry("forgebench/race", nil)}
	second := make(chan error, 1)
	var calls atomic.Int32
	appendCheckedHook = func() {
		if calls.Add(1) != 1 {
			return
		}
		go func() { _, err := Append(path, g, entry, AppendOptions{Force: true}); second <- err }()
		select {
		case err := <-second: // it finished while this one was held: it did not wait
			second <- err
		case <-time.After(500 * time.Millisecond):
		}
	}
	defer func() { appendCheckedHook = func() {} }()
	if _, err := Append(path, g, entry, AppendOptions{Force: true}); err != nil {
		t.Fatalf("first append: %v", err)
	}
	if err := <-second; !errors.Is(err, ErrConflict) {
		t.Errorf("second append with the same guard: %v, want a conflict", err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := childrenOf(s, g.LeafID); n != 1 {
		t.Errorf("the guarded leaf has %d children, want 1", n)
	}
}

// childrenOf counts the entries of s whose parent is id.
func childrenOf(s *Session, id string) int {
	n := 0
	for i := range s.Entries {
		if s.Entries[i].ParentID == id {
			n++
		}
	}
	return n
}
