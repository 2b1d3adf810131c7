package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/regfile"
)

// ModelsFile is the name of the overrides file in the agent directory.
const ModelsFile = "models.json"

// Diagnostic reports a problem in models.json. Path is a JSON path such as
// "providers.ollama.models[0].cost.input" ("" for the whole file).
type Diagnostic struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// String renders the diagnostic as "path: message".
func (d Diagnostic) String() string {
	if d.Path == "" {
		return d.Message
	}
	return d.Path + ": " + d.Message
}

// Overrides is a parsed models.json.
type Overrides struct {
	// Providers maps a provider name to its configuration.
	Providers map[string]*ProviderOverride
}

// ProviderOverride is one providers.<name> entry of models.json.
type ProviderOverride struct {
	// BaseURL applies to the provider's custom and built-in models.
	BaseURL string
	// API is the default api of the provider's custom models.
	API string
	// Compat is merged under each model's own compat.
	Compat *jsonv.Object
	// Models are the custom model objects in file order (upserted by id).
	Models []*jsonv.Object
	// ModelOverrides maps a built-in model id to a partial model.
	ModelOverrides map[string]*jsonv.Object
	// Raw is the provider object as written.
	Raw *jsonv.Object
}

// MaxModelsFileBytes bounds the models.json forgebench reads; a larger file
// is named in a diagnostic and ignored as a whole (built-in models only).
const MaxModelsFileBytes = 64 << 20

// Load reads <agentDir>/models.json and returns the default catalog with its
// overrides applied. agentDir is Pi's agent directory ($PI_CODING_AGENT_DIR,
// else ~/.pi/agent; session.ResolveAgentDir computes it); "" means none. A
// missing file is not an error. A file that is not
// valid JSON or breaks the schema is ignored as a whole, as Pi does
// (built-in models only), and the problems are returned as diagnostics.
// The error reports only a file that exists but cannot be read: also one
// that is not a regular file or is larger than MaxModelsFileBytes.
func Load(agentDir string) (*Catalog, []Diagnostic, error) {
	if agentDir == "" {
		return Default(), nil, nil
	}
	path := filepath.Join(agentDir, ModelsFile)
	// Only a regular file is read, and only up to MaxModelsFileBytes: a
	// FIFO would block and /dev/zero would never end (regfile).
	data, err := regfile.Read(path, MaxModelsFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil, nil
	}
	if err != nil {
		return Default(), nil, err // an *fs.PathError: "read <path>: <reason>"
	}
	ov, diags := Parse(data)
	return Default().WithOverrides(ov), diags, nil
}

