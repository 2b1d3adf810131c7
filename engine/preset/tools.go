package preset

// ToolPatch is the tool effect of one active capability (tools.add / tools.remove).
type ToolPatch struct {
	Add, Remove []string
}

// EffectiveTools computes the active tool list (computeEffectiveTools,
// §9.10) from the Preset tool policy, the registered tool catalog, the
// session baseline and the active capability patches in activation order:
// base list (tools.initial, else the policy applied to the catalog or the
// baseline, else the baseline) + capability adds, minus every removal, then
// the Preset policy as the ceiling and the removals again. An empty
// registered catalog means "unknown" and filters nothing.
func EffectiveTools(policy *ResourcePolicy, registered, baseline []string, patches []ToolPatch) []string {
	known := make(map[string]bool, len(registered))
	for _, name := range registered {
		known[name] = true
	}
	filterKnown := func(names []string) []string {
		if len(known) == 0 {
			return names
		}
		out := make([]string, 0, len(names))
		for _, n := range names {
			if known[n] {
				out = append(out, n)
			}
		}
		return out
	}
	source := filterKnown(baseline)
	policyActive := HasResourcePolicy(policy)
	var base []string
	switch {
	case policy != nil && policy.Initial != nil:
		for _, n := range policy.Initial {
			if known[n] {
				base = append(base, n)
			}
		}
	case policyActive && HasSelectiveAllow(policy):
		base = ApplyResourcePolicy(registered, policy)
	case policyActive:
		base = ApplyResourcePolicy(filterKnown(source), policy)
	default:
		base = source
	}
	effective := append([]string{}, base...)
	removed := map[string]bool{}
	for _, patch := range patches {
		for _, n := range patch.Add {
			if known[n] && !containsString(effective, n) {
				effective = append(effective, n)
			}
		}
		for _, n := range patch.Remove {
			removed[n] = true
		}
	}
	withoutRemoved := func(names []string) []string {
		out := make([]string, 0, len(names))
		for _, n := range names {
			if !removed[n] {
				out = append(out, n)
			}
		}
		return out
	}
	result := withoutRemoved(effective)
	if policyActive {
		result = ApplyResourcePolicy(result, policy)
	}
	return withoutRemoved(result)
}

// ToolBlockReason is the tool-call guard (§9.10): why a call of tool is
// blocked by the Preset policy or an active capability removal, or "".
func ToolBlockReason(stackID string, policy *ResourcePolicy, patches []ToolPatch, tool string) string {
	if HasResourcePolicy(policy) && !IsAllowed(policy, tool) {
		return `Tool "` + tool + `" is blocked by prompt stack "` + stackID + `".`
	}
	for _, patch := range patches {
		if containsString(patch.Remove, tool) {
			return `Tool "` + tool + `" is blocked by active capability.`
		}
	}
	return ""
}

// ReconcileToolBaseline folds external tool changes into the restorable
// baseline (reconcileToolPolicyBaseline, §9.10): names newly present in
// current versus lastApplied join, names that disappeared leave; order is
// the baseline order, then new names in current order.
func ReconcileToolBaseline(baseline, lastApplied, current []string) []string {
	keep := make(map[string]bool, len(baseline))
	for _, n := range baseline {
		keep[n] = true
	}
	for _, n := range current {
		if !containsString(lastApplied, n) {
			keep[n] = true
		}
	}
	for _, n := range lastApplied {
		if !containsString(current, n) {
			delete(keep, n)
		}
	}
	var out []string
	for _, n := range baseline {
		if keep[n] {
			out = append(out, n)
		}
	}
	for _, n := range current {
		if keep[n] && !containsString(baseline, n) {
			out = append(out, n)
		}
	}
	return out
}
