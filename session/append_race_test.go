package session

import (
	"errors"
	"sync"
	"testing"
)

// Appends that all read the same guard race: exactly one may append, the
// others must find the session moved on (ErrConflict). Each checked the
// guard and then wrote with O_APPEND, so several appended batches chained
// from the same leaf — a fork in the session no one asked for.
func TestConcurrentAppendsOfOneGuardHaveOneWinner(t *testing.T) {
	path := stageSession(t, "base.jsonl")
	g := guardOf(t, path)
	const writers = 200
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	wins, conflicts := 0, 0
	var other []error
	for i := 0; i < writers; i++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			_, err := Append(path, g, []NewEntry{CustomEntry("forgebench/race", nil)}, AppendOptions{Force: true})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, ErrConflict):
				conflicts++
			default:
				other = append(other, err)
			}
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	if wins != 1 || len(other) > 0 {
		t.Errorf("%d of %d appends with one guard won (%d conflicts, other errors %v)", wins, writers, conflicts, other)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	children := 0
	for i := range s.Entries {
		if s.Entries[i].ParentID == g.LeafID {
			children++
		}
	}
	if children != 1 {
		t.Errorf("the guarded leaf has %d new children, want 1", children)
	}
}
