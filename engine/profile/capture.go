package profile

import "github.com/forgebench/forgebench/engine/preset"

// CaptureInput is the runtime /profile save captures: the model in force
// (nil when none), the thinking level and the active Preset's scope and id
// (PresetID "" = no Preset).
type CaptureInput struct {
	Model         *Model
	ThinkingLevel string
	PresetScope   preset.Scope
	PresetID      string
}

// Capture is captureAgentProfile (/profile save, §11): the runtime's model,
// thinking level and active Preset as a profile of targetScope, keeping
// the name (else the id), description and autoActivate of the profile it
// replaces (existing, nil for a new one). The Preset reference is written
// relative to the target scope: the same scope as a bare id, a global
// Preset from a project profile as global:<id>; a global profile cannot
// reference a project Preset. It returns nil and the diagnostics when the
// capture fails validation.
func Capture(id string, targetScope preset.Scope, in CaptureInput, existing *Profile) (*Profile, Diagnostics) {
	if in.Model == nil {
		return nil, Diagnostics{errorAt("model", "Cannot capture an agent profile without a selected model.")}
	}
	var ref *string
	if in.PresetID != "" {
		switch {
		case in.PresetScope == targetScope:
			ref = &in.PresetID
		case targetScope == preset.ScopeProject && in.PresetScope == preset.ScopeGlobal:
			s := string(preset.ScopeGlobal) + ":" + in.PresetID
			ref = &s
		default:
			return nil, Diagnostics{errorAt("promptStack", "Cannot capture a "+string(targetScope)+" profile referencing a "+string(in.PresetScope)+" prompt stack "+in.PresetID+".")}
		}
	}
	name := id
	p := &Profile{ID: id, Name: &name, Model: *in.Model, ThinkingLevel: in.ThinkingLevel, PromptStack: ref}
	if existing != nil {
		if existing.Name != nil {
			n := *existing.Name
			p.Name = &n
		}
		p.Description, p.AutoActivate = existing.Description, existing.AutoActivate
	}
	diags := Validate(p)
	if diags.HasErrors() {
		return nil, diags
	}
	return p, diags
}
