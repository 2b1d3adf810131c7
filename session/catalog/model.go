package catalog

import "github.com/forgebench/forgebench/engine/jsonv"

// Usage is the token part of a Pi usage record (spec §4.2). CacheWrite1h is
// the subset of CacheWrite written with one-hour retention.
type Usage struct {
	Input        float64
	Output       float64
	CacheRead    float64
	CacheWrite   float64
	CacheWrite1h float64
}

// CostBreakdown is a usage cost in USD, shaped like usage.cost.
type CostBreakdown struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
	Total      float64
}

// Cost prices u like pi-ai's calculateCost: the tier with the highest
// threshold strictly below input+cacheRead+cacheWrite replaces the base
// rates for the whole request; one-hour cache writes cost twice the input
// rate. The arithmetic order matches JavaScript's so results are
// bit-identical to what Pi stores.
func (m *Model) Cost(u Usage) CostBreakdown {
	if m == nil {
		return CostBreakdown{}
	}
	rates := m.Pricing.Rates
	inputTokens := u.Input + u.CacheRead + u.CacheWrite
	matched := -1.0
	for _, t := range m.Pricing.Tiers {
		if inputTokens > t.InputTokensAbove && t.InputTokensAbove > matched {
			rates = t.Rates
			matched = t.InputTokensAbove
		}
	}
	long := u.CacheWrite1h
	short := u.CacheWrite - long
	var c CostBreakdown
	// float64() conversions forbid fused multiply-add, which JavaScript never uses.
	c.Input = float64(rates.Input/1000000) * u.Input
	c.Output = float64(rates.Output/1000000) * u.Output
	c.CacheRead = float64(rates.CacheRead/1000000) * u.CacheRead
	c.CacheWrite = float64(float64(rates.CacheWrite*short)+float64(float64(rates.Input*2)*long)) / 1000000
	c.Total = float64(float64(c.Input+c.Output)+c.CacheRead) + c.CacheWrite
	return c
}

// modelFromObject reads the typed fields of a model object.
func modelFromObject(provider string, o *jsonv.Object, source string) *Model {
	m := &Model{Provider: provider, Source: source, Raw: o}
	m.ID = str(o, "id")
	m.Name = str(o, "name")
	if m.Name == "" {
		m.Name = m.ID
	}
	m.API = str(o, "api")
	m.BaseURL = str(o, "baseUrl")
	m.Reasoning, _ = get(o, "reasoning").(bool)
	if arr, ok := get(o, "input").([]any); ok {
		for _, v := range arr {
			if s, ok := v.(string); ok {
				m.InputModes = append(m.InputModes, s)
			}
		}
	}
	m.ContextWindow = num(o, "contextWindow")
	m.MaxTokens = num(o, "maxTokens")
	m.Compat, _ = get(o, "compat").(*jsonv.Object)
	m.ThinkingLevelMap, _ = get(o, "thinkingLevelMap").(*jsonv.Object)
	if cost, ok := get(o, "cost").(*jsonv.Object); ok {
		m.Pricing.Rates = ratesFrom(cost)
		if tiers, ok := get(cost, "tiers").([]any); ok {
			for _, tv := range tiers {
				if t, ok := tv.(*jsonv.Object); ok {
					m.Pricing.Tiers = append(m.Pricing.Tiers, Tier{InputTokensAbove: num(t, "inputTokensAbove"), Rates: ratesFrom(t)})
				}
			}
		}
	}
	return m
}

func ratesFrom(o *jsonv.Object) Rates {
	return Rates{Input: num(o, "input"), Output: num(o, "output"), CacheRead: num(o, "cacheRead"), CacheWrite: num(o, "cacheWrite")}
}

func get(o *jsonv.Object, key string) any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	return v
}

func str(o *jsonv.Object, key string) string {
	s, _ := get(o, key).(string)
	return s
}

func num(o *jsonv.Object, key string) float64 {
	f, _ := get(o, key).(float64)
	return f
}

// mergeShallow returns base with patch's members set over it (a new object;
// either may be nil).
func mergeShallow(base, patch *jsonv.Object) *jsonv.Object {
	out := jsonv.NewObject()
	for _, src := range []*jsonv.Object{base, patch} {
		if src == nil {
			continue
		}
		for _, k := range src.Keys() {
			v, _ := src.Get(k)
			out.Set(k, v)
		}
	}
	return out
}

