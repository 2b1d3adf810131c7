package stats

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/test/hostile"
)

// The digest feeds dashboards (the Agents tree and its statistics): a line
// above the display limit is skipped, named in the diagnostics, and what it
// costs does not grow with its length. `agents list` of a session with one
// 300 MB line took 2.6 s and 1.1 GB reading it whole (0.17 s and 133 MB now).
func TestDigestSkipsLinesAboveTheDisplayLimit(t *testing.T) {
	alloc := func(lineBytes int64) uint64 {
		path := filepath.Join(t.TempDir(), "huge.jsonl")
		if err := hostile.WriteHugeLineSession(path, lineBytes); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		d, err := ReadDigest(path, DigestOptions{})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Diagnostics.OversizedLines) != 1 || d.Diagnostics.OversizedLines[0] != 3 {
			t.Errorf("oversized lines %v, want [3]", d.Diagnostics.OversizedLines)
		}
		// The same length the full reader reports, for the same note.
		if s, err := session.OpenForDisplay(path); err != nil || len(d.Diagnostics.OversizedLineBytes) != 1 ||
			len(s.Diagnostics.OversizedLineBytes) != 1 || d.Diagnostics.OversizedLineBytes[0] != s.Diagnostics.OversizedLineBytes[0] {
			t.Errorf("oversized line bytes %v, the reader says %v (%v)", d.Diagnostics.OversizedLineBytes, s.Diagnostics.OversizedLineBytes, err)
		}
		if len(d.Entries) != 2 {
			t.Errorf("%d entries, want the 2 around the huge line", len(d.Entries))
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(session.DisplayMaxLineBytes+1<<20), alloc(3*session.DisplayMaxLineBytes)
	if large > small+8<<20 {
		t.Errorf("a line 3 times the limit cost %d MiB, one just above it %d MiB: the skipped line is held", large>>20, small>>20)
	}
}
