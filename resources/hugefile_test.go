package resources

import (
	"os"
	"runtime"
	"strconv"
	"testing"
)

// pi-forge stats a capability file and refuses one over 1 MiB without
// reading it. A huge (here sparse, 256 MiB) file must not be read into
// memory, and the diagnostic carries the size from stat.
func TestHugeCapabilityIsNotRead(t *testing.T) {
	ws := newWorkspace(t, map[string]string{projCaps + "ok.json": capJSON("ok")})
	huge := wsPath(ws, projCaps+"huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	const size = 256 << 20
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lib, err := LoadLibraryWith(ws, LoadOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Fatalf("loading the library allocated %d bytes: the huge file was read", grew)
	}
	var got *Capability
	for _, c := range lib.Capabilities {
		if c.FileName() == "huge.json" {
			got = c
		}
	}
	if got == nil {
		t.Fatal("huge.json is not listed")
	}
	want := "Capability capability file size (" + strconv.Itoa(size) + " bytes) exceeds 1MiB limit."
	if len(got.Diagnostics) != 1 || got.Diagnostics[0].Message != want || got.SourceRevision != "" || got.Usable() {
		t.Fatalf("diagnostics %+v revision %q", got.Diagnostics, got.SourceRevision)
	}
	if got.ID != "huge" || got.Raw != nil {
		t.Fatalf("fault entry: id %q raw %d bytes", got.ID, len(got.Raw))
	}
}
