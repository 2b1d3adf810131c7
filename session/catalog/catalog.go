// Package catalog is Pi's model catalog: the pi-ai 1.6.0 built-in models
// (embedded, decoded lazily per provider) plus the user's
// <agentDir>/models.json overrides (spec pi-session-formats §13).
//
// Default returns the built-in catalog without doing any work; the embedded
// data is decompressed on the first Lookup and each provider's document is
// parsed the first time one of its models is asked for. Load reads
// models.json (the only IO in this package); Parse and WithOverrides are pure.
//
// Models returned by Lookup are shared and must be treated as read-only.
package catalog

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/forgebench/forgebench/engine/jsonv"
)

//go:embed data/catalog.bin
var embeddedCatalog []byte

// Rates are USD prices per million tokens.
type Rates struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
}

// Tier is an alternate rate set that applies to a whole request whose input
// (input + cacheRead + cacheWrite tokens) exceeds InputTokensAbove.
type Tier struct {
	InputTokensAbove float64
	Rates
}

// Pricing is a model's cost table (model.cost): base rates and tiers.
type Pricing struct {
	Rates
	Tiers []Tier
}

// Model is one chat model of the catalog after overrides.
type Model struct {
	// Provider and ID identify the model (the catalog key).
	Provider string
	ID       string
	// Name is the display name (the id when not set).
	Name string
	// API is the wire API, e.g. "anthropic-messages".
	API string
	// BaseURL is the endpoint (after a provider-level baseUrl override).
	BaseURL string
	// Reasoning reports whether the model supports thinking.
	Reasoning bool
	// InputModes lists accepted inputs ("text", "image").
	InputModes []string
	// Pricing holds the rates in USD per million tokens.
	Pricing Pricing
	// ContextWindow and MaxTokens are token limits (0 when unknown).
	ContextWindow float64
	MaxTokens     float64
	// Compat holds the compat flags (nil when none); use CompatFlag.
	Compat *jsonv.Object
	// ThinkingLevelMap maps Pi thinking levels to provider values (null =
	// unsupported); nil when the model has none.
	ThinkingLevelMap *jsonv.Object
	// Source says where the model came from: "builtin", "builtin+override"
	// (provider baseUrl/compat or modelOverrides applied) or "custom"
	// (a models.json "models" entry).
	Source string
	// Raw is the full model object after overrides.
	Raw *jsonv.Object
}

// Source values of Model.Source.
const (
	SourceBuiltin   = "builtin"
	SourceOverride  = "builtin+override"
	SourceCustom    = "custom"
	defaultCtxWin   = 128000
	defaultMaxToken = 16384
)

// CompatFlag returns a boolean compat flag and whether the model sets it.
func (m *Model) CompatFlag(name string) (value, set bool) {
	if m == nil || m.Compat == nil {
		return false, false
	}
	v, ok := m.Compat.Get(name)
	if !ok {
		return false, false
	}
	b, isBool := v.(bool)
	return b, isBool
}

// SupportsMidConvoSystemMessages is compat.supportsMidConvoSystemMessages
// (default false): when false, later system messages are folded into the
// leading one (spec §8).
func (m *Model) SupportsMidConvoSystemMessages() bool {
	v, _ := m.CompatFlag("supportsMidConvoSystemMessages")
	return v
}

// SupportsMidConvoToolAdditions is compat.supportsMidConvoToolAdditions.
func (m *Model) SupportsMidConvoToolAdditions() bool {
	v, _ := m.CompatFlag("supportsMidConvoToolAdditions")
	return v
}

// SupportsMidConvoToolChanges is compat.supportsMidConvoToolChanges.
func (m *Model) SupportsMidConvoToolChanges() bool {
	v, _ := m.CompatFlag("supportsMidConvoToolChanges")
	return v
}

// SupportsMidConvoEffort is compat.supportsMidConvoEffort.
func (m *Model) SupportsMidConvoEffort() bool {
	v, _ := m.CompatFlag("supportsMidConvoEffort")
	return v
}

// Catalog answers model lookups. The zero value is not usable; use Default,
// Load or WithOverrides. A Catalog is safe for concurrent use.
type Catalog struct {
	base      *builtin
	overrides *Overrides

	mu    sync.Mutex
	cache map[string]*Model
}

var (
	defaultOnce    sync.Once
	defaultCatalog *Catalog
)

// Default returns the built-in pi-ai 1.6.0 catalog (no models.json). It is
// shared by the process and costs nothing until the first Lookup.
func Default() *Catalog {
	defaultOnce.Do(func() {
		defaultCatalog = &Catalog{base: &builtin{data: embeddedCatalog}}
	})
	return defaultCatalog
}

// WithOverrides returns a catalog that applies ov on top of c's built-in
// models (ov nil: the built-in models alone).
func (c *Catalog) WithOverrides(ov *Overrides) *Catalog {
	return &Catalog{base: c.base, overrides: ov}
}

// Overrides returns the models.json overrides in force (nil when none).
func (c *Catalog) Overrides() *Overrides { return c.overrides }

// Lookup finds a chat model by provider and model id, as Pi's model registry
// resolves it: a models.json custom model with that id wins, otherwise the
// built-in model with provider-level and modelOverrides applied.
func (c *Catalog) Lookup(provider, modelID string) (*Model, bool) {
	if c == nil || c.base == nil {
		return nil, false
	}
	key := provider + "\x00" + modelID
	c.mu.Lock()
	m, hit := c.cache[key]
	c.mu.Unlock()
	if hit {
		return m, m != nil
	}
	m = c.resolve(provider, modelID)
	c.mu.Lock()
	if c.cache == nil {
		c.cache = map[string]*Model{}
	}
	c.cache[key] = m
	c.mu.Unlock()
	return m, m != nil
}

