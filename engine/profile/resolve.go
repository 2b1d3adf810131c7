package profile

import (
	"github.com/forgebench/forgebench/engine/preset"
)

// PresetRef is one loaded Preset as profile resolution sees it.
type PresetRef struct {
	// Scope is the storage scope of the Preset file.
	Scope preset.Scope
	// Stack is the normalized Preset (its ID is the lookup id).
	Stack *preset.Stack
	// Diagnostics are the Preset's own diagnostics.
	Diagnostics preset.Diagnostics
}

// Selector is the Preset's scoped key "scope:id".
func (r *PresetRef) Selector() string { return string(r.Scope) + ":" + r.Stack.ID }

// PresetCatalog gives the loaded Presets of one scope with one id (none,
// one, or several when the id is ambiguous).
type PresetCatalog interface {
	PresetsWithID(scope preset.Scope, id string) []*PresetRef
}

// PresetList is a PresetCatalog over a plain list.
type PresetList []*PresetRef

// PresetsWithID implements PresetCatalog.
func (l PresetList) PresetsWithID(scope preset.Scope, id string) []*PresetRef {
	var out []*PresetRef
	for _, r := range l {
		if r != nil && r.Stack != nil && r.Scope == scope && r.Stack.ID == id {
			out = append(out, r)
		}
	}
	return out
}

// ResolvePromptStack resolves a profile's promptStack relative to the
// profile's scope (§11.2): a bare id means the profile's own scope, a
// global profile may not reference a project Preset, and the lookup is
// exact (no project-over-global fallback). It returns nil and no
// diagnostics for promptStack null. Messages (field promptStack):
// the selector error, `Global profile <id> cannot reference project prompt stack <stackId>.`,
// `Unknown prompt stack: <ref>.` (plus ` Use global:<id> to reference the global stack.`
// when a project profile misses but a global Preset exists) and
// `Prompt stack id is ambiguous: <ref>`.
func ResolvePromptStack(e *Entry, presets PresetCatalog) (*PresetRef, Diagnostics) {
	if e.Profile.PromptStack == nil {
		return nil, nil
	}
	reference := *e.Profile.PromptStack
	fail := func(message string) (*PresetRef, Diagnostics) {
		return nil, Diagnostics{errorAt("promptStack", message)}
	}
	sel, err := preset.ParseSelector(reference)
	if err != "" {
		return fail(err)
	}
	if e.Scope == preset.ScopeGlobal && sel.Scope == preset.ScopeProject {
		return fail("Global profile " + e.Profile.ID + " cannot reference project prompt stack " + sel.ID + ".")
	}
	scope := sel.Scope
	if scope == "" {
		scope = e.Scope
	}
	var matches []*PresetRef
	if presets != nil {
		matches = presets.PresetsWithID(scope, sel.ID)
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		hint := ""
		if e.Scope == preset.ScopeProject && scope == preset.ScopeProject && presets != nil &&
			len(presets.PresetsWithID(preset.ScopeGlobal, sel.ID)) > 0 {
			hint = " Use global:" + sel.ID + " to reference the global stack."
		}
		return fail("Unknown prompt stack: " + reference + "." + hint)
	}
	return fail("Prompt stack id is ambiguous: " + reference)
}
