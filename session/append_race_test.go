package session

import (
	"errors"
	"testing"

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
