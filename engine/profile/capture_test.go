package profile

import (
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func TestCaptureKeepsMetadataAndScopesThePreset(t *testing.T) {
	m := &Model{Provider: "openai", ID: "gpt-5.4"}
	p, diags := Capture("rev", preset.ScopeProject, CaptureInput{Model: m, ThinkingLevel: "high", PresetScope: preset.ScopeGlobal, PresetID: "quick-review"}, nil)
	if diags.HasErrors() || string(Serialize(p)) != `{
  "schemaVersion": 1,
  "type": "pi-forge.agent-profile",
  "id": "rev",
  "name": "rev",
  "model": {
    "provider": "openai",
    "id": "gpt-5.4"
  },
  "thinkingLevel": "high",
  "promptStack": "global:quick-review"
}
` {
		t.Fatalf("%v\n%s", diags, Serialize(p))
	}
	name, desc, auto := "Reviewer", "d", true
	p, _ = Capture("rev", preset.ScopeProject, CaptureInput{Model: m, ThinkingLevel: "low", PresetScope: preset.ScopeProject, PresetID: "gw"},
		&Profile{ID: "rev", Name: &name, Description: &desc, AutoActivate: &auto})
	if *p.Name != "Reviewer" || *p.Description != "d" || !p.AutoActivates() || *p.PromptStack != "gw" {
		t.Fatalf("%+v", p)
	}
	p, _ = Capture("rev", preset.ScopeGlobal, CaptureInput{Model: m, ThinkingLevel: "low"}, nil)
	if p.PromptStack != nil {
		t.Fatal("no Preset must capture promptStack null")
	}
	if _, diags := Capture("rev", preset.ScopeGlobal, CaptureInput{Model: m, ThinkingLevel: "low", PresetScope: preset.ScopeProject, PresetID: "gw"}, nil); diags.FirstError() != "Cannot capture a global profile referencing a project prompt stack gw." {
		t.Fatalf("%v", diags)
	}
	if _, diags := Capture("rev", preset.ScopeProject, CaptureInput{ThinkingLevel: "low"}, nil); diags.FirstError() != "Cannot capture an agent profile without a selected model." {
		t.Fatalf("%v", diags)
	}
	if _, diags := Capture("-bad", preset.ScopeProject, CaptureInput{Model: m, ThinkingLevel: "low"}, nil); !diags.HasErrors() {
		t.Fatal("an invalid id must fail validation")
	}
}
