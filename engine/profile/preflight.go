package profile

import (
	"github.com/forgebench/forgebench/engine/preset"
)

// ModelStatus is what the host knows about one model reference.
type ModelStatus struct {
	// Known is false when the model is not in the registry.
	Known bool
	// NoAuth is true when the model is known to have no configured
	// authentication (leave false when availability is not checked).
	NoAuth bool
	// EffectiveThinkingLevel is the level Pi would clamp the requested level
	// to; "" means the requested level is supported as is.
	EffectiveThinkingLevel string
}

// Resources is what preflight needs from the host.
type Resources struct {
	// Model looks a model up for a requested thinking level; nil means no
	// model is known.
	Model func(ref Model, thinkingLevel string) ModelStatus
	// Presets are the loaded Presets.
	Presets PresetCatalog
	// ToolNames are the registered tools; nil skips the unmatched-pattern check.
	ToolNames []string
}

// Resolved is a profile after preflight (pi-forge's ResolvedAgentProfile).
type Resolved struct {
	Entry *Entry
	// Preset is the resolved Preset; nil for promptStack null or on failure.
	Preset *PresetRef
	// ModelKnown reports whether the model was found.
	ModelKnown bool
	// EffectiveThinkingLevel is the level that would be applied.
	EffectiveThinkingLevel string
	// Diagnostics: the entry's own, then model, Preset and tool findings.
	Diagnostics Diagnostics
}

// Usable reports whether the profile may be applied: a known model and no
// error diagnostics.
func (r *Resolved) Usable() bool { return r.ModelKnown && !r.Diagnostics.HasErrors() }

// Preflight runs the all-or-nothing checks of §11.3 (resolveAgentProfile):
// the model exists (`Unknown model: <p>/<id>`) and has authentication
// (`Model <p>/<id> has no configured authentication.`), the thinking level is
// supported (`Model <p>/<id> does not support thinking level <lvl>; Pi would clamp it to <eff>.`),
// the Preset resolves (ResolvePromptStack) and its diagnostics are carried
// over as `Prompt stack <stackId>: <message>`, and every allow pattern of the
// Preset matches a registered tool (warning
// `Prompt stack <id> allows tool pattern "<p>", but it matches no registered tools.`).
func Preflight(e *Entry, res Resources) Resolved {
	p := e.Profile
	out := Resolved{Entry: e, EffectiveThinkingLevel: p.ThinkingLevel}
	out.Diagnostics = append(Diagnostics{}, e.Diagnostics...)
	var status ModelStatus
	if res.Model != nil {
		status = res.Model(p.Model, p.ThinkingLevel)
	}
	if !status.Known {
		out.Diagnostics = append(out.Diagnostics, errorAt("model", "Unknown model: "+p.Model.String()))
	} else {
		out.ModelKnown = true
		if status.NoAuth {
			out.Diagnostics = append(out.Diagnostics, errorAt("model", "Model "+p.Model.String()+" has no configured authentication."))
		}
		if status.EffectiveThinkingLevel != "" && status.EffectiveThinkingLevel != p.ThinkingLevel {
			out.EffectiveThinkingLevel = status.EffectiveThinkingLevel
			out.Diagnostics = append(out.Diagnostics, errorAt("thinkingLevel", "Model "+p.Model.String()+
				" does not support thinking level "+p.ThinkingLevel+"; Pi would clamp it to "+status.EffectiveThinkingLevel+"."))
		}
	}
	if p.PromptStack == nil {
		return out
	}
	ref, diags := ResolvePromptStack(e, res.Presets)
	out.Diagnostics = append(out.Diagnostics, diags...)
	if ref == nil {
		return out
	}
	out.Preset = ref
	for _, d := range ref.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, Diagnostic{Level: d.Level, Field: "promptStack",
			Message: "Prompt stack " + ref.Stack.ID + ": " + d.Message})
	}
	if res.ToolNames != nil && ref.Stack.Tools != nil && !contains(ref.Stack.Tools.Allow, "*") {
		for _, pattern := range ref.Stack.Tools.Allow {
			if matchesAny(res.ToolNames, pattern) {
				continue
			}
			out.Diagnostics = append(out.Diagnostics, Diagnostic{Level: preset.LevelWarning, Field: "promptStack",
				Message: "Prompt stack " + ref.Stack.ID + ` allows tool pattern "` + pattern + `", but it matches no registered tools.`})
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func matchesAny(names []string, pattern string) bool {
	for _, name := range names {
		if preset.PatternMatches(name, pattern) {
			return true
		}
	}
	return false
}
