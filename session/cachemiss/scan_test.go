package cachemiss

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
	gen "github.com/forgebench/forgebench/internal/sessiongen"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// fullReport is the report of the files read in full by session.Open's
// display reader, as the report read every session before the Scanner.
func fullReport(t testing.TB, files []string, opts replay.RequestOptions) *Report {
	t.Helper()
	rep := &Report{}
	for _, f := range files {
		s, err := session.OpenForDisplay(f)
		if err != nil {
			continue
		}
		res, causes := Analyze(s, opts)
		rep.Add(s, res, causes)
	}
	return rep
}

func scanReport(t testing.TB, sc *Scanner, files []string, opts replay.RequestOptions) *Report {
	t.Helper()
	rep := &Report{}
	for _, f := range files {
		_ = sc.Analyze(f, opts, rep) // a file the full reader refuses is refused here too
	}
	return rep
}

func sameReports(t testing.TB, what string, got, want *Report) {
	t.Helper()
	if got.Sessions != want.Sessions || got.Requests != want.Requests || got.Tokens != want.Tokens ||
		(got.Needed != want.Needed && !(got.Needed != got.Needed && want.Needed != want.Needed)) {
		t.Fatalf("%s: totals %d/%d/%+v/%v, read in full %d/%d/%+v/%v", what, got.Sessions, got.Requests, got.Tokens, got.Needed,
			want.Sessions, want.Requests, want.Tokens, want.Needed)
	}
	if len(got.Breaks) != len(want.Breaks) {
		t.Fatalf("%s: %d breaks, read in full %d", what, len(got.Breaks), len(want.Breaks))
	}
	for i := range got.Breaks {
		g, w := got.Breaks[i], want.Breaks[i]
		if g.File != w.File || g.SessionID != w.SessionID || g.Timestamp != w.Timestamp || !sameMiss(g.Miss, w.Miss) ||
			!reflect.DeepEqual(g.Cause, w.Cause) {
			t.Fatalf("%s: break %d\n got %+v\nwant %+v", what, i, g, w)
		}
	}
}

// sameMiss compares two misses, NaN equal to NaN.
func sameMiss(a, b Miss) bool {
	nan := func(f *float64) {
		if *f != *f {
			*f = -1e308
		}
	}
	for _, m := range []*Miss{&a, &b} {
		nan(&m.MissedTokens)
		nan(&m.MissedCost)
		nan(&m.IdleMs)
		nan(&m.TimestampMs)
		nan(&m.Usage.Input)
		nan(&m.Usage.Output)
		nan(&m.Usage.CacheRead)
		nan(&m.Usage.CacheWrite)
	}
	return a == b
}

// testFiles is every session file the repository holds for the detector:
// the demo's, the generated ones, the hostile corpus, and the shared
// fixtures when FORGEBENCH_SHARED is set.
func testFiles(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{
		"../../resources/demo/workspace/home/.pi/agent/sessions/*/*.jsonl",
		"testdata/gen/*.jsonl",
		"../../test/hostile/sessions/*.jsonl",
		"../../test/hostile/sessions/*/*.jsonl",
	} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	if len(files) < 45 {
		t.Fatalf("only %d session files found", len(files))
	}
	if os.Getenv("FORGEBENCH_SHARED") != "" {
		for _, c := range loadPiCases(t) {
			if c.Root != "repo" {
				files = append(files, fixtures.Path(t, strings.TrimPrefix(c.File, "fixtures/")))
			}
		}
	}
	return files
}

// TestScannerEqualsFullRead: the Scanner's report (files decoded line by
// line, opened in full only when they need it) equals the report of every
// file read in full, break for break and cause for cause.
func TestScannerEqualsFullRead(t *testing.T) {
	files := testFiles(t)
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	sc := &Scanner{}
	full := fullReport(t, files, opts)
	if len(full.Breaks) < 40 {
		t.Fatalf("%d breaks over %d files: the comparison proves little", len(full.Breaks), len(files))
	}
	sameReports(t, "all files", scanReport(t, sc, files, opts), full)
	// The buffers are reused: a second pass in another order is the same.
	rev := append([]string(nil), files...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	sameReports(t, "reversed", scanReport(t, sc, rev, opts), fullReport(t, rev, opts))
}

// FuzzScannerEqualsFullRead: any bytes as a session file give the same
// report through the Scanner as read in full.
func FuzzScannerEqualsFullRead(f *testing.F) {
	for _, name := range []string{"testdata/gen/gen-01.jsonl", "testdata/gen/gen-05.jsonl"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(genSession(60*1000, shortWrite, "",
		`{"type":"thinking_level_change","id":"tl","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","thinkingLevel":"high"}`)))
	// A break whose cause needs both requests rebuilt: the session is
	// assembled from the Scanner's entries.
	f.Add([]byte(genSession(60*1000, shortWrite, "",
		`{"type":"context_edit","id":"ce","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","targetId":"u1","replacement":{"content":"HELLO, rewritten"}}`)))
	f.Add([]byte(`{"type":"session","version":2,"id":"x"}
{"type":"message","id":"a","message":{"role":"assistant","usage":{"input":5000,"cacheRead":0,"cacheWrite":1}}}
{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","usage":{"input":9000,"cacheRead":0,"cacheWrite":1}}}
`))
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "s.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sc := &Scanner{}
		sameReports(t, "fuzz", scanReport(t, sc, []string{path}, opts), fullReport(t, []string{path}, opts))
	})
}

