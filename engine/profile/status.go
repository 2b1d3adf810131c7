package profile

import (
	"slices"

	"github.com/forgebench/forgebench/engine/preset"
)

// Current is the runtime a session is in at one entry, as far as the
// session file tells (pi-forge's AgentProfileCurrentRuntime).
type Current struct {
	// Model is nil when no model is recorded.
	Model         *Model
	ThinkingLevel string
	// PromptStack is the active Preset's scoped key; nil = none.
	PromptStack *string
	// Tools are the active tools; ToolsKnown is false when the session
	// records no tool selection.
	Tools      []string
	ToolsKnown bool
}

// ToolsDriftNote says what the tools drift is: forgebench's own check, which
// pi-forge's /profile status does not make (§11.4 names model, thinking
// level and Preset).
const ToolsDriftNote = "forgebench's own check, not part of pi-forge's /profile status: the tools a fresh session starts with under the applied Preset, compared with the tools at the entry (an enabled capability changes them too)"

// Drift is one field of the runtime compared with what was applied.
type Drift struct {
	Expected, Actual string
	Changed          bool
	// Unknown is set when the session does not record the actual value.
	Unknown bool
}

// Status is pi-forge's profile status (getAgentProfileRuntimeStatus,
// §11.4): the last applied provenance, whether its source file changed
// since (by sourceFingerprint), and the drift of each field.
type Status struct {
	Provenance  Provenance
	SourceState string
	Model       Drift
	Thinking    Drift
	Preset      Drift
	// Tools compares the tools the applied Preset selects in a fresh
	// session (ExpectedTools, given by the caller) with the session's; an
	// addition of forgebench's (ToolsDriftNote).
	Tools Drift
}

// RuntimeStatus compares a provenance with the current runtime; expected
// are the tools the applied Preset selects (nil: not computed, the tools
// drift is then unknown).
func RuntimeStatus(c *Catalog, p Provenance, cur Current, expected []string) Status {
	st := Status{Provenance: p, SourceState: SourceState(c, p)}
	actualModel := "(none)"
	if cur.Model != nil {
		actualModel = cur.Model.String()
	}
	st.Model = drift(p.Model.String(), actualModel)
	st.Thinking = drift(p.ThinkingLevel, cur.ThinkingLevel)
	st.Preset = drift(orNone(scopedStack(p)), orNone(cur.PromptStack))
	switch {
	case expected == nil || !cur.ToolsKnown:
		st.Tools = Drift{Expected: joinTools(expected), Actual: "unknown", Unknown: true}
	default:
		st.Tools = Drift{Expected: joinTools(expected), Actual: joinTools(cur.Tools), Changed: !sameSet(expected, cur.Tools)}
	}
	return st
}

func drift(expected, actual string) Drift {
	return Drift{Expected: expected, Actual: actual, Changed: expected != actual}
}

func orNone(s *string) string {
	if s == nil {
		return "(none)"
	}
	return *s
}

func joinTools(tools []string) string {
	if tools == nil {
		return "unknown"
	}
	if len(tools) == 0 {
		return "(none)"
	}
	out := tools[0]
	for _, t := range tools[1:] {
		out += ", " + t
	}
	return out
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// scopedStack is the applied Preset as a scoped key: a bare id in the
// snapshot (as profile.promptStack was written) resolves in the profile's
// own scope (§11.2), so it compares with the session's scoped selection.
func scopedStack(p Provenance) *string {
	if p.PromptStack == nil {
		return nil
	}
	sel, msg := preset.ParseSelector(*p.PromptStack)
	if msg != "" || sel.Scope != "" {
		return p.PromptStack
	}
	scope := p.Scope
	if scope == "" {
		scope = preset.ScopeProject
	}
	key := string(scope) + ":" + sel.ID
	return &key
}
