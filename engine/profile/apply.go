package profile

import "github.com/forgebench/forgebench/engine/jsonv"

// ModelInfo is what Pi's catalog says about a model's thinking support.
type ModelInfo struct {
	Reasoning        bool
	ThinkingLevelMap *jsonv.Object
}

// RuntimeInput is the runtime a profile is applied over and the target the
// preflight accepted.
type RuntimeInput struct {
	// Current is the model in force (nil when the session records none).
	Current *Model
	// CurrentThinking is the thinking level in force.
	CurrentThinking string
	// SwitchThinking is the level Pi's setModel re-applies after a model
	// switch: the settings' per-model level, else defaultThinkingLevel;
	// "" means the current level (Pi's last fallback).
	SwitchThinking string
	// Target is the profile's model, TargetInfo its catalog facts.
	Target     Model
	TargetInfo ModelInfo
	// TargetThinking is the effective thinking level of the preflight.
	TargetThinking string
}

// RuntimeChange is one entry Pi appends while a profile is applied: a model
// change (Model set) or a thinking-level change.
type RuntimeChange struct {
	Model    *Model
	Thinking string
}

// Entry returns the Pi session entry type and its fields in Pi's order
// (appendModelChange, appendThinkingLevelChange).
func (c RuntimeChange) Entry() (string, *jsonv.Object) {
	f := jsonv.NewObject()
	if c.Model != nil {
		f.Set("provider", c.Model.Provider)
		f.Set("modelId", c.Model.ID)
		return "model_change", f
	}
	f.Set("thinkingLevel", c.Thinking)
	return "thinking_level_change", f
}

// PlanRuntimeChanges lists the model and thinking entries of pi-forge's
// applyResolvedAgentProfile over Pi 1.6.0's setters: setModel only when the
// model differs (it appends model_change and then re-applies the switch
// level clamped to the new model, recorded only when it changes the
// level), then setThinkingLevel(effective level), recorded only when it
// changes the level.
func PlanRuntimeChanges(in RuntimeInput) []RuntimeChange {
	var out []RuntimeChange
	level := in.CurrentThinking
	setLevel := func(want string) {
		eff := ClampThinkingLevel(in.TargetInfo.Reasoning, in.TargetInfo.ThinkingLevelMap, want)
		if eff != level {
			out = append(out, RuntimeChange{Thinking: eff})
			level = eff
		}
	}
	if in.Current == nil || *in.Current != in.Target {
		target := in.Target
		out = append(out, RuntimeChange{Model: &target})
		switchLevel := in.SwitchThinking
		if switchLevel == "" {
			switchLevel = level
		}
		setLevel(switchLevel)
	}
	setLevel(in.TargetThinking)
	return out
}