func (c *Catalog) resolve(provider, modelID string) *Model {
	var po *ProviderOverride
	if c.overrides != nil {
		po = c.overrides.Providers[provider]
	}
	if po != nil {
		for i := len(po.Models) - 1; i >= 0; i-- {
			if id, _ := po.Models[i].Get("id"); id == modelID {
				if m := customModel(provider, po, po.Models[i], c.base.firstModel(provider)); m != nil {
					return m
				}
			}
		}
	}
	raw := c.base.model(provider, modelID)
	if raw == nil {
		return nil
	}
	if po == nil {
		return modelFromObject(provider, raw, SourceBuiltin)
	}
	merged, changed := applyProviderOverride(raw, po, modelID)
	source := SourceBuiltin
	if changed {
		source = SourceOverride
	}
	return modelFromObject(provider, merged, source)
}

// Providers lists the providers with built-in or custom models, sorted.
func (c *Catalog) Providers() []string {
	seen := map[string]bool{}
	for _, p := range c.base.providerNames() {
		seen[p] = true
	}
	if c.overrides != nil {
		for p, po := range c.overrides.Providers {
			if len(po.Models) > 0 {
				seen[p] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ModelIDs lists the chat model ids of a provider: built-in ids in catalog
// order, then custom ids not already listed.
func (c *Catalog) ModelIDs(provider string) []string {
	ids := c.base.modelIDs(provider)
	if c.overrides != nil {
		if po := c.overrides.Providers[provider]; po != nil {
			have := map[string]bool{}
			for _, id := range ids {
				have[id] = true
			}
			for _, m := range po.Models {
				if id, ok := m.Get("id"); ok {
					if s, isStr := id.(string); isStr && !have[s] {
						have[s] = true
						ids = append(ids, s)
					}
				}
			}
		}
	}
	return ids
}

// builtin is the embedded catalog, decoded on demand.
type builtin struct {
	data []byte

	once sync.Once
	docs map[string][]byte // provider → raw document
	err  error

	mu        sync.Mutex
	providers map[string]*providerModels
}

type providerModels struct {
	ids    []string
	models map[string]*jsonv.Object
}

func (b *builtin) load() {
	b.once.Do(func() {
		b.docs, b.err = splitDocs(b.data)
	})
}

// splitDocs reads the packed catalog's index (see internal/mkdata):
// provider → its still-compressed document.
func splitDocs(data []byte) (map[string][]byte, error) {
	end := bytes.Index(data, []byte("\n\n"))
	if end < 0 {
		return nil, fmt.Errorf("catalog data: no index")
	}
	blobs := data[end+2:]
	docs := map[string][]byte{}
	for _, line := range bytes.Split(data[:end], []byte("\n")) {
		fields := strings.Split(string(line), "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("catalog data: malformed index line %q", line)
		}
		off, err1 := strconv.Atoi(fields[1])
		n, err2 := strconv.Atoi(fields[2])
		if err1 != nil || err2 != nil || off < 0 || n < 0 || off+n > len(blobs) {
			return nil, fmt.Errorf("catalog data: bad span in index line %q", line)
		}
		docs[fields[0]] = blobs[off : off+n : off+n]
	}
	return docs, nil
}

// inflate decompresses one provider document.
func inflate(blob []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(blob))
	if err != nil {
		return nil, fmt.Errorf("catalog data: %w", err)
	}
	doc, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("catalog data: %w", err)
	}
	return doc, nil
}

func (b *builtin) providerNames() []string {
	b.load()
	out := make([]string, 0, len(b.docs))
	for p := range b.docs {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (b *builtin) provider(name string) *providerModels {
	b.load()
	b.mu.Lock()
	defer b.mu.Unlock()
	if pm, ok := b.providers[name]; ok {
		return pm
	}
	var pm *providerModels
	if blob, ok := b.docs[name]; ok {
		doc, err := inflate(blob)
		if err != nil {
			doc = nil // the embedded data is checked by tests; treat as no models
		}
		pm = parseProviderDoc(doc)
	} else {
		pm = parseProviderDoc(nil)
	}
	if b.providers == nil {
		b.providers = map[string]*providerModels{}
	}
	b.providers[name] = pm
	return pm
}

// parseProviderDoc indexes the chat models of one provider document
// ({api: {"<type>:<id>": model}}); the first occurrence of an id wins.
func parseProviderDoc(doc []byte) *providerModels {
	pm := &providerModels{models: map[string]*jsonv.Object{}}
	if doc == nil {
		return pm
	}
	v, err := jsonv.Parse(doc)
	if err != nil {
		return pm
	}
	apis, ok := v.(*jsonv.Object)
	if !ok {
		return pm
	}
	for _, api := range apis.Keys() {
		av, _ := apis.Get(api)
		models, ok := av.(*jsonv.Object)
		if !ok {
			continue
		}
		for _, key := range models.Keys() {
			id, isChat := strings.CutPrefix(key, "chat:")
			if !isChat {
				continue
			}
			mv, _ := models.Get(key)
			if m, ok := mv.(*jsonv.Object); ok {
				if _, dup := pm.models[id]; !dup {
					pm.models[id] = m
					pm.ids = append(pm.ids, id)
				}
			}
		}
	}
	return pm
}

func (b *builtin) model(provider, id string) *jsonv.Object {
	return b.provider(provider).models[id]
}

// firstModel is the provider's first built-in chat model (nil if none),
// whose api and baseUrl custom models of that provider inherit.
func (b *builtin) firstModel(provider string) *jsonv.Object {
	pm := b.provider(provider)
	if len(pm.ids) == 0 {
		return nil
	}
	return pm.models[pm.ids[0]]
}

func (b *builtin) modelIDs(provider string) []string {
	return append([]string(nil), b.provider(provider).ids...)
}
