package capability

import (
	"slices"
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// ReadBindings returns the usable bindings of the active Preset in force.
func (r *Runtime) ReadBindings() ([]ResolvedBinding, string) { return ReadBindings(r.ws, r.preset) }

// controlToolUsable reports whether forge_capability is registered,
// selected and not blocked — the agent's precondition for every call.
func (r *Runtime) controlToolUsable() bool {
	return r.tools.Registered(ControlTool) && slices.Contains(r.tools.Active(), ControlTool) && r.tools.BlockReason(ControlTool) == ""
}

// EnableBound activates a binding of the active Preset (enableBound): as
// the user (/capability enable-bound) or as the agent (forge_capability
// enable, which needs modelCallable and an available control tool).
func (r *Runtime) EnableBound(id string, actor Actor) (Result, *Refusal) {
	if ref := r.gate(true); ref != nil {
		return Result{}, ref
	}
	target := jsonv.TrimJS(id)
	if target == "" {
		return Result{}, refuse("Binding ID must be a non-empty string.")
	}
	if jsonv.UTF16Len(target) > MaxIDLength {
		return Result{}, refuse("Binding ID must be at most " + strconv.Itoa(MaxIDLength) + " characters.")
	}
	if r.preset == nil {
		return Result{}, refuse(MsgNoActivePreset)
	}
	bindings, msg := r.ReadBindings()
	if msg != "" {
		return Result{}, refuse(msg)
	}
	var binding *ResolvedBinding
	for i := range bindings {
		if bindings[i].ID == target {
			binding = &bindings[i]
			break
		}
	}
	if binding == nil {
		return Result{}, &Refusal{Kind: RefusedUnknown, Subject: `binding "` + target + `" of the active Preset "` + r.preset.Key.String() + `"`,
			Message: `Capability "` + target + `" is not bound to active preset "` + r.preset.Key.String() + `".`}
	}
	if actor == ActorAgent {
		if !binding.ModelCallable {
			return Result{}, refuse(`Capability "` + target + `" is not authorized for agent use (modelCallable is not true).`)
		}
		if slices.Contains(binding.Capability.Tools.Remove, ControlTool) {
			return Result{}, refuse(`Cannot activate capability "` + target + `": agent cannot remove control tool "forge_capability".`)
		}
		if !r.controlToolUsable() {
			return Result{}, refuse(MsgControlUnavailable)
		}
	}
	if problem := r.tools.ValidatePatches([]ToolPatch{binding.Capability.Tools}, nil, false); problem != "" {
		return Result{}, refuse(`Cannot activate capability "` + target + `": ` + problem)
	}
	var existing, stale *Active
	for i, a := range r.history.Reduced.Active {
		b := a.Snapshot.Source.Binding
		if a.Snapshot.Source.Kind != SourceCapability || b == nil || b.Preset != binding.Preset || b.ID != binding.ID {
			continue
		}
		if stale == nil {
			stale = &r.history.Reduced.Active[i]
		}
		if existing == nil && a.Snapshot.Source.Key == binding.Ref {
			existing = &r.history.Reduced.Active[i]
		}
	}
	if stale != nil && existing == nil {
		return Result{}, refuse(`Capability "` + target + `" has a stale binding identity; disable the old activation before reusing it.`)
	}
	if existing != nil {
		return Result{Message: `Capability "` + target + `" is already active as ` + existing.Snapshot.ActivationID +
			". Repeated use is idempotent and does not change ownership.", ActivationID: existing.Snapshot.ActivationID, Idempotent: true}, nil
	}
	snap := binding.Snapshot(r.newID())
	ev := NewActivateEvent(r.newID(), actor, r.now(), snap)
	warning, ref := r.commit(ev)
	if ref != nil {
		return Result{}, ref
	}
	// pi-forge's enableBound reports a sync failure after saving as a
	// failure, although the entries were written.
	if warning != "" {
		return Result{}, refuse(warning)
	}
	return Result{Message: selectedMessage(snap), ActivationID: snap.ActivationID}, nil
}

// AgentDisable is the agent's forge_capability disable (disableBound with
// actor agent): only its own activation of a binding the active Preset
// still authorizes.
func (r *Runtime) AgentDisable(id string) (Result, *Refusal) {
	if ref := r.gate(false); ref != nil {
		return Result{}, ref
	}
	target := jsonv.TrimJS(id)
	if target == "" {
		return Result{}, refuse("Invalid capability id.")
	}
	if jsonv.UTF16Len(target) > MaxIDLength {
		return Result{}, refuse("Capability ID must be at most " + strconv.Itoa(MaxIDLength) + " characters.")
	}
	if !r.controlToolUsable() {
		return Result{}, refuse(MsgControlUnavailable)
	}
	if r.preset == nil {
		return Result{}, refuse("forge_capability disable requires an active preset with bound capabilities.")
	}
	matches := r.matchActive(target)
	switch {
	case len(matches) == 0:
		return Result{}, refuse("No matching active capability: " + target)
	case len(matches) > 1:
		return Result{}, refuse(`Ambiguous active capability "` + target + `"; use its activation ID.`)
	}
	t := matches[0]
	if t.Actor != ActorAgent {
		return Result{}, refuse("Agent cannot deactivate user-owned activation: " + t.Snapshot.ActivationID)
	}
	src := t.Snapshot.Source
	if src.Kind != SourceCapability || src.Binding == nil {
		return Result{}, refuse("Agent cannot deactivate unbound or manual capability: " + t.Snapshot.ActivationID)
	}
	bindings, msg := r.ReadBindings()
	if msg != "" {
		return Result{}, refuse("Failed to resolve active preset bindings: " + msg)
	}
	var current *ResolvedBinding
	for i := range bindings {
		if bindings[i].ID == src.Binding.ID {
			current = &bindings[i]
			break
		}
	}
	if current == nil || src.Binding.Preset != r.preset.Key || src.Key != current.Ref || !current.ModelCallable {
		return Result{}, refuse(`Cannot deactivate capability "` + target + `": current authorization requires the exact active-preset binding identity (including its capability source) and modelCallable authorization.`)
	}
	id = t.Snapshot.ActivationID
	warning, ref := r.commit(NewDeactivateEvent(r.newID(), ActorAgent, r.now(), id))
	if ref != nil {
		return Result{}, ref
	}
	if warning != "" {
		return Result{}, refuse(warning)
	}
	return Result{Message: "Stopped " + id + "; tools recomputed, stop notice pending next request.", ActivationID: id}, nil
}

// SwitchPreflight is validatePresetSwitch (0.5.6): the activations that
// survive a switch to target (nil = no Preset) — everything except bound
// activations of another Preset — must satisfy target's tool policy.
func (r *Runtime) SwitchPreflight(target *PresetRef) string {
	targetKey := ""
	if target != nil {
		targetKey = target.Key.String()
	}
	var surviving []ToolPatch
	for _, a := range r.history.Reduced.Active {
		if b := a.Snapshot.Source.Binding; a.Snapshot.Source.Kind == SourceCapability && b != nil && b.Preset.String() != targetKey {
			continue
		}
		surviving = append(surviving, a.Snapshot.Tools)
	}
	if !r.ws.Trusted && len(surviving) > 0 {
		return MsgUntrustedActive
	}
	return r.tools.ValidatePatches(surviving, target, true)
}

// SavePreflight checks a new version of the active Preset against the
// session's frozen snapshots before it is saved (0.5.6): the surviving
// activations must satisfy the draft's tool policy. It returns "" when the
// draft is not the active Preset or nothing conflicts.
func (r *Runtime) SavePreflight(draft *PresetRef) string {
	if draft == nil || r.preset == nil || draft.Key != r.preset.Key {
		return ""
	}
	return r.SwitchPreflight(draft)
}

// UsePreset switches the active Preset (/preset use): refused in an
// untrusted project or for an unknown or invalid Preset; preflighted
// against the frozen snapshots; then the selection entry (when it
// changes) and a sync that retires bound activations of the old Preset.
// selector "none", "off" or "disable" disables the Preset.
func (r *Runtime) UsePreset(selector string) (Result, *Refusal) {
	if !r.ws.Trusted {
		return Result{}, &Refusal{Kind: RefusedUntrusted, Message: MsgPresetUntrusted}
	}
	if jsonv.TrimJS(selector) == "" {
		return Result{}, &Refusal{Kind: RefusedUsage, Message: "Usage: /preset use <id|none|project:id|global:id>"}
	}
	plannedBefore := len(r.planned)
	var target *PresetRef
	if !IsDisabledPresetID(selector) {
		p, msg := r.ws.ResolvePreset(selector)
		if msg != "" {
			// pi-forge says "Unknown prompt stack" for every Preset it
			// cannot activate; the kind says which case this is.
			ref := &Refusal{Kind: RefusedUnknown, Message: "Unknown prompt stack: " + selector, Subject: `Preset "` + jsonv.TrimJS(selector) + `"`}
			if p != nil {
				ref.Kind = RefusedInvalid
				ref.Subject = "Preset " + p.Key.String()
			}
			return Result{}, ref
		}
		target = p
	}
	if problem := r.SwitchPreflight(target); problem != "" {
		return Result{}, refuse(problem)
	}
	r.preset, r.presetProblem = target, ""
	r.tools.Preset = target
	canonical := "none"
	if target != nil {
		canonical = target.Key.String()
	}
	if canonical != r.lastPersisted {
		data := jsonv.NewObject()
		data.Set("activeStackId", canonical)
		r.planned = append(r.planned, PlannedEntry{CustomType: PresetStateEntryType, Data: data})
		r.lastPersisted = canonical
	}
	res := Result{Message: MsgPresetDisabled}
	if target != nil {
		res.Message = "pi-forge: active prompt stack " + target.Stack.ID
	}
	if msg := r.sync(); msg != "" {
		res.Warning = msg
	}
	res.Idempotent = len(r.planned) == plannedBefore
	return res, nil
}
