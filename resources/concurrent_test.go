package resources

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/test/hostile"
)

// concurrentWriters is how many writers race for one file.
const concurrentWriters = 1500

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

// raceOnePreset races concurrentWriters calls of write over the preset
// "raced" and checks that exactly one won and every other failed with a
// conflict whose message holds wantLoss.
func raceOnePreset(t *testing.T, ws Workspace, wantLoss string, write func(i int) error) {
	t.Helper()
	wins, errs := hostile.Race(concurrentWriters, write)
	if wins != 1 {
		t.Errorf("%d of %d writers won, want 1", wins, concurrentWriters)
	}
	for _, err := range errs {
		if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), wantLoss) {
			t.Errorf("unexpected failure: %v", err)
			break
		}
	}
	noTemps(t, StorageDir(ws, KindPreset, ScopeProject))
}

// 1,500 creates of one id: exactly one wins, the others are conflicts,
// and the file holds the winner's bytes whole.
func TestConcurrentCreatesHaveOneWinner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{})
	raceOnePreset(t, ws, "already exists", func(i int) error {
		_, err := CreateFile(ws, KindPreset, ScopeProject, "raced", []byte(stackJSON("raced", fmt.Sprintf(`,"name":"writer %d"`, i))))
		return err
	})
	if !strings.Contains(string(readBytes(t, TargetPath(ws, KindPreset, ScopeProject, "raced"))), `"name":"writer `) {
		t.Errorf("the file does not hold a writer's bytes")
	}
}

// 1,500 saves that all carry the revision they read: exactly one may win.
// Each checked the revision and then renamed its file into place, so
// several won (13 in one run) and all but the last save were silently lost.
func TestConcurrentSavesOfOneRevisionHaveOneWinner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "raced.json": stackJSON("raced", `,"name":"original"`)})
	seen := fingerprint.SourceRevision(readBytes(t, TargetPath(ws, KindPreset, ScopeProject, "raced")))
	raceOnePreset(t, ws, "Revision conflict", func(i int) error {
		_, err := SaveFile(ws, KindPreset, ScopeProject, "raced", []byte(stackJSON("raced", fmt.Sprintf(`,"name":"writer %d"`, i))), seen)
		return err
	})
}

// Saves and deletes of one revision at once: one of them, and only one,
// happens.
func TestConcurrentSavesAndDeletesHaveOneWinner(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projStacks + "raced.json": stackJSON("raced", `,"name":"original"`)})
	seen := fingerprint.SourceRevision(readBytes(t, TargetPath(ws, KindPreset, ScopeProject, "raced")))
	raceOnePreset(t, ws, "", func(i int) error {
		if i%2 == 0 {
			_, err := DeleteFile(ws, KindPreset, ScopeProject, "raced", seen)
			return err
		}
		_, err := SaveFile(ws, KindPreset, ScopeProject, "raced", []byte(stackJSON("raced", fmt.Sprintf(`,"name":"writer %d"`, i))), seen)
		return err
	})
}
