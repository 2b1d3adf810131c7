package capability

import (
	"github.com/forgebench/forgebench/engine/preset"
)

// ControlTool is the agent's capability control tool (§9.11).
const ControlTool = "forge_capability"

// ToolHost is what Pi knows about tools, as far as a session file tells:
// the registered tool catalog and the tools active right now.
type ToolHost struct {
	// Registered are all tools Pi knows (registered, active or not).
	Registered []string
	// Active are the currently selected tools; ActiveKnown is false when
	// the session records no tool selection (then effective tools cannot
	// be computed and no tools baseline is written).
	Active      []string
	ActiveKnown bool
}

// ToolRuntime emulates pi-forge's tool policy runtime
// (src/runtime/tool-policy-runtime.ts) over a ToolHost: the restorable
// baseline, the last applied selection, the active capability patches and
// the Preset tool policy, with the same sync / restore / snapshot rules.
type ToolRuntime struct {
	host        ToolHost
	registered  map[string]bool
	baseline    []string // nil = undefined
	lastApplied []string // nil = undefined
	hasBaseline bool
	hasApplied  bool
	patches     []ToolPatch
	// Preset is the active Preset (nil = none); its tool policy applies.
	Preset *PresetRef
}

// NewToolRuntime starts a runtime over a host, with no baseline.
func NewToolRuntime(host ToolHost, active *PresetRef) *ToolRuntime {
	t := &ToolRuntime{host: host, registered: map[string]bool{}, Preset: active}
	for _, n := range host.Registered {
		t.registered[n] = true
	}
	host.Active = append([]string(nil), host.Active...)
	t.host = host
	return t
}

// Known reports whether the current tool selection is known.
func (t *ToolRuntime) Known() bool { return t.host.ActiveKnown }

// Registered reports whether a tool is registered.
func (t *ToolRuntime) Registered(name string) bool { return t.registered[name] }

// Active returns the tools selected now (nil when unknown).
func (t *ToolRuntime) Active() []string {
	if !t.host.ActiveKnown {
		return nil
	}
	return append([]string{}, t.host.Active...)
}

func (t *ToolRuntime) policy() *preset.ResourcePolicy {
	if t.Preset == nil || t.Preset.Stack == nil {
		return nil
	}
	return t.Preset.Stack.Tools
}

func (t *ToolRuntime) filterKnown(names []string) []string {
	if len(t.registered) == 0 {
		return append([]string{}, names...)
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if t.registered[n] {
			out = append(out, n)
		}
	}
	return out
}

// ComputeEffective is computeEffectiveTools for a policy and source
// baseline with the runtime's current capability patches.
func (t *ToolRuntime) ComputeEffective(policy *preset.ResourcePolicy, source []string) []string {
	patches := make([]preset.ToolPatch, len(t.patches))
	for i, p := range t.patches {
		patches[i] = preset.ToolPatch{Add: p.Add, Remove: p.Remove}
	}
	out := preset.EffectiveTools(policy, t.host.Registered, source, patches)
	if out == nil {
		out = []string{}
	}
	return out
}

// ValidatePatches is validateCapabilities: every add must be a registered
// tool allowed by the Preset policy of target (the active Preset when
// target is nil and prospective is false; no Preset when prospective is
// true and target is nil); "" when the patches are acceptable.
func (t *ToolRuntime) ValidatePatches(patches []ToolPatch, target *PresetRef, prospective bool) string {
	stack := target
	if !prospective {
		stack = t.Preset
	}
	var policy *preset.ResourcePolicy
	stackID := ""
	if stack != nil && stack.Stack != nil {
		policy, stackID = stack.Stack.Tools, stack.Stack.ID
	}
	policyActive := preset.HasResourcePolicy(policy)
	for _, p := range patches {
		for _, n := range p.Remove {
			if !preset.IsValidToolName(n) {
				return `Invalid tool name "` + n + `" in capability remove list.`
			}
		}
		for _, n := range p.Add {
			if !preset.IsValidToolName(n) {
				return `Invalid tool name "` + n + `" in capability add list.`
			}
			if !t.registered[n] {
				return `Tool "` + n + `" is not registered.`
			}
			if policyActive && !preset.IsAllowed(policy, n) {
				return `Tool "` + n + `" is blocked by prompt stack "` + stackID + `".`
			}
		}
	}
	return ""
}

