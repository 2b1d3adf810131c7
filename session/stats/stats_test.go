package stats

import (
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
)

func openStats(t testing.TB, name string) *session.Session {
	t.Helper()
	s, err := session.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func breakdown(st Stats) []string {
	var out []string
	for _, r := range st.ByModel {
		out = append(out, r.Key+"="+jsonv.FormatNumber(r.Cost)+"/"+jsonv.FormatNumber(r.Tokens))
	}
	return out
}

// Expected numbers are computed by hand (costs with JavaScript arithmetic:
// (rate/1e6)*tokens, summed left to right).
func TestSessionStatsPriced(t *testing.T) {
	s := openStats(t, "priced.jsonl")
	st := SessionStats(s, catalog.Default())
	if st.Scope != StatsScopeSession || st.Entries != 9 || st.TotalMessages != 7 || st.UserMessages != 2 ||
		st.AssistantMessages != 3 || st.ToolResults != 2 || st.ToolCalls != 2 {
		t.Errorf("counts: %+v", st)
	}
	wantRoles := []RoleCount{{session.RoleUser, 2}, {session.RoleAssistant, 3}, {session.RoleToolResult, 2}}
	if !reflect.DeepEqual(st.RoleCounts, wantRoles) {
		t.Errorf("roles = %v", st.RoleCounts)
	}
	if want := (TokenTotals{Input: 581110, Output: 2215, Total: 583325}); st.Tokens != want {
		t.Errorf("tokens = %+v", st.Tokens)
	}
	// Sums are rounded to 12 significant digits, as people write them
	// (issue 23: not 3.4509999999999996).
	if st.StoredCost != 2.0225 || st.Cost != 3.451 {
		t.Errorf("stored cost %v, cost %v", st.StoredCost, st.Cost)
	}
	wantRe := []CostNote{
		{Index: 2, Line: 4, EntryID: "a3", Key: "anthropic/claude-sonnet-4-5", Provider: "anthropic", Model: "claude-sonnet-4-5", Cost: 0.006},
		{Index: 7, Line: 9, EntryID: "a8", Key: "openai/gpt-5.4", Provider: "openai", Model: "gpt-5.4", Cost: 1.4225},
	}
	if !reflect.DeepEqual(st.Recomputed, wantRe) {
		t.Errorf("recomputed = %+v", st.Recomputed)
	}
	wantUn := []CostNote{{Index: 5, Line: 7, EntryID: "a6", Key: "acme/mystery", Provider: "acme", Model: "mystery"}}
	if !reflect.DeepEqual(st.Unpriced, wantUn) {
		t.Errorf("unpriced = %+v", st.Unpriced)
	}
	wantRows := []string{"openai/gpt-5.4-2026-03-05=1.5225/301000", "openai/gpt-5.4=1.4225/281000",
		"Tools/summaries=0.5/15", "anthropic/claude-sonnet-4-5=0.006/1200", "acme/mystery=0/110"}
	if got := breakdown(st); !reflect.DeepEqual(got, wantRows) {
		t.Errorf("byModel = %q", got)
	}
	// 301000 (last assistant usage) + ceil((8 + 4800)/4) for the trailing user message.
	want := &ContextUsage{Provider: "openai", ModelID: "gpt-5.4", ContextWindow: 272000, Known: true, Tokens: 302202, Percent: 111.10367647058823}
	if !reflect.DeepEqual(st.Context, want) {
		t.Errorf("context = %+v", st.Context)
	}
	// Without a catalog nothing is recomputed and there is no context usage.
	bare := SessionStats(s, nil)
	if bare.Cost != bare.StoredCost || len(bare.Recomputed) != 0 || len(bare.Unpriced) != 3 || bare.Context != nil {
		t.Errorf("nil catalog: %+v", bare)
	}
}

func TestStatsCompaction(t *testing.T) {
	s := openStats(t, "compacted.jsonl")
	st := SessionStats(s, catalog.Default())
	if st.TotalMessages != 4 || st.UserMessages != 2 || st.AssistantMessages != 2 || st.ToolCalls != 0 {
		t.Errorf("counts: %+v", st)
	}
	if want := (TokenTotals{Input: 150, Output: 30, CacheRead: 4000, CacheWrite: 880, Total: 5060}); st.Tokens != want {
		t.Errorf("tokens = %+v", st.Tokens)
	}
	if st.Cost != 0.0051 || len(st.Unpriced) != 1 || st.Unpriced[0].EntryID != "c3" || st.Unpriced[0].Key != ToolsSummariesKey {
		t.Errorf("cost %v unpriced %+v", st.Cost, st.Unpriced)
	}
	if got := breakdown(st); !reflect.DeepEqual(got, []string{"anthropic/claude-sonnet-4-5=0.0051/5000", "Tools/summaries=0/60"}) {
		t.Errorf("byModel = %q", got)
	}
	// After the compaction only an error assistant answered: tokens unknown.
	if c := st.Context; c == nil || c.Known || c.ContextWindow != 200000 {
		t.Errorf("context after compaction = %+v", c)
	}
	js := string(StatsJSON(s, st))
	if !strings.Contains(js, `"contextUsage":{"provider":"anthropic","modelId":"claude-sonnet-4-5","contextWindow":200000,"tokens":null,"percent":null}`) {
		t.Errorf("json: %s", js)
	}
	i, _ := s.IndexOf("c2")
	br := BranchStats(s, i, catalog.Default())
	if br.Entries != 2 || br.Context == nil || !br.Context.Known || br.Context.Tokens != 5000 || br.Context.Percent != 2.5 {
		t.Errorf("branch before compaction: %+v ctx %+v", br, br.Context)
	}
	if empty := BranchStats(s, 99, catalog.Default()); empty.Entries != 0 || empty.LeafIndex != -1 || empty.Context != nil {
		t.Errorf("out of range leaf: %+v", empty)
	}
}

// An answer whose usage says the context size is unavailable makes Pi
// estimate every context message (chars/4): summary "S" 1, "abcd" 1, "ok" 1,
// "12345678" 2, "done!" 2.
func TestStatsContextUnavailable(t *testing.T) {
	s := openStats(t, "unavailable.jsonl")
	st := SessionStats(s, catalog.Default())
	want := &ContextUsage{Provider: "anthropic", ModelID: "claude-sonnet-4-5", ContextWindow: 200000, Known: true, Tokens: 7, Percent: 0.0034999999999999996}
	if !reflect.DeepEqual(st.Context, want) {
		t.Errorf("context = %+v", st.Context)
	}
}

func TestStatsJSONShape(t *testing.T) {
	s := openStats(t, "priced.jsonl")
	js := string(StatsJSON(s, SessionStats(s, catalog.Default())))
	want := `{"scope":"session","leafId":"a9","entries":9,` +
		`"messages":{"total":7,"user":2,"assistant":3,"toolResult":2,"byRole":{"user":2,"assistant":3,"toolResult":2}},` +
		`"toolCalls":2,"tokens":{"input":581110,"output":2215,"cacheRead":0,"cacheWrite":0,"total":583325},` +
		`"cost":{"total":3.451,"stored":2.0225,"recomputed":1.4285},` +
		`"costRecomputed":[{"entryId":"a3","line":4,"key":"anthropic/claude-sonnet-4-5","provider":"anthropic","model":"claude-sonnet-4-5","cost":0.006},` +
		`{"entryId":"a8","line":9,"key":"openai/gpt-5.4","provider":"openai","model":"gpt-5.4","cost":1.4225}],` +
		`"costUnpriced":[{"entryId":"a6","line":7,"key":"acme/mystery","provider":"acme","model":"mystery"}],` +
		`"byModel":[{"key":"openai/gpt-5.4-2026-03-05","cost":1.5225,"tokens":301000},{"key":"openai/gpt-5.4","cost":1.4225,"tokens":281000},` +
		`{"key":"Tools/summaries","cost":0.5,"tokens":15},{"key":"anthropic/claude-sonnet-4-5","cost":0.006,"tokens":1200},{"key":"acme/mystery","cost":0,"tokens":110}],` +
		`"contextUsage":{"provider":"openai","modelId":"gpt-5.4","contextWindow":272000,"tokens":302202,"percent":111.10367647058823}}`
	if js != want {
		t.Errorf("StatsJSON:\n got %s\nwant %s", js, want)
	}
}

// TestStatsGeneratedFixture checks the Pi-generated session against numbers
// added up by hand from the file.
func TestStatsGeneratedFixture(t *testing.T) {
	path := fixtures.Path(t, mainFile)
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st := SessionStats(s, catalog.Default())
	if st.Entries != 30 || st.TotalMessages != 18 || st.UserMessages != 4 || st.AssistantMessages != 8 || st.ToolResults != 3 || st.ToolCalls != 3 {
		t.Errorf("counts: %+v", st)
	}
	if want := (TokenTotals{Input: 9080, Output: 1230, CacheRead: 29300, CacheWrite: 3000, Total: 42610}); st.Tokens != want {
		t.Errorf("tokens = %+v", st.Tokens)
	}
	if st.Cost != 0.06573 || st.StoredCost != st.Cost || len(st.Recomputed)+len(st.Unpriced) != 0 {
		t.Errorf("cost %v stored %v notes %v %v", st.Cost, st.StoredCost, st.Recomputed, st.Unpriced)
	}
	want := []string{"anthropic/claude-sonnet-4-5=0.03138/32760", "Tools/summaries=0.02655/6650", "openai/gpt-5.4-2026-03-05=0.0078/3200"}
	if got := breakdown(st); !reflect.DeepEqual(got, want) {
		t.Errorf("byModel = %q", got)
	}
	if c := st.Context; c == nil || !c.Known || c.ModelID != "gpt-5.4" || c.Tokens != 3200 || c.Percent != 1.1764705882352942 {
		t.Errorf("context = %+v", c)
	}
	i, _ := s.IndexOf("c71ae143")
	br := BranchStats(s, i, catalog.Default())
	if br.Entries != 16 || br.TotalMessages != 10 || br.ToolCalls != 2 || br.Cost != 0.02403 || br.Tokens.Total != 17880 {
		t.Errorf("branch c71ae143: %+v", br)
	}
	if c := br.Context; c == nil || c.ModelID != "claude-sonnet-4-5" || c.Tokens != 4580 || c.Percent != 2.29 {
		t.Errorf("branch context = %+v", c)
	}
	// Every stored anthropic assistant cost in the fixture is what the catalog
	// computes (the openai turn's invented numbers use other rates).
	checked := 0
	for _, e := range s.Entries {
		if e.Role != session.RoleAssistant || e.MessageField("provider").StrOr("") != "anthropic" {
			continue
		}
		checked++
		m, _ := e.Message()
		cm, ok := catalog.Default().Lookup(m.Provider, m.Model)
		if !ok {
			t.Fatalf("%s/%s not in catalog", m.Provider, m.Model)
		}
		u := m.Usage
		got := cm.Cost(catalog.Usage{Input: u.Input, Output: u.Output, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, CacheWrite1h: u.CacheWrite1h})
		if got.Total != u.Cost.Total || got.Input != u.Cost.Input || got.Output != u.Cost.Output || got.CacheRead != u.Cost.CacheRead {
			t.Errorf("entry %s: catalog cost %+v, stored %+v", e.ID, got, u.Cost)
		}
	}
	if checked != 7 {
		t.Errorf("checked %d anthropic turns, want 7", checked)
	}
}

var benchStatsSession *session.Session

func loadBenchSession(b *testing.B) *session.Session {
	if benchStatsSession != nil {
		return benchStatsSession
	}
	path := filepath.Join(b.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := gen.Write(f, gen.Config{TargetBytes: 100 << 20, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	s, err := session.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	benchStatsSession = s
	return s
}

func BenchmarkSessionStats100MB(b *testing.B) {
	s := loadBenchSession(b)
	cat := catalog.Default()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := SessionStats(s, cat)
		if st.AssistantMessages == 0 {
			b.Fatal("no assistant messages")
		}
	}
}

func BenchmarkBranchStats100MB(b *testing.B) {
	s := loadBenchSession(b)
	cat := catalog.Default()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		BranchStats(s, s.LeafIndex(), cat)
	}
}

func FuzzSessionStats(f *testing.F) {
	f.Add(`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"1","name":"x","arguments":{}}],"provider":"openai","model":"gpt-5.4","usage":{"input":1,"output":2}}}`)
	f.Add(`{"type":"usage","id":"b","parentId":null,"timestamp":"x","provider":1,"model":null,"usage":{"input":"1","cost":{"total":"x"}}}`)
	f.Add(`{"type":"compaction","id":"c","parentId":null,"timestamp":"x","summary":"s","firstKeptEntryId":"c","tokensBefore":1,"usage":[]}`)
	f.Fuzz(func(t *testing.T, line string) {
		text := `{"type":"session","version":3,"id":"f","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n" + line + "\n"
		s, err := session.Read(strings.NewReader(text), session.Options{Workers: 1})
		if err != nil {
			return
		}
		st := SessionStats(s, catalog.Default())
		if st.Tokens.Total != st.Tokens.Input+st.Tokens.Output+st.Tokens.CacheRead+st.Tokens.CacheWrite {
			t.Fatal("token total")
		}
		if _, err := jsonv.Parse(StatsJSON(s, st)); err != nil {
			t.Fatalf("StatsJSON is not JSON: %v", err)
		}
		for i := range s.Entries {
			BranchStats(s, i, catalog.Default())
		}
	})
}

// TestStatsUpstreamV1 counts the migrated v1 sessions against the message
// counts recorded in fixtures/pi-sessions/SOURCES.md.
func TestStatsUpstreamV1(t *testing.T) {
	path := fixtures.Path(t, piSessions+"/upstream/pi-mono/before-compaction.jsonl")
	s, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st := SessionStats(s, catalog.Default())
	if st.TotalMessages != 990 || st.UserMessages != 55 || st.AssistantMessages != 484 || st.ToolResults != 448 {
		t.Errorf("before-compaction: %d messages (user %d, assistant %d, toolResult %d)", st.TotalMessages, st.UserMessages, st.AssistantMessages, st.ToolResults)
	}
	bash := 0
	for _, rc := range st.RoleCounts {
		if rc.Role == session.RoleBashExecution {
			bash = rc.Count
		}
	}
	if bash != 3 || st.Tokens.Total == 0 || st.Cost <= 0 {
		t.Errorf("bashExecution %d, tokens %v, cost %v", bash, st.Tokens.Total, st.Cost)
	}
	large := fixtures.Path(t, piSessions+"/upstream/pi-mono/large-session.jsonl")
	ls, err := session.Open(large)
	if err != nil {
		t.Fatal(err)
	}
	if st := SessionStats(ls, catalog.Default()); st.TotalMessages != 914 {
		t.Errorf("large-session: %d messages, want 914", st.TotalMessages)
	}
}
