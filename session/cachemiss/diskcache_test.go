package cachemiss

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/forgebench/forgebench/internal/privcache"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// readCounter records the files ReportFiles* read (onAnalyze) while a
// test runs.
func readCounter(t *testing.T) func() []string {
	var mu sync.Mutex
	var read []string
	onAnalyze = func(p string) {
		mu.Lock()
		read = append(read, p)
		mu.Unlock()
	}
	t.Cleanup(func() { onAnalyze = nil })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Clone(read)
		slices.Sort(out)
		read = read[:0]
		return out
	}
}

// withoutTurns is the report with the causes' diff causes left out (the
// cache keeps what the report prints, not the diff behind it).
func withoutTurns(r *Report) *Report {
	c := *r
	c.Breaks = slices.Clone(r.Breaks)
	for i := range c.Breaks {
		c.Breaks[i].Cause.Turn = nil
	}
	return &c
}

func reportJSON(t *testing.T, r *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// copyFiles copies the repository's session files into a temporary
// directory (the cache keys them by path, size and times).
func copyFiles(t *testing.T) []string {
	dir := t.TempDir()
	var out []string
	for i, f := range testFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.Base(filepath.Dir(f))+"-"+string(rune('a'+i%26))+filepath.Base(f))
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestReportCacheEqualsReading: through the cache the report equals
// ReportFiles' break for break (its JSON byte for byte) cold and warm; a
// warm report reads only the files it may not keep (pi-forge wrote to
// them); a file appended to is read again and its new break shows.
func TestReportCacheEqualsReading(t *testing.T) {
	files := copyFiles(t)
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	cache := ReportCache{Dir: t.TempDir(), Key: "test"}
	read := readCounter(t)
	want, wantProblems := ReportFiles(files, opts, nil, nil)
	if len(want.Breaks) < 40 {
		t.Fatalf("%d breaks: the comparison proves little", len(want.Breaks))
	}
	read()
	var touched []string
	for _, f := range files {
		if s, err := session.OpenForDisplay(f); err == nil && forgeTouched(s.Entries) {
			touched = append(touched, f)
		}
	}
	if len(touched) == 0 {
		t.Fatal("no file pi-forge wrote to: the guard is not exercised")
	}
	slices.Sort(touched)
	for run, wantRead := range [][]string{nil, touched} {
		got, problems := ReportFilesCached(files, opts, nil, cache)
		sameReports(t, "cached", got, withoutTurns(want))
		if !bytes.Equal(reportJSON(t, got), reportJSON(t, want)) || !slices.Equal(problems, wantProblems) {
			t.Fatalf("run %d: the JSON or the problems differ", run)
		}
		if r := read(); run > 0 && !slices.Equal(r, wantRead) {
			t.Fatalf("warm run read %d files %v, want only the %d pi-forge wrote to", len(r), r, len(wantRead))
		} else if run == 0 && len(r) != len(files) {
			t.Fatalf("cold run read %d of %d files", len(r), len(files))
		}
	}

	// A break appended to one file: only that file (and the uncacheable
	// ones) is read again, and the report has its break.
	grown := filepath.Join(filepath.Dir(files[0]), "grown.jsonl")
	if err := os.WriteFile(grown, []byte(genSession(60*1000, shortWrite, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	files = append(files, grown)
	ReportFilesCached(files, opts, nil, cache)
	read()
	f, err := os.OpenFile(grown, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-11-20T10:00:05.000Z","message":{"role":"assistant","content":[],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":7000,"output":5,"cacheRead":0,"cacheWrite":0,"cost":{"input":0.021,"output":0.000075,"cacheRead":0,"cacheWrite":0,"total":0.021075}},"stopReason":"stop","timestamp":1795003605000}}` + "\n")
	f.Close()
	got, _ := ReportFilesCached(files, opts, nil, cache)
	if r := read(); !slices.Contains(r, grown) || len(r) != len(touched)+1 {
		t.Fatalf("after an append read %v", r)
	}
	fresh, _ := ReportFiles(files, opts, nil, nil)
	sameReports(t, "after an append", got, withoutTurns(fresh))
	if len(got.Breaks) != len(want.Breaks)+2 {
		t.Fatalf("%d breaks after adding a file of one and appending another, want %d", len(got.Breaks), len(want.Breaks)+2)
	}
}

// TestReportCacheIsNeverTrustedBlindly: a cache file that fails its
// checksum, or was written under another key, is ignored (every file is
// read, the report is right) and replaced; it is written mode 0600 with
// nothing left beside it.
func TestReportCacheIsNeverTrustedBlindly(t *testing.T) {
	files := copyFiles(t)[:12]
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	dir := t.TempDir()
	cache := ReportCache{Dir: dir, Key: "one"}
	read := readCounter(t)
	want, _ := ReportFiles(files, opts, nil, nil)
	ReportFilesCached(files, opts, nil, cache)
	read()
	idx, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(idx) != 1 {
		t.Fatalf("cache directory holds %v", idx)
	}
	if fi, err := os.Stat(idx[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("cache file %v mode %v", err, fi.Mode())
	}
	data, _ := os.ReadFile(idx[0])
	data[len(data)/2] ^= 0x40
	if err := os.WriteFile(idx[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := ReportFilesCached(files, opts, nil, cache)
	if r := read(); len(r) != len(files) {
		t.Fatalf("a corrupt cache was used: read %d of %d files", len(r), len(files))
	}
	sameReports(t, "corrupt cache", got, withoutTurns(want))
	ReportFilesCached(files, opts, nil, cache)
	if r := read(); len(r) >= len(files) {
		t.Fatal("the corrupt cache was not replaced")
	}
	// Another key (another models.json) reads everything anew.
	ReportFilesCached(files, opts, nil, ReportCache{Dir: dir, Key: "two"})
	if r := read(); len(r) != len(files) {
		t.Fatalf("another key read %d of %d files", len(r), len(files))
	}
	if _, err := decodeReportCache(data, "x"); err == nil {
		t.Fatal("a corrupt file decoded")
	}
}

// FuzzDecodeReportCache: any bytes as a cache file decode or are refused,
// never a panic; what decodes encodes to bytes that decode to the same
// cache (encoded again, the same bytes).
func FuzzDecodeReportCache(f *testing.F) {
	part := Report{Sessions: 1, Requests: 3, Breaks: []Break{{SessionID: "s", Timestamp: "t",
		Miss:  Miss{Index: 4, PreviousIndex: 2, EntryID: "a", PreviousEntryID: "b", Provider: "p", Model: "m", MissedTokens: 2000},
		Cause: Cause{Kind: KindIdle, Detail: "idle", Also: []string{KindModel}}}}}
	f.Add(encodeReportCache("k", map[string]cachedPart{"/x.jsonl": {stamp: fileStamp{size: 10}, part: part}}))
	f.Add(encodeReportCache("k", nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := decodeReportCache(data, "k")
		if err != nil {
			return
		}
		once := encodeReportCache("k", m)
		m2, err := decodeReportCache(once, "k")
		if err != nil {
			t.Fatalf("an encoded cache does not decode: %v", err)
		}
		if twice := encodeReportCache("k", m2); !bytes.Equal(once, twice) {
			t.Fatalf("encoded, decoded, encoded: %d bytes, were %d", len(twice), len(once))
		}
	})
}

// TestStoppedReportLeavesTheCache: a report stopped between files (the
// Payloads panel's, no longer waited for) writes no cache file, so the
// next report reads the files again instead of trusting a partial one;
// the same report not stopped writes it.
func TestStoppedReportLeavesTheCache(t *testing.T) {
	files := copyFiles(t)
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	cache := ReportCache{Dir: t.TempDir(), Key: "test"}
	var asked atomic.Int32
	ReportFilesCachedStop(files, opts, nil, cache, func() bool { return int(asked.Add(1)) > len(files)/2 }) // half the files read, then stopped
	if left, _ := filepath.Glob(filepath.Join(cache.Dir, "cache-report-*")); len(left) != 0 {
		t.Fatalf("a stopped report wrote %v", left)
	}
	want, _ := ReportFiles(files, opts, nil, nil)
	got, _ := ReportFilesCachedStop(files, opts, nil, cache, func() bool { return false })
	if !bytes.Equal(reportJSON(t, withoutTurns(got)), reportJSON(t, withoutTurns(want))) {
		t.Fatal("the report through the cache differs from ReportFiles'")
	}
	if left, _ := filepath.Glob(filepath.Join(cache.Dir, "cache-report-*")); len(left) != 1 {
		t.Fatalf("cache files %v", left)
	}
}

// TestUserReportCacheKeysOnTheCatalog: the shared cache lives under the
// user's cache directory, keyed by models.json's content (another content
// is another key), none without a cache directory.
func TestUserReportCacheKeysOnTheCatalog(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	agent := t.TempDir()
	none := UserReportCache(agent)
	if none.Dir != filepath.Join(home, "forgebench") || none.Key != "models.json: none" || privcache.Dir() != none.Dir {
		t.Fatalf("%+v", none)
	}
	if err := os.WriteFile(filepath.Join(agent, catalog.ModelsFile), []byte(`{"providers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	one := UserReportCache(agent)
	if err := os.WriteFile(filepath.Join(agent, catalog.ModelsFile), []byte(`{"providers":{"x":{}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	two := UserReportCache(agent)
	if one.Key == none.Key || one.Key == two.Key || one.Dir != none.Dir {
		t.Fatalf("keys %q %q %q", none.Key, one.Key, two.Key)
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if c := UserReportCache(agent); c.Dir != "" {
		t.Fatalf("no cache directory, cache %+v", c)
	}
}