// Parse validates and decodes models.json text (pure). It returns nil
// overrides when the file must be ignored.
func Parse(data []byte) (*Overrides, []Diagnostic) {
	v, err := jsonv.Parse(data)
	if err != nil {
		return nil, []Diagnostic{{Message: "invalid JSON: " + err.Error()}}
	}
	var diags []Diagnostic
	report := func(path, format string, args ...any) {
		diags = append(diags, Diagnostic{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	root, ok := v.(*jsonv.Object)
	if !ok {
		report("", "must be an object")
		return nil, diags
	}
	pv, ok := root.Get("providers")
	if !ok {
		report("", "missing required property \"providers\"")
		return nil, diags
	}
	providers, ok := pv.(*jsonv.Object)
	if !ok {
		report("providers", "must be an object")
		return nil, diags
	}
	ov := &Overrides{Providers: map[string]*ProviderOverride{}}
	for _, name := range providers.Keys() {
		raw, _ := providers.Get(name)
		path := "providers." + name
		po, ok := raw.(*jsonv.Object)
		if !ok {
			report(path, "must be an object")
			continue
		}
		ov.Providers[name] = parseProvider(path, po, report)
	}
	checkCustomProviders(ov, report)
	if len(diags) > 0 {
		return nil, diags
	}
	return ov, nil
}

type reporter func(path, format string, args ...any)

var providerStringFields = []string{"name", "baseUrl", "apiKey", "api"}

func parseProvider(path string, o *jsonv.Object, report reporter) *ProviderOverride {
	po := &ProviderOverride{Raw: o, ModelOverrides: map[string]*jsonv.Object{}}
	for _, k := range providerStringFields {
		checkType(path+"."+k, o, k, "string", report)
	}
	po.BaseURL = str(o, "baseUrl")
	po.API = str(o, "api")
	if v, ok := o.Get("oauth"); ok && v != "radius" {
		report(path+".oauth", "must be \"radius\"")
	}
	checkType(path+".authHeader", o, "authHeader", "boolean", report)
	checkStringMap(path+".headers", o, "headers", report)
	if checkType(path+".compat", o, "compat", "object", report) {
		po.Compat, _ = get(o, "compat").(*jsonv.Object)
		checkCompat(path+".compat", po.Compat, report)
	}
	if v, ok := o.Get("models"); ok {
		arr, isArr := v.([]any)
		if !isArr {
			report(path+".models", "must be an array")
		}
		for i, mv := range arr {
			mpath := path + ".models[" + strconv.Itoa(i) + "]"
			m, isObj := mv.(*jsonv.Object)
			if !isObj {
				report(mpath, "must be an object")
				continue
			}
			if _, has := m.Get("id"); !has {
				report(mpath, "missing required property \"id\"")
			}
			checkModel(mpath, m, false, report)
			po.Models = append(po.Models, m)
		}
	}
	if v, ok := o.Get("modelOverrides"); ok {
		mos, isObj := v.(*jsonv.Object)
		if !isObj {
			report(path+".modelOverrides", "must be an object")
		}
		if mos != nil {
			for _, id := range mos.Keys() {
				mv, _ := mos.Get(id)
				mpath := path + ".modelOverrides." + id
				m, isObj := mv.(*jsonv.Object)
				if !isObj {
					report(mpath, "must be an object")
					continue
				}
				checkModel(mpath, m, true, report)
				po.ModelOverrides[id] = m
			}
		}
	}
	return po
}

var (
	modelStringFields = []string{"id", "name", "api", "baseUrl"}
	modelNumberFields = []string{"contextWindow", "maxTokens"}
	modelObjectFields = []string{"samplingParams", "samplingParamsByThinkingLevel", "promptCache", "inputLimits"}
	thinkingLevels    = map[string]bool{"off": true, "minimal": true, "low": true, "medium": true, "high": true, "xhigh": true, "max": true}
	costRateFields    = []string{"input", "output", "cacheRead", "cacheWrite"}
	compatBoolFlags   = []string{"supportsMidConvoSystemMessages", "supportsMidConvoToolAdditions", "supportsMidConvoToolChanges", "supportsMidConvoEffort"}
)

// checkModel validates a model object; partial (modelOverrides) entries may
// leave out required cost rates.
func checkModel(path string, m *jsonv.Object, partial bool, report reporter) {
	for _, k := range modelStringFields {
		checkType(path+"."+k, m, k, "string", report)
	}
	for _, k := range modelNumberFields {
		checkType(path+"."+k, m, k, "number", report)
	}
	for _, k := range modelObjectFields {
		checkType(path+"."+k, m, k, "object", report)
	}
	checkType(path+".reasoning", m, "reasoning", "boolean", report)
	checkStringMap(path+".headers", m, "headers", report)
	if v, ok := m.Get("input"); ok {
		arr, isArr := v.([]any)
		if !isArr {
			report(path+".input", "must be an array")
		}
		for i, e := range arr {
			if e != "text" && e != "image" {
				report(path+".input["+strconv.Itoa(i)+"]", "must be \"text\" or \"image\"")
			}
		}
	}
	if checkType(path+".thinkingLevelMap", m, "thinkingLevelMap", "object", report) {
		tlm, _ := get(m, "thinkingLevelMap").(*jsonv.Object)
		for _, lvl := range tlm.Keys() {
			v, _ := tlm.Get(lvl)
			if _, isStr := v.(string); thinkingLevels[lvl] && !isStr && v != nil {
				report(path+".thinkingLevelMap."+lvl, "must be a string or null")
			}
		}
	}
	if checkType(path+".cost", m, "cost", "object", report) {
		checkCost(path+".cost", get(m, "cost").(*jsonv.Object), partial, report)
	}
	if checkType(path+".compat", m, "compat", "object", report) {
		c, _ := get(m, "compat").(*jsonv.Object)
		checkCompat(path+".compat", c, report)
	}
}

// checkCost validates a ModelCost: the four rates are required numbers (unless
// partial); each
// tier needs inputTokensAbove and the four rates.
func checkCost(path string, c *jsonv.Object, partial bool, report reporter) {
	for _, k := range costRateFields {
		if _, ok := c.Get(k); !ok && !partial {
			report(path, "missing required property %q", k)
		}
		checkType(path+"."+k, c, k, "number", report)
	}
	v, ok := c.Get("tiers")
	if !ok {
		return
	}
	tiers, isArr := v.([]any)
	if !isArr {
		report(path+".tiers", "must be an array")
		return
	}
	for i, tv := range tiers {
		tpath := path + ".tiers[" + strconv.Itoa(i) + "]"
		t, isObj := tv.(*jsonv.Object)
		if !isObj {
			report(tpath, "must be an object")
			continue
		}
		for _, k := range append([]string{"inputTokensAbove"}, costRateFields...) {
			if _, ok := t.Get(k); !ok {
				report(tpath, "missing required property %q", k)
			}
			checkType(tpath+"."+k, t, k, "number", report)
		}
	}
}

func checkCompat(path string, c *jsonv.Object, report reporter) {
	for _, k := range compatBoolFlags {
		checkType(path+"."+k, c, k, "boolean", report)
	}
}

func checkStringMap(path string, o *jsonv.Object, key string, report reporter) {
	if !checkType(path, o, key, "object", report) {
		return
	}
	h, _ := get(o, key).(*jsonv.Object)
	for _, k := range h.Keys() {
		checkType(path+"."+k, h, k, "string", report)
	}
}

// checkType reports a member of o that is present with the wrong JSON type
// and says whether the member is present with the right one.
func checkType(path string, o *jsonv.Object, key, want string, report reporter) bool {
	if o == nil {
		return false
	}
	v, ok := o.Get(key)
	if !ok {
		return false
	}
	if typeName(v) != want {
		report(path, "must be %s %s", article(want), want)
		return false
	}
	return true
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *jsonv.Object:
		return "object"
	}
	return "unknown"
}

func article(word string) string {
	if word == "object" || word == "array" {
		return "an"
	}
	return "a"
}

// checkCustomProviders applies Pi's extra rule for providers that are not
// built in: custom models need a baseUrl and an api (provider or model level).
func checkCustomProviders(ov *Overrides, report reporter) {
	builtins := map[string]bool{}
	for _, p := range Default().base.providerNames() {
		builtins[p] = true
	}
	names := make([]string, 0, len(ov.Providers))
	for n := range ov.Providers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		po := ov.Providers[name]
		if builtins[name] || len(po.Models) == 0 {
			continue
		}
		if po.BaseURL == "" {
			report("providers."+name+".baseUrl", "required when the provider defines models")
		}
		for i, m := range po.Models {
			if po.API == "" && str(m, "api") == "" {
				report("providers."+name+".models["+strconv.Itoa(i)+"].api", "required (no provider-level api)")
			}
		}
	}
}
