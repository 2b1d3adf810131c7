package payloads

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgebench/forgebench/internal/privcache"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/cachemiss"
)

// TestCacheViewThroughTheReportCache: the cache view lists the project and
// reports on it through the caches the CLI's cache report keeps (the
// listing and the report cache under the user's cache directory, with the
// CLI's key), and shows, cold and warm, the rows and summary of the
// uncached report over the same files.
func TestCacheViewThroughTheReportCache(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	hs := breaksHarness(t, 160, 48)
	e := hs.m.env
	loc, err := e.svc.Locations()
	if err != nil {
		t.Fatal(err)
	}
	// A session pi-forge did not write to (the demo's all are): the
	// report cache keeps its part, so the cache file shows.
	plain := strings.Join([]string{
		`{"type":"session","version":3,"id":"01a30000-0000-7000-8000-00000000c0de","timestamp":"2026-11-20T09:00:00.000Z","cwd":"` + e.svc.Workspace().Cwd + `"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-11-20T09:00:00.000Z","message":{"role":"user","content":"hello","timestamp":1795000000000}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.0225,"total":0.0226}},"stopReason":"stop","timestamp":1795000001000}}`,
		`{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"user","content":"more","timestamp":1795000002000}}`,
		`{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6500,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.024375,"total":0.02448}},"stopReason":"stop","timestamp":1795003600000}}`,
	}, "\n") + "\n"
	dir := loc.DefaultSessionDir(e.svc.Workspace().Cwd, e.svc.Home())
	if err := os.WriteFile(filepath.Join(dir, "2026-11-20T09-00-00-000Z_01a30000-0000-7000-8000-00000000c0de.jsonl"), []byte(plain), 0o644); err != nil {
		t.Fatal(err)
	}
	items, err := session.ListCwd(loc, e.svc.Workspace().Cwd, session.ListOptions{Home: e.svc.Home()})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, it := range items {
		if it.Problem == "" {
			files = append(files, it.Path)
		}
	}
	rep, problems := cachemiss.ReportFiles(files, e.requestOptions(), nil, nil)
	top := rep.Costliest(-1)
	var want []breakRow
	for i := range top {
		want = append(want, newBreakRow(&top[i]))
	}
	if len(want) < 4 || len(files) < 4 {
		t.Fatalf("%d breaks in %d files: the comparison proves little", len(want), len(files))
	}
	wantSummary := reportSummary(rep, len(problems))
	var stop atomic.Bool
	for _, run := range []string{"cold", "warm"} {
		rows, summary, err := projectBreaks(e, &stop)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rows, want) || summary != wantSummary {
			t.Fatalf("%s: rows %+v summary %q, want %+v %q", run, rows, summary, want, wantSummary)
		}
		dir := privcache.Dir()
		if dir == "" {
			t.Fatal("no cache directory")
		}
		reports, _ := filepath.Glob(filepath.Join(dir, "cache-report-*"))
		listings, _ := filepath.Glob(filepath.Join(dir, "sessions-*"))
		if len(reports) != 1 || len(listings) != 1 {
			t.Fatalf("%s: caches %v %v in %s", run, reports, listings, dir)
		}
	}
	if c := cachemiss.UserReportCache(e.svc.Workspace().AgentDir); c.Dir != privcache.Dir() || c.Key == "" {
		t.Fatalf("report cache %+v", c)
	}
}