// objectMergedFields are the modelOverrides fields merged per key with the
// built-in value; every other field replaces it.
var objectMergedFields = map[string]bool{"cost": true, "compat": true, "samplingParams": true, "headers": true, "thinkingLevelMap": true}

// modelOverrideFields are the fields modelOverrides may change (Pi
// models.md "Per-model Overrides").
var modelOverrideFields = []string{"name", "reasoning", "thinkingLevelMap", "input", "cost", "contextWindow", "maxTokens", "samplingParams", "headers", "compat"}

// applyProviderOverride applies a provider's baseUrl, compat and the
// matching modelOverrides entry to a built-in model object.
func applyProviderOverride(raw *jsonv.Object, po *ProviderOverride, id string) (*jsonv.Object, bool) {
	mo := po.ModelOverrides[id]
	if po.BaseURL == "" && po.Compat == nil && mo == nil {
		return raw, false
	}
	out, _ := jsonv.Clone(raw).(*jsonv.Object)
	if out == nil {
		return raw, false
	}
	if po.BaseURL != "" {
		out.Set("baseUrl", po.BaseURL)
	}
	if po.Compat != nil {
		base, _ := get(out, "compat").(*jsonv.Object)
		out.Set("compat", mergeShallow(base, po.Compat))
	}
	if mo != nil {
		for _, k := range modelOverrideFields {
			v, ok := mo.Get(k)
			if !ok {
				continue
			}
			if patch, isObj := v.(*jsonv.Object); isObj && objectMergedFields[k] {
				base, _ := get(out, k).(*jsonv.Object)
				out.Set(k, mergeShallow(base, patch))
				continue
			}
			out.Set(k, jsonv.Clone(v))
		}
	}
	return out, true
}

// customModel builds a models.json "models" entry with Pi's defaults
// (model-registry parseModels): name = id; api = the model's api ?? the
// provider's ?? that of the provider's first built-in model (builtin), and
// baseUrl likewise; reasoning false, input ["text"], zero cost, a
// 128000-token context window, 16384 max tokens, and compat = the
// provider's compat with the model's merged over it. Pi skips a model
// without an api or baseUrl; so does customModel (nil).
func customModel(provider string, po *ProviderOverride, def, builtin *jsonv.Object) *Model {
	api, ok := firstDefined(def, po.Raw, builtin, "api")
	if s, isStr := api.(string); !ok || !isStr || s == "" {
		return nil
	}
	baseURL, ok := firstDefined(def, po.Raw, builtin, "baseUrl")
	if s, isStr := baseURL.(string); !ok || !isStr || s == "" {
		return nil
	}
	o := jsonv.NewObject()
	o.Set("id", get(def, "id"))
	o.Set("name", get(def, "id"))
	o.Set("api", api)
	o.Set("provider", provider)
	o.Set("baseUrl", baseURL)
	o.Set("reasoning", false)
	o.Set("input", []any{"text"})
	zero := jsonv.NewObject()
	for _, k := range []string{"input", "output", "cacheRead", "cacheWrite"} {
		zero.Set(k, 0.0)
	}
	o.Set("cost", zero)
	o.Set("contextWindow", float64(defaultCtxWin))
	o.Set("maxTokens", float64(defaultMaxToken))
	for _, k := range def.Keys() {
		v, _ := def.Get(k)
		if _, has := o.Get(k); has && v == nil {
			continue // modelDef.x ?? default
		}
		o.Set(k, jsonv.Clone(v))
	}
	modelCompat, _ := get(def, "compat").(*jsonv.Object)
	if po.Compat != nil || modelCompat != nil {
		o.Set("compat", mergeShallow(po.Compat, modelCompat))
	}
	return modelFromObject(provider, o, SourceCustom)
}

// firstDefined is a ?? b ?? c for one key: the first object whose value
// for key is neither missing nor null.
func firstDefined(a, b, c *jsonv.Object, key string) (any, bool) {
	for _, o := range []*jsonv.Object{a, b, c} {
		if v := get(o, key); v != nil {
			return v, true
		}
	}
	return nil, false
}
