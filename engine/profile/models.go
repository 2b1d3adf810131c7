package profile

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ParseModelRef reads a "provider/id" model reference as the CLI accepts
// it: split at the first "/" (model ids may contain more slashes, e.g.
// "openrouter/openai/gpt-4o"), both parts JavaScript-trimmed and non-empty.
func ParseModelRef(s string) (Model, bool) {
	provider, id, found := strings.Cut(jsonv.TrimJS(s), "/")
	provider, id = jsonv.TrimJS(provider), jsonv.TrimJS(id)
	if !found || provider == "" || id == "" {
		return Model{}, false
	}
	return Model{Provider: provider, ID: id}, true
}

// SupportedThinkingLevels lists the thinking levels Pi offers for a model
// (pi-ai getSupportedThinkingLevels): only "off" without reasoning;
// otherwise every level except those the model's thinkingLevelMap maps to
// null, and "xhigh" / "max" only when the map names them.
func SupportedThinkingLevels(reasoning bool, levelMap *jsonv.Object) []string {
	if !reasoning {
		return []string{"off"}
	}
	var out []string
	for _, level := range ThinkingLevels {
		var mapped any
		present := false
		if levelMap != nil {
			mapped, present = levelMap.Get(level)
		}
		if present && mapped == nil {
			continue
		}
		if (level == "xhigh" || level == "max") && !present {
			continue
		}
		out = append(out, level)
	}
	return out
}

// ClampThinkingLevel is the level Pi applies when level is requested for a
// model (pi-ai clampThinkingLevel): the level itself when supported, else
// the nearest supported level above it, else the nearest below, else the
// first supported level ("off" when none). Use it to fill
// ModelStatus.EffectiveThinkingLevel.
func ClampThinkingLevel(reasoning bool, levelMap *jsonv.Object, level string) string {
	available := SupportedThinkingLevels(reasoning, levelMap)
	has := func(l string) bool {
		for _, a := range available {
			if a == l {
				return true
			}
		}
		return false
	}
	if has(level) {
		return level
	}
	first := "off"
	if len(available) > 0 {
		first = available[0]
	}
	requested := -1
	for i, l := range ThinkingLevels {
		if l == level {
			requested = i
		}
	}
	if requested < 0 {
		return first
	}
	for i := requested; i < len(ThinkingLevels); i++ {
		if has(ThinkingLevels[i]) {
			return ThinkingLevels[i]
		}
	}
	for i := requested - 1; i >= 0; i-- {
		if has(ThinkingLevels[i]) {
			return ThinkingLevels[i]
		}
	}
	return first
}
