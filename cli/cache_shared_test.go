package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/session/cachemiss"
)

// TestCacheReportSharesThePanelsCache: the cache report keeps its listing
// and report caches where the Payloads panel's cache view reads them —
// the same directory, the same report cache key (models.json's content).
func TestCacheReportSharesThePanelsCache(t *testing.T) {
	agent := t.TempDir()
	if err := os.WriteFile(filepath.Join(agent, "models.json"), []byte(`{"providers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if completionCacheDir() == "" || completionCacheDir() != cachemiss.CacheDir() {
		t.Fatalf("cache directories %q %q", completionCacheDir(), cachemiss.CacheDir())
	}
	if got, want := reportCache(agent), cachemiss.UserReportCache(agent); got != want || got.Key == "models.json: none" {
		t.Fatalf("report cache %+v, the panel's %+v", got, want)
	}
}
