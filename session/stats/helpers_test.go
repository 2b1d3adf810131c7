package stats

import (
	"os"
	"path/filepath"
	"testing"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
)

// Shared fixtures these tests read (under $FORGEBENCH_SHARED/fixtures).
const (
	piSessions   = "pi-sessions"
	generatedDir = piSessions + "/generated-pi-1.6.0/agent/sessions/--home-dev-projects-demo-app--"
	mainFile     = generatedDir + "/2026-11-29T22-47-39-368Z_01a2297e-1867-72d0-99d9-f9f8b12b74b4.jsonl"
)

// writeGenerated writes a deterministic session of about size bytes.
func writeGenerated(tb testing.TB, dir string, size int64) (string, gen.Stats) {
	tb.Helper()
	path := filepath.Join(dir, "bench.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := gen.Write(f, gen.Config{TargetBytes: size, Seed: 42})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		tb.Fatal(err)
	}
	return path, st
}