// SetCapabilities installs the active capability patches, restoring a
// stored baseline snapshot when restored is non-nil (setCapabilities).
func (t *ToolRuntime) SetCapabilities(patches []ToolPatch, restored *ToolsSnapshot) {
	if restored != nil {
		t.baseline, t.hasBaseline = append([]string{}, restored.Baseline...), true
		t.lastApplied, t.hasApplied = append([]string{}, restored.LastApplied...), true
	}
	t.patches = make([]ToolPatch, len(patches))
	for i, p := range patches {
		t.patches[i] = p.Clone()
	}
	if restored != nil && t.host.ActiveKnown {
		current := t.filterKnown(t.host.Active)
		expected := t.ComputeEffective(t.policy(), restored.Baseline)
		if sameSet(current, restored.LastApplied) || sameSet(current, expected) {
			t.lastApplied = current
		}
	}
}

// Sync recomputes and applies the tool selection (sync): with no selection
// policy and no capability it restores the baseline; otherwise it
// reconciles the baseline with external changes and applies the effective
// tools. It does nothing while the current selection is unknown.
func (t *ToolRuntime) Sync() {
	if !t.host.ActiveKnown {
		return
	}
	policy := t.policy()
	if !preset.HasToolSelectionPolicy(policy) && len(t.patches) == 0 {
		t.Restore()
		return
	}
	current := t.filterKnown(t.host.Active)
	if t.hasBaseline && t.hasApplied {
		t.baseline = preset.ReconcileToolBaseline(t.baseline, t.lastApplied, current)
	}
	source := current
	if t.hasBaseline {
		source = t.baseline
	} else {
		t.baseline, t.hasBaseline = append([]string{}, current...), true
	}
	next := t.ComputeEffective(policy, source)
	t.host.Active = next
	t.lastApplied, t.hasApplied = append([]string{}, next...), true
}

// Restore puts the reconciled baseline back and forgets it (restore).
func (t *ToolRuntime) Restore() {
	if t.hasBaseline && t.host.ActiveKnown {
		current := t.filterKnown(t.host.Active)
		if t.hasApplied {
			t.baseline = preset.ReconcileToolBaseline(t.baseline, t.lastApplied, current)
		}
		t.host.Active = t.filterKnown(t.baseline)
	}
	t.baseline, t.hasBaseline = nil, false
	t.lastApplied, t.hasApplied = nil, false
	t.patches = nil
}

// Snapshot is the baseline snapshot pi-forge would store (snapshot): the
// baseline and last applied selection, each falling back to the current
// selection; nil when the selection is unknown.
func (t *ToolRuntime) Snapshot() *ToolsSnapshot {
	if !t.host.ActiveKnown {
		return nil
	}
	s := &ToolsSnapshot{Baseline: append([]string{}, t.host.Active...), LastApplied: append([]string{}, t.host.Active...)}
	if t.hasBaseline {
		s.Baseline = append([]string{}, t.baseline...)
	}
	if t.hasApplied {
		s.LastApplied = append([]string{}, t.lastApplied...)
	}
	return s
}

// BlockReason is the tool-call guard (blockReason): why a call of name is
// refused by the Preset policy or an active removal, or "".
func (t *ToolRuntime) BlockReason(name string) string {
	stackID := ""
	if t.Preset != nil && t.Preset.Stack != nil {
		stackID = t.Preset.Stack.ID
	}
	patches := make([]preset.ToolPatch, len(t.patches))
	for i, p := range t.patches {
		patches[i] = preset.ToolPatch{Add: p.Add, Remove: p.Remove}
	}
	return preset.ToolBlockReason(stackID, t.policy(), patches, name)
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	in := make(map[string]bool, len(b))
	for _, n := range b {
		in[n] = true
	}
	for _, n := range a {
		if !in[n] {
			return false
		}
	}
	return true
}
