package cli

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/engine/sanitize"
	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/session"
)

// loadTreeBench generates and loads a session of many small entries.
func loadTreeBench(b *testing.B, size int64) (*session.Session, *session.Tree, []bool) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "small.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: size, Seed: 42, Shape: gen.ManySmall}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	s, err := session.OpenForDisplay(path)
	if err != nil {
		b.Fatal(err)
	}
	active := make([]bool, len(s.Entries))
	for _, i := range s.PathTo(s.LeafIndex()) {
		active[i] = true
	}
	return s, s.Tree(), active
}

// BenchmarkWriteTree is session tree's drawing of a 10 MB session of
// small entries (loaded once), through the CLI's sanitising writer.
func BenchmarkWriteTree(b *testing.B) {
	s, tree, active := loadTreeBench(b, 10<<20)
	b.ReportMetric(float64(len(s.Entries)), "entries")
	b.ResetTimer()
	for b.Loop() {
		w := bufio.NewWriterSize(sanitize.NewWriter(io.Discard), 64<<10)
		writeTree(w, s, tree, active, s.LeafIndex())
		w.Flush()
	}
}

// BenchmarkWriteTreeJSON is the same for --json.
func BenchmarkWriteTreeJSON(b *testing.B) {
	s, tree, active := loadTreeBench(b, 10<<20)
	b.ResetTimer()
	for b.Loop() {
		w := bufio.NewWriterSize(io.Discard, 64<<10)
		writeTreeJSON(w, s, tree, active, s.LeafIndex())
		w.Flush()
	}
}
