package session

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	gen "github.com/forgebench/forgebench/internal/sessiongen"
)

const benchTargetBytes = 100 << 20

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

func TestGeneratedSessionIsCoherent(t *testing.T) {
	path, st := writeGenerated(t, t.TempDir(), 3<<20)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != st.Entries || s.Diagnostics.SkippedLines() != 0 || s.Diagnostics.DuplicateIDs != 0 {
		t.Fatalf("entries %d/%d skipped %d", len(s.Entries), st.Entries, s.Diagnostics.SkippedLines())
	}
	if st.Compactions == 0 || st.Branches == 0 {
		t.Fatalf("generator mix too thin: %+v", st)
	}
	leaf, _ := s.Leaf()
	if leaf.ID != st.LastID {
		t.Errorf("leaf %s, want %s", leaf.ID, st.LastID)
	}
	c, err := s.Context(s.LeafIndex())
	if err != nil {
		t.Fatal(err)
	}
	msgs := c.AgentMessages()
	if len(msgs) == 0 || roles(t, msgs[:1])[0] != RoleCompactionSummary {
		t.Errorf("leaf context must start with the compaction summary")
	}
	if len(s.Tree().Leaves()) < st.Branches {
		t.Errorf("tree has fewer branch tips than branches")
	}
}

// openTreeContext is the measured workload: open, build the tree, build
// the leaf context and convert it for the model.
func openTreeContext(tb testing.TB, path string) int {
	s, err := Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tr := s.Tree()
	c, err := s.Context(s.LeafIndex())
	if err != nil {
		tb.Fatal(err)
	}
	return len(tr.Roots) + len(c.LLMMessages())
}

// peakHeap runs fn once while sampling HeapInuse and returns the peak
// above the heap in use before it started.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

func BenchmarkOpenTreeContext100MB(b *testing.B) {
	path, st := writeGenerated(b, b.TempDir(), benchTargetBytes)
	peak := peakHeap(func() { openTreeContext(b, path) })
	b.SetBytes(st.Bytes)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		openTreeContext(b, path)
	}
	b.StopTimer()
	b.ReportMetric(float64(st.Bytes)/(1<<20), "fileMiB")
	b.ReportMetric(float64(peak)/(1<<20), "peakHeapMiB")
	b.ReportMetric(float64(peak)/float64(st.Bytes), "peak/file")
	b.ReportMetric(float64(st.Entries), "entries")
}

func BenchmarkContextJSONLeaf100MB(b *testing.B) {
	path, _ := writeGenerated(b, b.TempDir(), benchTargetBytes)
	s, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		out, err := ContextJSON(s, "")
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n)/(1<<20), "outMiB")
}

// BenchmarkOpenTinyEntries100MB is the worst case for the index: ~160-byte
// lines, so per-entry bookkeeping rivals the file itself. It measures open +
// tree only (the leaf context of a 660k-message unbroken chain is a
// different, decode-bound workload).
func BenchmarkOpenTinyEntries100MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "tiny.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(testHeader + "\n")
	var size int64
	prev := "null"
	for i := 0; size < benchTargetBytes; i++ {
		id := fmt.Sprintf("%08x", i)
		n, _ := fmt.Fprintf(w, `{"type":"message","id":"%s","parentId":%s,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hi %d","timestamp":1}}`+"\n", id, prev, i)
		size += int64(n)
		prev = `"` + id + `"`
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	openTree := func() {
		s, err := Open(path)
		if err != nil {
			b.Fatal(err)
		}
		_ = s.Tree()
	}
	peak := peakHeap(openTree)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		openTree()
	}
	b.StopTimer()
	b.ReportMetric(float64(peak)/float64(size), "peak/file")
}
