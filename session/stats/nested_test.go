package stats

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
)

// The nested runs tools report are kept apart from the session model's
// requests, counted as pi-forge's cache view counts them: a report without
// cache figures and a malformed one are counted, not summed; an aborted
// request that reported nothing is no main request; a nested call's cost is
// its tool result's own usage cost, else unknown.
func TestSplitStreamsKeepsNestedRunsApart(t *testing.T) {
	s, err := session.Open(filepath.Join("testdata", "nested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, len(s.Entries))
	for i := range all {
		all[i] = i
	}
	got := SplitStreams(s, all, catalog.Default())
	want := Streams{
		Main: RunTotals{Requests: 3, Input: 150, Output: 110, CacheRead: 3700, CacheWrite: 60, Cost: 0.016},
		Nested: NestedTotals{
			RunTotals: RunTotals{Requests: 6, Input: 1705, Output: 726, CacheRead: 7207, CacheWrite: 108, Cost: 0.021, Unpriced: 1},
			Calls:     3, CacheUnknownCalls: 1, InvalidCalls: 1,
		},
	}
	if got != want {
		t.Errorf("whole file:\n got %+v\nwant %+v", got, want)
	}
	leaf, _ := s.IndexOf("n10")
	branch := SplitStreams(s, s.PathTo(leaf), catalog.Default())
	want.Nested.RunTotals = RunTotals{Requests: 5, Input: 1700, Output: 720, CacheRead: 7200, CacheWrite: 100, Cost: 0.02, Unpriced: 1}
	want.Nested.Calls = 2
	if branch != want {
		t.Errorf("branch to n10 (the other branch's run left out):\n got %+v\nwant %+v", branch, want)
	}
	if st := SessionStats(s, catalog.Default()); st.Cost != 0.037 {
		t.Errorf("Pi's statistics changed: cost %v, want 0.037", st.Cost)
	}
	none := SplitStreams(s, nil, nil)
	if none.Nested.Any() || none.Main.Requests != 0 {
		t.Errorf("no entries: %+v", none)
	}
}

// ParseNestedUsage holds every rule of pi-forge's parseForgeNestedUsage.
func TestParseNestedUsageRules(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		ok   bool
		want NestedUsage
	}{
		{`{"schemaVersion":1,"requests":2,"input":1500,"output":420,"cacheRead":3200,"cacheWrite":0}`, true,
			NestedUsage{Requests: 2, Input: 1500, Output: 420, CacheKnown: true, CacheRead: 3200}},
		{`{"schemaVersion":1,"requests":1,"input":7,"output":9}`, true, NestedUsage{Requests: 1, Input: 7, Output: 9}},
		{`{"schemaVersion":1.0,"requests":0,"input":0,"output":0}`, true, NestedUsage{}},
		{`{"schemaVersion":1,"requests":0,"input":0,"output":0,"cacheRead":0,"cacheWrite":0}`, true, NestedUsage{CacheKnown: true}},
		{`{"schemaVersion":1,"requests":0,"input":1,"output":0}`, false, NestedUsage{}},                              // zero requests, tokens
		{`{"schemaVersion":1,"requests":0,"input":0,"output":0,"cacheRead":5,"cacheWrite":0}`, false, NestedUsage{}}, // same
		{`{"schemaVersion":2,"requests":1,"input":1,"output":1}`, false, NestedUsage{}},
		{`{"schemaVersion":"1","requests":1,"input":1,"output":1}`, false, NestedUsage{}},
		{`{"requests":1,"input":1,"output":1}`, false, NestedUsage{}},
		{`{"schemaVersion":1,"input":1,"output":1}`, false, NestedUsage{}},
		{`{"schemaVersion":1,"requests":1,"input":1,"output":1,"cacheRead":1}`, false, NestedUsage{}},                      // unpaired
		{`{"schemaVersion":1,"requests":1,"input":1,"output":1,"cacheRead":null,"cacheWrite":null}`, false, NestedUsage{}}, // null is not absent
		{`{"schemaVersion":1,"requests":1,"input":1.5,"output":1}`, false, NestedUsage{}},
		{`{"schemaVersion":1,"requests":-1,"input":1,"output":1}`, false, NestedUsage{}},
		{`{"schemaVersion":1,"requests":1,"input":9007199254740992,"output":1}`, false, NestedUsage{}}, // not a safe integer
		{`{"schemaVersion":1,"requests":1,"input":9007199254740991,"output":1}`, true, NestedUsage{Requests: 1, Input: 9007199254740991, Output: 1}},
		{`{"schemaVersion":1,"requests":1,"input":1,"output":1,"cost":0}`, false, NestedUsage{}}, // no other member
		{`{"schemaVersion":1,"requests":1,"input":"1","output":1}`, false, NestedUsage{}},
		{`[1]`, false, NestedUsage{}},
		{`null`, false, NestedUsage{}},
		{`{"schemaVersion":1,"requests":1,"input":1,"output":1,"requests":2}`, true, NestedUsage{Requests: 2, Input: 1, Output: 1}}, // JSON.parse keeps the last
	} {
		got, ok := ParseNestedUsage([]byte(tc.raw))
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParseNestedUsage(%s) = %+v, %v; want %+v, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseNestedUsage: any bytes give a verdict, never a panic, and an
// accepted report obeys the contract: whole non-negative counts, requests 0
// only with no token, cache figures only when both were given.
func FuzzParseNestedUsage(f *testing.F) {
	f.Add([]byte(`{"schemaVersion":1,"requests":2,"input":1500,"output":420,"cacheRead":3200,"cacheWrite":0}`))
	f.Add([]byte(`{"schemaVersion":1,"requests":1,"input":7,"output":9}`))
	f.Add([]byte(`{"schemaVersion":1,"requests":0,"input":1,"output":0}`))
	f.Add([]byte(`{"schemaVersion":1e0,"requests":1,"input":1,"output":1,"cacheRead":1}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		u, ok := ParseNestedUsage(raw)
		if !ok {
			if u != (NestedUsage{}) {
				t.Fatalf("rejected %q but returned %+v", raw, u)
			}
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("accepted invalid JSON %q", raw)
		}
		for _, n := range []float64{u.Requests, u.Input, u.Output, u.CacheRead, u.CacheWrite} {
			if _, whole := safeCount(n); !whole {
				t.Fatalf("accepted %q with count %v", raw, n)
			}
		}
		if u.Requests == 0 && u.Input+u.Output+u.CacheRead+u.CacheWrite > 0 {
			t.Fatalf("accepted %q: tokens without a request", raw)
		}
		if !u.CacheKnown && u.CacheRead+u.CacheWrite != 0 {
			t.Fatalf("accepted %q: cache figures without both counts", raw)
		}
	})
}
