package resources

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/forgebench/forgebench/engine/fingerprint"
)

// concurrentWriters is how many writers race for one file.
const concurrentWriters = 1500

// race runs n writers at once (released together) and returns how many
// succeeded and the distinct errors of the others.
func race(n int, write func(i int) error) (wins int, errs map[string]int) {
	var mu sync.Mutex
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	errs = map[string]int{}
	for i := 0; i < n; i++ {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			err := write(i)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				wins++
			} else {
				errs[err.Error()]++
			}
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return wins, errs
}

// noTemps fails the test when a temporary file is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if isOwnTempName(e.Name()) {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

// 1,500 creates of one id: exactly one wins, the others are conflicts,
// and the file holds the winner's bytes whole.
func TestConcurrentCreatesHaveOneWinner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{})
	wins, errs := race(concurrentWriters, func(i int) error {
		_, err := CreateFile(ws, KindPreset, ScopeProject, "raced", []byte(stackJSON("raced", fmt.Sprintf(`,"name":"writer %d"`, i))))
		if err != nil && !errors.Is(err, ErrConflict) {
			return fmt.Errorf("not a conflict: %w", err)
		}
		return err
	})
	if wins != 1 {
		t.Errorf("%d creates won, want 1 (%v)", wins, errs)
	}
	for msg := range errs {
		if !strings.Contains(msg, "already exists") {
			t.Errorf("unexpected failure: %s", msg)
		}
	}
	path := TargetPath(ws, KindPreset, ScopeProject, "raced")
	if !strings.Contains(string(readBytes(t, path)), `"name":"writer `) {
		t.Errorf("the file does not hold a writer's bytes")
	}
	noTemps(t, filepath.Dir(path))
}

// 1,500 saves that all carry the revision they read: exactly one may win.
// Each checked the revision and then renamed its file into place, so
// several won and all but the last save were silently lost.
func TestConcurrentSavesOfOneRevisionHaveOneWinner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "raced.json": stackJSON("raced", `,"name":"original"`)})
	path := TargetPath(ws, KindPreset, ScopeProject, "raced")
	seen := fingerprint.SourceRevision(readBytes(t, path))
	wins, errs := race(concurrentWriters, func(i int) error {
		_, err := SaveFile(ws, KindPreset, ScopeProject, "raced", []byte(stackJSON("raced", fmt.Sprintf(`,"name":"writer %d"`, i))), seen)
		if err != nil && !errors.Is(err, ErrConflict) {
			return fmt.Errorf("not a conflict: %w", err)
		}
		return err
	})
	if wins != 1 {
		t.Errorf("%d saves of revision %s won, want 1 (%d distinct failures)", wins, seen[:8], len(errs))
	}
	for msg := range errs {
		if !strings.Contains(msg, "Revision conflict") {
			t.Errorf("unexpected failure: %s", msg)
		}
	}
	noTemps(t, filepath.Dir(path))
}

// Saves and deletes of one revision at once: one of them, and only one,
// happens.
func TestConcurrentSavesAndDeletesHaveOneWinner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "raced.json": stackJSON("raced", `,"name":"original"`)})
	path := TargetPath(ws, KindPreset, ScopeProject, "raced")
	seen := fingerprint.SourceRevision(readBytes(t, path))
	wins, errs := race(concurrentWriters, func(i int) error {
		var err error
		if i%2 == 0 {
			_, err = DeleteFile(ws, KindPreset, ScopeProject, "raced", seen)
		} else {
			_, err = SaveFile(ws, KindPreset, ScopeProject, "raced", []byte(stackJSON("raced", fmt.Sprintf(`,"name":"writer %d"`, i))), seen)
		}
		if err != nil && !errors.Is(err, ErrConflict) {
			return fmt.Errorf("not a conflict: %w", err)
		}
		return err
	})
	if wins != 1 {
		t.Errorf("%d saves and deletes of one revision won, want 1 (%v)", wins, errs)
	}
	noTemps(t, filepath.Dir(path))
}
