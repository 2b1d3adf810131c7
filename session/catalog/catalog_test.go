package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
)

func TestDefaultLookup(t *testing.T) {
	m, ok := Default().Lookup("anthropic", "claude-sonnet-4-5")
	if !ok {
		t.Fatal("anthropic/claude-sonnet-4-5 not found")
	}
	if m.API != "anthropic-messages" || m.Source != SourceBuiltin {
		t.Errorf("api=%q source=%q", m.API, m.Source)
	}
	want := Rates{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	if m.Pricing.Rates != want || len(m.Pricing.Tiers) != 0 {
		t.Errorf("pricing = %+v", m.Pricing)
	}
	if m.SupportsMidConvoSystemMessages() {
		t.Error("claude-sonnet-4-5 must not support mid-conversation system messages")
	}
	g, ok := Default().Lookup("openai", "gpt-5.4")
	if !ok {
		t.Fatal("openai/gpt-5.4 not found")
	}
	if !g.SupportsMidConvoSystemMessages() || g.ContextWindow != 272000 || g.MaxTokens != 128000 {
		t.Errorf("gpt-5.4: mid=%v ctx=%v max=%v", g.SupportsMidConvoSystemMessages(), g.ContextWindow, g.MaxTokens)
	}
	if v, ok := g.ThinkingLevelMap.Get("off"); !ok || v != "none" {
		t.Errorf("gpt-5.4 thinkingLevelMap.off = %v", v)
	}
	if v, ok := g.ThinkingLevelMap.Get("max"); !ok || v != nil {
		t.Errorf("gpt-5.4 thinkingLevelMap.max = %v (want null)", v)
	}
	if len(g.Pricing.Tiers) != 1 || g.Pricing.Tiers[0].InputTokensAbove != 272000 || g.Pricing.Tiers[0].Input != 5 {
		t.Errorf("gpt-5.4 tiers = %+v", g.Pricing.Tiers)
	}
	if _, ok := Default().Lookup("openai", "no-such-model"); ok {
		t.Error("unknown model found")
	}
	if _, ok := Default().Lookup("no-such-provider", "gpt-5.4"); ok {
		t.Error("unknown provider found")
	}
	// classifier/image entries are not chat models
	for _, id := range Default().ModelIDs("typesafe") {
		t.Errorf("typesafe has only a classifier, got chat id %q", id)
	}
}

func TestCatalogCounts(t *testing.T) {
	total, mid := 0, 0
	for _, p := range Default().Providers() {
		for _, id := range Default().ModelIDs(p) {
			m, ok := Default().Lookup(p, id)
			if !ok {
				t.Fatalf("%s/%s listed but not found", p, id)
			}
			if m.Provider != p || m.ID != id {
				t.Fatalf("%s/%s resolved to %s/%s", p, id, m.Provider, m.ID)
			}
			total++
			if m.SupportsMidConvoSystemMessages() {
				mid++
			}
		}
	}
	if total != 1698 || mid != 115 {
		t.Errorf("chat models = %d (want 1698), mid-convo = %d (want 115)", total, mid)
	}
	if n := len(Default().Providers()); n != 43 {
		t.Errorf("providers = %d, want 43", n)
	}
}

func TestCostMatchesPi(t *testing.T) {
	m := &Model{Pricing: Pricing{Rates: Rates{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}}}
	// Values written by Pi 1.6.0 into the generated fixture session.
	cases := []struct {
		u    Usage
		want CostBreakdown
	}{
		{Usage{Input: 1200, Output: 80, CacheWrite: 3000}, CostBreakdown{0.0036, 0.0012000000000000001, 0, 0.01125, 0.016050000000000002}},
		{Usage{Input: 60, Output: 40, CacheRead: 4200}, CostBreakdown{0.00018, 0.0006000000000000001, 0.0012599999999999998, 0, 0.00204}},
		{Usage{Input: 300, Output: 120, CacheRead: 4300}, CostBreakdown{0.0009, 0.0018, 0.00129, 0, 0.0039900000000000005}},
	}
	for _, c := range cases {
		if got := m.Cost(c.u); got != c.want {
			t.Errorf("Cost(%+v) = %+v, want %+v", c.u, got, c.want)
		}
	}
}

func TestCostTiersAndLongCacheWrite(t *testing.T) {
	m := &Model{Pricing: Pricing{
		Rates: Rates{Input: 1, Output: 2, CacheRead: 0.1, CacheWrite: 1.25},
		Tiers: []Tier{{InputTokensAbove: 150, Rates: Rates{Input: 0.5, Output: 0.25, CacheRead: 0.01, CacheWrite: 0.6}},
			{InputTokensAbove: 50, Rates: Rates{Input: 3, Output: 4, CacheRead: 0.2, CacheWrite: 3.75}}},
	}}
	// 50 input tokens: not above 50 → base rates.
	if got := m.Cost(Usage{Input: 50}); got.Input != float64(1.0/1e6)*50 {
		t.Errorf("base tier: %+v", got)
	}
	// 100 tokens: only the 50 tier matches.
	if got := m.Cost(Usage{Input: 100, Output: 10}); got.Input != float64(3.0/1e6)*100 || got.Output != float64(4.0/1e6)*10 {
		t.Errorf("tier 50: %+v", got)
	}
	// 151 tokens over input+cacheRead+cacheWrite: the highest threshold (150) wins even though listed first.
	got := m.Cost(Usage{Input: 1, CacheRead: 100, CacheWrite: 50, CacheWrite1h: 20})
	wantWrite := (0.6*30 + 0.5*2*20) / 1e6
	if got.CacheWrite != wantWrite || got.CacheRead != float64(0.01/1e6)*100 {
		t.Errorf("tier 150: %+v (want cacheWrite %v)", got, wantWrite)
	}
	if got.Total != got.Input+got.Output+got.CacheRead+got.CacheWrite {
		t.Errorf("total %v", got.Total)
	}
	var nilModel *Model
	if nilModel.Cost(Usage{Input: 5}) != (CostBreakdown{}) {
		t.Error("nil model must cost nothing")
	}
}

// TestEmbeddedMatchesFixture checks that the embedded data is the fixture
// catalog, byte for byte after compaction.
func TestEmbeddedMatchesFixture(t *testing.T) {
	files := fixtures.Glob(t, "pi-sessions/model-catalog-pi-ai-1.6.0/*.json")
	docs, err := splitDocs(embeddedCatalog)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != len(files) {
		t.Errorf("embedded providers = %d, fixture files = %d", len(docs), len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		doc, err := inflate(docs[name])
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(doc, compact.Bytes()) {
			t.Errorf("embedded %s differs from %s", name, f)
		}
	}
}

func BenchmarkDefaultLookup(b *testing.B) {
	for i := 0; i < b.N; i++ {
		c := &Catalog{base: &builtin{data: embeddedCatalog}} // a fresh, cold catalog each time
		if _, ok := c.Lookup("anthropic", "claude-sonnet-4-5"); !ok {
			b.Fatal("not found")
		}
	}
}

func BenchmarkLookupWarm(b *testing.B) {
	c := Default()
	c.Lookup("openrouter", "openai/gpt-5.4")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := c.Lookup("openai", "gpt-5.4"); !ok {
			b.Fatal("not found")
		}
	}
}
