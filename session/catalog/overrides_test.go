package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestLoadMissingFileIsDefault(t *testing.T) {
	c, diags, err := Load(t.TempDir())
	if err != nil || diags != nil || c != Default() {
		t.Fatalf("Load(empty dir) = %p, %v, %v", c, diags, err)
	}
	if c, _, err := Load(""); err != nil || c != Default() {
		t.Fatalf("Load(\"\") = %p, %v", c, err)
	}
}

func TestLoadOverrides(t *testing.T) {
	c, diags, err := Load(filepath.Join("testdata", "agent-ok"))
	if err != nil || len(diags) != 0 {
		t.Fatalf("Load: diags=%v err=%v", diags, err)
	}
	m, ok := c.Lookup("anthropic", "claude-sonnet-4-5")
	if !ok {
		t.Fatal("overridden model missing")
	}
	if m.Source != SourceOverride || m.Name != "Sonnet via proxy" || m.ContextWindow != 1000000 || m.BaseURL != "https://proxy.example.com/v1" {
		t.Errorf("override not applied: %+v", m)
	}
	// cost merged per key: input replaced, the others kept from the built-in model, tiers added.
	wantRates := Rates{Input: 6, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	if m.Pricing.Rates != wantRates || len(m.Pricing.Tiers) != 1 || m.Pricing.Tiers[0].Input != 12 {
		t.Errorf("pricing = %+v", m.Pricing)
	}
	if !m.SupportsMidConvoSystemMessages() {
		t.Error("provider-level compat must reach built-in models")
	}
	if v, set := m.CompatFlag("supportsStrictTools"); !v || !set {
		t.Error("built-in compat flags must survive a provider compat merge")
	}
	// the built-in default is untouched
	if d, _ := Default().Lookup("anthropic", "claude-sonnet-4-5"); d.ContextWindow == 1000000 || d.SupportsMidConvoSystemMessages() {
		t.Error("overrides leaked into Default()")
	}
	// another built-in model of the provider gets the provider baseUrl only
	if o, ok := c.Lookup("anthropic", "claude-sonnet-4-5-20250929"); !ok || o.BaseURL != "https://proxy.example.com/v1" || o.Name == "Sonnet via proxy" {
		t.Errorf("sibling model: %+v", o)
	}
	house, ok := c.Lookup("anthropic", "claude-house")
	if !ok || house.Source != SourceCustom || !house.Reasoning || house.Pricing.Input != 1 {
		t.Fatalf("custom model in built-in provider: %+v", house)
	}
	// Pi's parseModels: api = model api ?? provider api ?? the api of the
	// provider's first built-in model; baseUrl likewise (here the provider's).
	first, _ := Default().Lookup("anthropic", Default().ModelIDs("anthropic")[0])
	if house.API == "" || house.API != first.API || house.BaseURL != "https://proxy.example.com/v1" ||
		house.ContextWindow != 128000 || house.MaxTokens != 16384 {
		t.Errorf("custom defaults: api=%q (want %q) baseUrl=%q ctx=%v max=%v", house.API, first.API, house.BaseURL, house.ContextWindow, house.MaxTokens)
	}
	if !house.SupportsMidConvoSystemMessages() || !house.SupportsMidConvoToolChanges() {
		t.Error("custom model compat = provider compat merged with model compat")
	}
	llama, ok := c.Lookup("ollama", "llama3.1:8b")
	if !ok {
		t.Fatal("ollama model missing")
	}
	if llama.Name != "llama3.1:8b" || llama.API != "openai-completions" || !reflect.DeepEqual(llama.InputModes, []string{"text"}) || llama.Pricing.Rates != (Rates{}) {
		t.Errorf("llama defaults: %+v", llama)
	}
	if llama.SupportsMidConvoSystemMessages() {
		t.Error("llama: provider compat says false")
	}
	if q, _ := c.Lookup("ollama", "qwen"); q == nil || q.ContextWindow != 32768 || !q.SupportsMidConvoSystemMessages() {
		t.Errorf("qwen: %+v", q)
	}
	if _, ok := c.Lookup("anthropic", "no-such-model"); ok {
		t.Error("modelOverrides must not create models")
	}
	ids := c.ModelIDs("ollama")
	if !reflect.DeepEqual(ids, []string{"llama3.1:8b", "qwen"}) {
		t.Errorf("ollama ids = %v", ids)
	}
}

func TestLoadInvalidFileIsIgnored(t *testing.T) {
	c, diags, err := Load(filepath.Join("testdata", "agent-bad"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"providers.anthropic.modelOverrides.claude-sonnet-4-5.contextWindow: must be a number",
		`providers.local.models[0].cost: missing required property "output"`,
		`providers.local.models[0].cost: missing required property "cacheRead"`,
		`providers.local.models[0].cost: missing required property "cacheWrite"`,
		"providers.local.baseUrl: required when the provider defines models",
		"providers.local.models[0].api: required (no provider-level api)",
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diagnostics:\n got %q\nwant %q", got, want)
	}
	if c.Overrides() != nil {
		t.Error("an invalid models.json must be ignored as a whole")
	}
	if m, _ := c.Lookup("anthropic", "claude-sonnet-4-5"); m == nil || m.ContextWindow == 0 {
		t.Error("built-in models must stay available")
	}
}

func TestParseErrors(t *testing.T) {
	for _, text := range []string{``, `[]`, `{}`, `{"providers":[]}`, `{"providers":{"x":1}}`, `{"providers":{"openai":{"models":{}}}}`} {
		ov, diags := Parse([]byte(text))
		if ov != nil || len(diags) == 0 {
			t.Errorf("Parse(%q) = %v, %v; want rejection", text, ov, diags)
		}
	}
	ov, diags := Parse([]byte(`{"providers":{}}`))
	if ov == nil || len(diags) != 0 {
		t.Errorf("empty providers: %v %v", ov, diags)
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ModelsFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(dir); err == nil {
		t.Error("a directory named models.json must be a read error")
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{`{"providers":{}}`, `{"providers":{"a":{"baseUrl":"x","api":"y","models":[{"id":"m","cost":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"tiers":[{"inputTokensAbove":1,"input":1,"output":1,"cacheRead":1,"cacheWrite":1}]}}]}}}`,
		`{"providers":{"openai":{"modelOverrides":{"gpt-5.4":{"cost":{"input":9},"compat":{"supportsMidConvoSystemMessages":false}}}}}}`, `{`, `null`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ov, diags := Parse(data)
		if ov == nil && len(diags) == 0 {
			t.Fatal("rejected without a diagnostic")
		}
		c := Default().WithOverrides(ov)
		if ov != nil {
			for p, po := range ov.Providers {
				for _, m := range po.Models {
					if id, ok := m.Get("id"); ok {
						if s, ok := id.(string); ok {
							mm, found := c.Lookup(p, s)
							if !found {
								t.Fatalf("custom model %s/%s not found", p, s)
							}
							_ = mm.Cost(Usage{Input: 1000, Output: 10, CacheRead: 5, CacheWrite: 7, CacheWrite1h: 2})
						}
					}
				}
				for id := range po.ModelOverrides {
					c.Lookup(p, id)
				}
			}
		}
	})
}

// A custom model of a built-in provider without api or baseUrl anywhere
// inherits both from the provider's first built-in model; a custom model of
// an unknown provider without an api is skipped by Pi (and a built-in
// model of the same id stays in force).
func TestCustomModelBuiltinDefaultsAndSkips(t *testing.T) {
	ov, diags := Parse([]byte(`{"providers":{
		"openai":{"models":[{"id":"gpt-house"}]},
		"anthropic":{"api":"","models":[{"id":"claude-sonnet-4-5","name":"no api"}]}
	}}`))
	if ov == nil {
		t.Fatalf("parse: %v", diags)
	}
	c := Default().WithOverrides(ov)
	first, _ := Default().Lookup("openai", Default().ModelIDs("openai")[0])
	m, ok := c.Lookup("openai", "gpt-house")
	if !ok || m.API != first.API || m.BaseURL != first.BaseURL || m.BaseURL == "" {
		t.Errorf("gpt-house: %+v, want api %q baseUrl %q", m, first.API, first.BaseURL)
	}
	if m, ok := c.Lookup("anthropic", "claude-sonnet-4-5"); !ok || m.Source == SourceCustom || m.Name == "no api" {
		t.Errorf("a custom model with an empty api is skipped; got %+v", m)
	}
}