// TestWriteJSONIsStringifyOfValue: the streamed JSON text is the
// contract's document, byte for byte.
func TestWriteJSONIsStringifyOfValue(t *testing.T) {
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	rep := fullReport(t, testFiles(t), opts)
	rep.Breaks[0].Timestamp = ""
	rep.Breaks[1].Miss.IdleMs = math.NaN()
	rep.Breaks[2].Miss.CostKnown = false
	rep.Breaks[3].Miss.MissedTokens = math.NaN()
	rep.Breaks[4].Cause.Ref = "ref \"quoted\" \u2028 \x1b"
	for _, r := range []*Report{rep, {}} {
		var b strings.Builder
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if want := jsonv.Stringify(r.Value()) + "\n"; b.String() != want {
			t.Fatalf("WriteJSON differs from Stringify(Value()):\n%.400s\n%.400s", b.String(), want)
		}
	}
}

// TestScannerEqualsFullReadOnMappedSessions: sessions of a megabyte or
// more are mapped, not copied, and those whose breaks need the requests
// rebuilt become sessions of the entries the Scanner decoded
// (session.Assemble): the report still equals the one of the files read
// in full, and its rebuilt causes are there.
func TestScannerEqualsFullReadOnMappedSessions(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, shape := range []gen.Shape{gen.FewLarge, gen.ManySmall} {
		path := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = gen.Write(f, gen.Config{TargetBytes: 3 << 20, Seed: uint64(7 + i), Shape: shape})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
		if file, _, err := session.ReadFileBytes(path, scanMaxBytes, nil); err != nil || !file.Mapped() {
			t.Skipf("session files are read, not mapped, here (%v): the buffer's path is TestScannerEqualsFullRead's", err)
		}
		files = append(files, path)
	}
	opts := replay.RequestOptions{Catalog: catalog.Default()}
	full := fullReport(t, files, opts)
	got := scanReport(t, &Scanner{}, files, opts)
	sameReports(t, "mapped", got, full)
	rebuilt := 0
	for _, b := range got.Breaks {
		if b.Cause.Kind == KindHistoryEdit {
			rebuilt++
		}
	}
	if rebuilt == 0 {
		t.Fatalf("%d breaks, none whose requests were rebuilt: the test proves little", len(got.Breaks))
	}
}

// TestDetectReadingAheadEqualsInOrder: on a session long enough for
// Detect to read the assistant messages ahead on every core, the result
// is the one read in order, over the file and over a branch.
func TestDetectReadingAheadEqualsInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = gen.Write(f, gen.Config{TargetBytes: 14 << 20, Seed: 3, Shape: gen.ManySmall})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.Default()
	for _, indexes := range [][]int{nil, s.PathTo(s.LeafIndex())} {
		n := len(s.Entries)
		if indexes != nil {
			n = len(indexes)
		}
		if n < 2*readAheadWindow {
			t.Fatalf("%d entries to walk: fewer than two windows", n)
		}
		// Read ahead whatever GOMAXPROCS is (Detect does only on more
		// than one core), against the walk that reads in order.
		got, want := detect(s.Entries, indexes, cat, &readAhead{}), detect(s.Entries, indexes, cat, nil)
		if len(want.Misses) < 100 || !reflect.DeepEqual(got.Tokens, want.Tokens) || got.Requests != want.Requests || got.Needed != want.Needed ||
			len(got.Misses) != len(want.Misses) {
			t.Fatalf("read ahead: %d requests, %d misses; in order: %d, %d", got.Requests, len(got.Misses), want.Requests, len(want.Misses))
		}
		for i := range want.Misses {
			if !sameMiss(got.Misses[i], want.Misses[i]) {
				t.Fatalf("miss %d: %+v, in order %+v", i, got.Misses[i], want.Misses[i])
			}
		}
	}
}
