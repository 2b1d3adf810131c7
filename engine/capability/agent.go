package capability

import (
	"slices"
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// The forge_capability tool definition (§9.11).
const (
	AgentToolLabel       = "Capability"
	AgentToolDescription = "Use only capabilities authorized by the active Preset: list, status, enable by binding ID, or disable your own Agent-owned activation. Requires a trusted project and current authorization on every call. Cannot add arbitrary rules, reset, or stop human-owned capabilities."
	// AgentToolParameters is the tool's JSON schema.
	AgentToolParameters = `{"type":"object","properties":{"action":{"type":"string","enum":["list","status","enable","disable"]},"id":{"type":"string","maxLength":128}},"required":["action"],"additionalProperties":false}`
)

// AgentReply is what a forge_capability call returns to the agent: the
// text content and the structured details.
type AgentReply struct {
	Text    string
	Details *jsonv.Object
}

// AgentTool runs one forge_capability call (executeAgentTool) with params
// as the agent sent them (a jsonv value). statusText is the session's status
// text without rule bodies (StatusText with includeContent false); it is
// the reply of action "status". On failure the string is the error the
// agent is told; enable and disable plan entries like the human commands.
func (r *Runtime) AgentTool(params any, statusText string) (AgentReply, string) {
	obj, ok := params.(*jsonv.Object)
	if !ok {
		return AgentReply{}, "forge_capability parameters must be a plain object."
	}
	if k, bad := firstKeyOutside(obj, "action", "id"); bad {
		return AgentReply{}, `forge_capability: unknown argument "` + k + `". Only "action" and "id" are permitted.`
	}
	rawAction, hasAction := obj.Get("action")
	action, _ := rawAction.(string)
	switch action {
	case "list", "status", "enable", "disable":
	default:
		shown := "undefined"
		if hasAction {
			shown = jsonv.ToString(rawAction)
		}
		return AgentReply{}, `forge_capability: invalid action "` + shown + `". Expected "list", "status", "enable", or "disable".`
	}
	rawID, hasID := obj.Get("id")
	id, _ := rawID.(string)
	if (action == "list" || action == "status") && hasID {
		return AgentReply{}, `forge_capability: argument "id" is irrelevant for action "` + action + `".`
	}
	if action == "enable" || action == "disable" {
		if _, isString := rawID.(string); !isString || jsonv.TrimJS(id) == "" {
			return AgentReply{}, `forge_capability: argument "id" is required for action "` + action + `".`
		}
		if jsonv.UTF16Len(jsonv.TrimJS(id)) > MaxIDLength {
			return AgentReply{}, `forge_capability: argument "id" must be at most ` + strconv.Itoa(MaxIDLength) + " characters."
		}
	}
	if !r.ws.Trusted {
		return AgentReply{}, "forge_capability requires a trusted project."
	}
	if !r.controlToolUsable() {
		return AgentReply{}, MsgControlUnavailable
	}
	if r.preset == nil {
		return AgentReply{}, "forge_capability requires an active preset with bound capabilities."
	}
	details := jsonv.NewObject()
	details.Set("action", action)
	switch action {
	case "list":
		bindings, msg := r.ReadBindings()
		if msg != "" {
			return AgentReply{}, msg
		}
		var blocks []string
		var caps []any
		for _, b := range r.EligibleAgentBindings(bindings) {
			lines := []string{"id: " + b.ID}
			if b.Capability.Name != nil && *b.Capability.Name != "" {
				lines[0] += " (" + *b.Capability.Name + ")"
			}
			if b.Capability.Description != nil && *b.Capability.Description != "" {
				lines = append(lines, "  description: "+*b.Capability.Description)
			}
			lines = append(lines, "  tools: +"+joinOrNone(b.Capability.Tools.Add)+"; -"+joinOrNone(b.Capability.Tools.Remove))
			blocks = append(blocks, strings.Join(lines, "\n"))
			c := jsonv.NewObject()
			c.Set("id", b.ID)
			if b.Capability.Name != nil {
				c.Set("name", *b.Capability.Name)
			}
			c.Set("tools", toolPatchJSON(b.Capability.Tools))
			caps = append(caps, c)
		}
		text := "No authorized capabilities available for agent."
		if len(blocks) > 0 {
			text = strings.Join(blocks, "\n\n")
		}
		if caps == nil {
			caps = []any{}
		}
		details.Set("capabilities", caps)
		return AgentReply{Text: text, Details: details}, ""
	case "status":
		active := make([]any, 0, len(r.history.Reduced.Active))
		for _, a := range r.history.Reduced.Active {
			item := jsonv.NewObject()
			item.Set("activationId", a.Snapshot.ActivationID)
			item.Set("actor", string(a.Actor))
			item.Set("source", a.Snapshot.SourceLabel())
			if b := a.Snapshot.BindingID(); b != "" {
				item.Set("bindingId", b)
			}
			item.Set("tools", toolPatchJSON(a.Snapshot.Tools))
			active = append(active, item)
		}
		details.Set("activeCount", float64(len(active)))
		details.Set("active", active)
		return AgentReply{Text: statusText, Details: details}, ""
	case "enable":
		res, ref := r.EnableBound(id, ActorAgent)
		if ref != nil {
			return AgentReply{}, ref.Message
		}
		details.Set("activationId", res.ActivationID)
		details.Set("idempotent", res.Idempotent)
		return AgentReply{Text: res.Message, Details: details}, ""
	default:
		res, ref := r.AgentDisable(id)
		if ref != nil {
			return AgentReply{}, ref.Message
		}
		details.Set("activationId", res.ActivationID)
		return AgentReply{Text: res.Message, Details: details}, ""
	}
}

// EligibleAgentBindings filters bindings to those the agent may enable:
// modelCallable, not removing forge_capability, and passing the tool policy.
func (r *Runtime) EligibleAgentBindings(bindings []ResolvedBinding) []ResolvedBinding {
	var out []ResolvedBinding
	for _, b := range bindings {
		if !b.ModelCallable || slices.Contains(b.Capability.Tools.Remove, ControlTool) {
			continue
		}
		if r.tools.ValidatePatches([]ToolPatch{b.Capability.Tools}, nil, false) != "" {
			continue
		}
		out = append(out, b)
	}
	return out
}

func joinOrNone(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// CallableBinding is one binding the agent may enable through
// forge_capability: its binding id, the capability it points at
// ("scope:id") and the capability's name ("" when it has none).
type CallableBinding struct {
	BindingID  string
	Capability string
	Name       string
}

// ModelCallable lists what forge_capability's list action would offer the
// agent now: nothing without trust, a usable control tool or an active
// Preset, or when the bindings cannot be read; otherwise the eligible
// bindings (EligibleAgentBindings) in the Preset's order.
func (r *Runtime) ModelCallable() []CallableBinding {
	out := []CallableBinding{}
	if !r.ws.Trusted || !r.controlToolUsable() || r.preset == nil {
		return out
	}
	bindings, msg := r.ReadBindings()
	if msg != "" {
		return out
	}
	for _, b := range r.EligibleAgentBindings(bindings) {
		c := CallableBinding{BindingID: b.ID, Capability: b.Ref.String()}
		if b.Capability.Name != nil {
			c.Name = *b.Capability.Name
		}
		out = append(out, c)
	}
	return out
}
