package session

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
)

// heapObjects is the bytes of the heap's objects, live and dead (what
// the collector lets grow between cycles).
func heapObjects() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestMappedFileDoesNotPaceTheCollector: a mapped session lies in a heap
// allocation, so the collector counted the file as live heap and let
// garbage grow as large as the file before a cycle (the Session panel on
// a 1 GB session held 1.2 GB of private memory, most of it garbage). The
// collector must pace the rest of the heap as if the file were not in it.
func TestMappedFileDoesNotPaceTheCollector(t *testing.T) {
	mapsFiles(t)
	const size = 256 << 20
	path := filepath.Join(t.TempDir(), "sparse.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil { // sparse: no disk, no page cache to speak of
		t.Fatal(err)
	}
	data, _, err := mapFile(f, path, size)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC() // a cycle with the mapping live: the pace is set from it
	base := heapObjects()
	// Without the pacer GOGC=100 lets garbage grow to the mapping plus
	// the other live heap (earlier tests of this process leave some); with
	// it, to about that other heap — plus what a cycle running late lets
	// through on a loaded machine (the collector's workers starve while
	// this loop allocates: 100 MB measured at load 15, 140 MB in a CI run
	// with every package's tests on two cores). Three quarters of the
	// mapping still tells the two apart: unpaced, garbage reaches the
	// whole mapping plus the other heap.
	other := max(liveHeap()-size, minOtherHeap)
	allowed := max(other+48<<20, size*3/4)
	peak := int64(0)
	var sink []byte
	for range 2000 { // 2 GB of garbage, 1 MB at a time
		sink = make([]byte, 1<<20)
		sink[0] = 1
		peak = max(peak, heapObjects()-base)
	}
	_ = sink
	runtime.KeepAlive(data)
	if peak > allowed {
		t.Errorf("garbage grew to %d MB above the live heap (%d MB besides the mapping) beside a %d MB mapping; the collector should run by %d MB", peak>>20, other>>20, size>>20, allowed>>20)
	}
}
