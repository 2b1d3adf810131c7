package main

import (
	"os"
	"path/filepath"
	"testing"
)

// dirBytes is the size of every session writeDirectory wrote.
func dirBytes(t *testing.T, agentDir string) (total int64, sizes []int64) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(agentDir, "sessions", "*", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sessions written: %v", err)
	}
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		total += fi.Size()
		sizes = append(sizes, fi.Size())
	}
	return total, sizes
}

// TestWriteDirectoryScalesToTotal: -total scales every session by one
// factor, so the files written add up to the total within 1%, with the
// same mix of small and large sessions.
func TestWriteDirectoryScalesToTotal(t *testing.T) {
	drawn, scaled := t.TempDir(), t.TempDir()
	if err := writeDirectory(drawn, "/home/dev/p", 60, 0, 7); err != nil {
		t.Fatal(err)
	}
	if err := writeDirectory(scaled, "/home/dev/p", 60, 2_000_000, 7); err != nil {
		t.Fatal(err)
	}
	dt, ds := dirBytes(t, drawn)
	st, ss := dirBytes(t, scaled)
	if st < 1_980_000 || st > 2_020_000 || st >= dt {
		t.Fatalf("scaled to 2 MB: %d bytes (drawn: %d)", st, dt)
	}
	largest := func(s []int64) int {
		k := 0
		for i := range s {
			if s[i] > s[k] {
				k = i
			}
		}
		return k
	}
	if largest(ds) != largest(ss) {
		t.Fatalf("the largest session moved: %d drawn, %d scaled", largest(ds), largest(ss))
	}
}
