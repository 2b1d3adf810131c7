package compile

import "github.com/forgebench/forgebench/engine/preset"

// ForgeCapabilityTool is the model-callable tool pi-forge itself registers
// in every session (spec pi-forge-formats §9.11, §18): pi-forge ≥ 0.5.5's
// extension factory calls registerCapabilityTool unconditionally
// (src/index.ts), and a call without an active Preset that has bound
// capabilities is refused, not unregistered.
const ForgeCapabilityTool = "forge_capability"

// Sources of a fresh session's tool list (ToolSelection.Source).
const (
	ToolsFromInitial  = "tools.initial"
	ToolsFromAllow    = "allow list over the registered tools"
	ToolsFromDeny     = "Pi's default tools minus the deny list"
	ToolsFromDefaults = "Pi's default tools"
)

// ToolSelection is the tool list a session starts with and where it came
// from, for humans (one of the ToolsFrom constants).
type ToolSelection struct {
	Tools  []string
	Source string
}

// RegisteredTools is the catalogue of a session with pi-forge and no other
// extension: Pi's built-in tools in registry order, then forge_capability.
func RegisteredTools() []string {
	out := make([]string, 0, len(BuiltinTools)+1)
	for _, t := range BuiltinTools {
		out = append(out, t.Name)
	}
	return append(out, ForgeCapabilityTool)
}

// FreshBaseline is the active tool list of a new Pi session before any
// Preset policy: Pi's default tools, then forge_capability. Pi's
// AgentSession builds its first tool registry with
// includeAllExtensionTools, so every tool an extension registers while
// loading is active from the start (Pi 1.x skips only a tool declared
// defaultActive: false, which pi-forge's is not); pi-forge then narrows the
// list only when a Preset has a selection policy (tools.initial or
// allow/deny), computeEffectiveTools below.
func FreshBaseline() []string {
	return append(append([]string{}, DefaultToolNames...), ForgeCapabilityTool)
}

// FreshSessionTools is the tool list a fresh session starts with under a
// Preset tool policy (pi-forge's computeEffectiveTools, §9.10, with no
// capability active): tools.initial when given; else a selective allow list
// picks from the whole registered catalogue; else the policy filters the
// baseline; else the baseline.
func FreshSessionTools(policy *preset.ResourcePolicy) ToolSelection {
	tools := preset.EffectiveTools(policy, RegisteredTools(), FreshBaseline(), nil)
	if tools == nil {
		tools = []string{}
	}
	source := ToolsFromDefaults
	switch {
	case policy != nil && policy.Initial != nil:
		source = ToolsFromInitial
	case preset.HasResourcePolicy(policy) && preset.HasSelectiveAllow(policy):
		source = ToolsFromAllow
	case preset.HasResourcePolicy(policy):
		source = ToolsFromDeny
	}
	return ToolSelection{Tools: tools, Source: source}
}

// UnmatchedAllowPatterns are the allow patterns of policy (other than "*")
// that match none of the tools: pi-forge reports them during validation and
// preflight (§5.2, §11.3).
func UnmatchedAllowPatterns(policy *preset.ResourcePolicy, tools []string) []string {
	if policy == nil {
		return nil
	}
	var out []string
	for _, pattern := range policy.Allow {
		if pattern == "*" {
			continue
		}
		matched := false
		for _, name := range tools {
			if preset.PatternMatches(name, pattern) {
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, pattern)
		}
	}
	return out
}
