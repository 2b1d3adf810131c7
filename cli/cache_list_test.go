package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

// TestCacheReportThroughItsCaches: the project's sessions are listed
// through the listing cache and reported through the report cache (an
// index file each in the user's cache directory), and the report read
// with no cache, cold ones, warm ones, after a session grew and after
// models.json changed is the same document as without a cache, its
// sessions in the same order; another models.json is another report
// cache.
func TestCacheReportThroughItsCaches(t *testing.T) {
	root := t.TempDir()
	agent, cwd := filepath.Join(root, "agent"), filepath.Join(root, "project")
	dir := session.Locations{AgentDir: agent}.DefaultSessionDir(cwd, "")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gen, _ := filepath.Glob("../session/cachemiss/testdata/gen/gen-0*.jsonl")
	if len(gen) < 3 {
		t.Fatalf("generated sessions: %v", gen)
	}
	for _, f := range gen {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", "")
	report := func() string {
		t.Helper()
		code, out, errOut := runCLI(t, "--cwd", cwd, "--agent-dir", agent, "--forge-dir", filepath.Join(root, "forge"), "cache", "report", "--json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		return out
	}
	t.Setenv("XDG_CACHE_HOME", "")
	uncached := report()
	if !strings.Contains(uncached, `"sessions":`+strconv.Itoa(len(gen))) {
		t.Fatalf("not every session read: %s", uncached)
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	if cold := report(); cold != uncached {
		t.Fatalf("through a cold listing cache:\n%s\nwithout:\n%s", cold, uncached)
	}
	for _, pattern := range []string{"sessions-*.idx", "cache-report-*.idx"} {
		if files, _ := filepath.Glob(filepath.Join(cache, "forgebench", pattern)); len(files) != 1 {
			t.Fatalf("%s: %v", pattern, files)
		}
	}
	if warm := report(); warm != uncached {
		t.Fatalf("through a warm listing cache:\n%s\nwithout:\n%s", warm, uncached)
	}
	// A session that grows is read again: the cached listing follows it.
	last := filepath.Join(dir, filepath.Base(gen[0]))
	f, err := os.OpenFile(last, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"type":"session_info","id":"zz000001","parentId":null,"timestamp":"2027-01-01T00:00:00.000Z","name":"grown"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	warm := report()
	t.Setenv("XDG_CACHE_HOME", "")
	if now := report(); warm != now {
		t.Fatalf("after a session grew, through the cache:\n%s\nwithout:\n%s", warm, now)
	}
	// Prices from models.json: another report cache, the same document
	// as without one.
	models := `{"providers":{"anthropic":{"modelOverrides":{"claude-sonnet-4-5":{"cost":{"input":30,"output":150,"cacheRead":3,"cacheWrite":37.5}}}}}}`
	if err := os.MkdirAll(agent, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "models.json"), []byte(models), 0o644); err != nil {
		t.Fatal(err)
	}
	uncached = report()
	t.Setenv("XDG_CACHE_HOME", cache)
	if priced := report(); priced != uncached {
		t.Fatalf("after models.json changed, through the cache:\n%s\nwithout:\n%s", priced, uncached)
	}
	if files, _ := filepath.Glob(filepath.Join(cache, "forgebench", "cache-report-*.idx")); len(files) != 2 {
		t.Fatalf("report caches after models.json changed: %v", files)
	}
}
