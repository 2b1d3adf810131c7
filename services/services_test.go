package services

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/resources/demo"
)

// demoServices unpacks the demo workspace and makes its services.
func demoServices(t *testing.T) (*Services, demo.Layout) {
	t.Helper()
	layout, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, err := resources.OpenWorkspace(resources.Dirs{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir, ForgeDir: layout.ForgeDir},
		resources.TrustForce, resources.OSEnv())
	if err != nil {
		t.Fatal(err)
	}
	return New(ws), layout
}

// The library is read once however many ask at once, kept until a reload,
// and a reload is what every later reader sees.
func TestLibraryIsReadOnceUntilReload(t *testing.T) {
	svc, layout := demoServices(t)
	before := Built()
	var wg sync.WaitGroup
	libs := make([]*resources.Library, 8)
	for i := range libs {
		wg.Go(func() {
			lib, err := svc.Library()
			if err != nil {
				t.Error(err)
			}
			libs[i] = lib
		})
	}
	wg.Wait()
	if n := svc.LibraryLoads(); n != 1 {
		t.Fatalf("8 readers at once read the library %d times, want 1", n)
	}
	for _, lib := range libs[1:] {
		if lib != libs[0] {
			t.Fatal("readers got different snapshots")
		}
	}
	// A change on disk is seen after a reload, not before.
	path := filepath.Join(layout.ProjectDir, ".pi", "forge", "prompt-stacks", "guarded-worker.json")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if lib, _ := svc.Library(); lib != libs[0] {
		t.Fatal("the snapshot changed without a reload")
	}
	fresh, err := svc.Reload()
	if err != nil {
		t.Fatal(err)
	}
	if lib, _ := svc.Library(); lib != fresh || lib == libs[0] {
		t.Fatal("Library does not return the reloaded snapshot")
	}
	if _, err := fresh.ResolvePreset("project:guarded-worker"); err == nil {
		t.Fatal("the reload still holds the deleted Preset")
	}
	svc.Invalidate()
	if lib, _ := svc.Library(); lib == fresh || svc.LibraryLoads() != 3 {
		t.Fatalf("after Invalidate the library is read again (loads %d)", svc.LibraryLoads())
	}
	if Built() != before {
		t.Fatal("asking the services built new ones")
	}
}

// A read that started before an Invalidate never installs its snapshot:
// the next reader reads the files again.
func TestInvalidateDropsAReadInFlight(t *testing.T) {
	svc, _ := demoServices(t)
	svc.libMu.Lock()
	svc.libSeq++ // a Reload has started…
	seq := svc.libSeq
	svc.libMu.Unlock()
	svc.Invalidate() // …when the library changes
	old, err := resources.LoadLibrary(svc.ws)
	if err != nil {
		t.Fatal(err)
	}
	svc.libMu.Lock()
	if seq > svc.libHave { // what Reload does when its read returns
		svc.lib, svc.libHave = old, seq
	}
	svc.libMu.Unlock()
	if lib, _ := svc.Library(); lib == old {
		t.Fatal("a read older than the Invalidate was kept")
	}
}

// The session locations are resolved once, and again on ReloadLocations
// (the settings may name another directory now).
func TestLocationsAreKeptUntilReload(t *testing.T) {
	svc, layout := demoServices(t)
	loc, err := svc.Locations()
	if err != nil {
		t.Fatal(err)
	}
	custom := t.TempDir()
	settings := filepath.Join(layout.AgentDir, "settings.json")
	if err := os.WriteFile(settings, []byte(`{"sessionDir": "`+custom+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, _ := svc.Locations(); again.SessionDir != loc.SessionDir {
		t.Fatal("the locations changed without a reload")
	}
	re, err := svc.ReloadLocations()
	if err != nil {
		t.Fatal(err)
	}
	if re.SessionDir != custom {
		t.Fatalf("after ReloadLocations sessionDir = %q, want %q", re.SessionDir, custom)
	}
}

// A session id prefix resolves among the workspace's sessions; a name with
// a path separator is a file, never an id.
func TestResolveSession(t *testing.T) {
	svc, layout := demoServices(t)
	file, err := svc.ResolveSession("01a21c48")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(file) != layout.SessionDir || !strings.Contains(file, "01a21c48") {
		t.Fatalf("01a21c48 → %s", file)
	}
	rv := svc.Resolver(ResolverOptions{})
	if _, err := rv.Open("no/such/01a21c48"); err == nil {
		t.Fatal("a missing path was resolved as an id")
	}
	if _, _, err := rv.LoadPreset("no/such.json"); err == nil || !strings.HasPrefix(err.Error(), "preset ") {
		t.Fatalf("a missing preset path: %v", err)
	}
}
