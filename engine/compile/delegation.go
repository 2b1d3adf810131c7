package compile

import (
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// DelegationInput is what pi-forge's subagent host port prepares a child
// from (prepareForgeDelegation): the profile's Preset (nil = none), the
// delegated task, the child's cwd and model, the backend's tool catalogue
// and the clock.
type DelegationInput struct {
	Stack   *preset.Stack
	Task    string
	Cwd     string
	Model   Model
	Catalog []string
	Now     time.Time
}

// DelegationMessage is one prepared message: its role, its text parts, and
// where it came from ("prompt-stack" or "delegated-task").
type DelegationMessage struct {
	Role          string
	Texts         []string
	ProtectedTask bool
	Source        string
}

// DelegationDiagnostic is a host diagnostic {level, code, path, message}.
type DelegationDiagnostic struct {
	Level, Code, Path, Message string
}

// Delegation is what the host hands the child: a system prompt compiled
// over an empty base prompt, the Preset's messages then the protected task,
// and the tools the Preset's policy leaves of the backend catalogue.
type Delegation struct {
	SystemPrompt   string
	Messages       []DelegationMessage
	EffectiveTools []string
	Diagnostics    []DelegationDiagnostic
}

// PrepareDelegation reproduces prepareForgeDelegation (pi-forge 0.5.1
// src/subagent-host.ts) with every access fact allowed and the tool
// negotiation of the newest source (NegotiateDelegationTools), the runtime
// has no snippets, guidelines, context files or skills, the model's API is
// "unknown", the latest user message is the task, and the Preset compiles
// against an empty base prompt and an empty history.
func PrepareDelegation(in DelegationInput) Delegation {
	var policy *preset.ResourcePolicy
	if in.Stack != nil {
		policy = in.Stack.Tools
	}
	tools, diags := NegotiateDelegationTools(in.Catalog, policy)
	out := Delegation{EffectiveTools: tools, Diagnostics: diags}
	if in.Stack != nil {
		task := in.Task
		rt := Runtime{
			Options: Options{Cwd: in.Cwd, SelectedTools: out.EffectiveTools, ToolSnippets: map[string]string{},
				PromptGuidelines: []string{}, ContextFiles: []ContextFile{}, Skills: []Skill{}},
			Model:             &Model{Provider: in.Model.Provider, ID: in.Model.ID, API: "unknown"},
			LatestUserMessage: &task,
			Now:               in.Now,
		}
		res := Compile(in.Stack, rt, "", []any{}, nil)
		out.SystemPrompt = res.System.SystemPrompt
		out.Diagnostics = append(out.Diagnostics, delegationDiagnostics("system", res.System.Diagnostics)...)
		for _, m := range res.Messages.Messages {
			role := messageRole(m)
			if role != "user" && role != "assistant" && role != "custom" {
				out.Diagnostics = append(out.Diagnostics, DelegationDiagnostic{Level: "error", Code: "preparation.messages", Path: "promptStack",
					Message: "Unsupported prompt-stack message role for subagent preparation: " + role})
				continue
			}
			out.Messages = append(out.Messages, DelegationMessage{Role: role, Texts: textParts(m), Source: "prompt-stack"})
		}
		out.Diagnostics = append(out.Diagnostics, delegationDiagnostics("messages", res.Messages.Diagnostics)...)
	}
	out.Messages = append(out.Messages, DelegationMessage{Role: "user", Texts: []string{in.Task}, ProtectedTask: true, Source: "delegated-task"})
	return out
}

// NegotiateDelegationTools is the host's tool negotiation with every access
// fact allowed: the Preset policy over the backend catalogue, in the
// catalogue's order. tools.initial (pi-forge ≥ 0.5.5; 0.5.1 predates it)
// first narrows the catalogue to the tools it names, so a child starts with
// the Preset's defaults rather than every tool the allow list permits; an
// initial tool the catalogue lacks warns (tools.initial-missing) and one
// the policy blocks is an error (tools.initial-blocked). Allow patterns
// that match no catalogue tool warn (tools.unmatched-allow). The codes and
// the 0.5.5 core's behaviour come from its tests ("subagent preparation
// applies initial without enabling every backend tool"); the initial
// messages are those of the optional subagent package's negotiation, which
// the core mirrors (its own text is not published).
func NegotiateDelegationTools(catalog []string, policy *preset.ResourcePolicy) ([]string, []DelegationDiagnostic) {
	var diags []DelegationDiagnostic
	source := catalog
	if policy != nil && policy.Initial != nil {
		for _, name := range policy.Initial {
			if !containsString(catalog, name) {
				diags = append(diags, DelegationDiagnostic{Level: "warning", Code: "tools.initial-missing", Path: "tools.initial." + name,
					Message: "Preset initial tool " + name + " is not registered by this backend."})
			}
			if len(preset.ApplyResourcePolicy([]string{name}, policy)) == 0 {
				diags = append(diags, DelegationDiagnostic{Level: "error", Code: "tools.initial-blocked", Path: "tools.initial." + name,
					Message: "Preset initial tool " + name + " is blocked by the allow/deny policy."})
			}
		}
		source = nil
		for _, name := range catalog {
			if containsString(policy.Initial, name) {
				source = append(source, name)
			}
		}
	}
	tools := append([]string{}, preset.ApplyResourcePolicy(source, policy)...)
	if policy != nil {
		for _, p := range UnmatchedAllowPatterns(policy, catalog) {
			diags = append(diags, DelegationDiagnostic{Level: "warning", Code: "tools.unmatched-allow",
				Path: "tools.allow", Message: "Tool allow pattern matches no backend tools: " + p})
		}
	}
	return tools, diags
}

// textParts are a message's text parts (a string content is one part); a
// message with none gets one empty part.
func textParts(message any) []string {
	content, _ := field(message, "content")
	var out []string
	switch c := content.(type) {
	case string:
		out = []string{c}
	case []any:
		for _, part := range c {
			if partType(part) == "text" {
				if t, ok := stringField(part, "text"); ok {
					out = append(out, t)
				}
			}
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

func delegationDiagnostics(stage string, diags []Diagnostic) []DelegationDiagnostic {
	out := make([]DelegationDiagnostic, 0, len(diags))
	for _, d := range diags {
		path := "promptStack"
		if d.ItemID != "" {
			path = "promptStack.items." + d.ItemID
		}
		out = append(out, DelegationDiagnostic{Level: string(d.Level), Code: "preparation." + stage, Path: path, Message: d.Message})
	}
	return out
}

// DelegationJSON is the preparation as {systemPrompt, messages:[{role,
// content:[{type, text}], protectedTask?, source}], effectiveToolNames,
// diagnostics}.
func DelegationJSON(d Delegation) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("systemPrompt", d.SystemPrompt)
	msgs := make([]any, len(d.Messages))
	for i, m := range d.Messages {
		mo := jsonv.NewObject()
		mo.Set("role", m.Role)
		parts := make([]any, len(m.Texts))
		for j, t := range m.Texts {
			po := jsonv.NewObject()
			po.Set("type", "text")
			po.Set("text", t)
			parts[j] = po
		}
		mo.Set("content", parts)
		if m.ProtectedTask {
			mo.Set("protectedTask", true)
		}
		mo.Set("source", m.Source)
		msgs[i] = mo
	}
	o.Set("messages", msgs)
	tools := make([]any, len(d.EffectiveTools))
	for i, t := range d.EffectiveTools {
		tools[i] = t
	}
	o.Set("effectiveToolNames", tools)
	diags := make([]any, len(d.Diagnostics))
	for i, dg := range d.Diagnostics {
		do := jsonv.NewObject()
		do.Set("level", dg.Level)
		do.Set("code", dg.Code)
		do.Set("path", dg.Path)
		do.Set("message", dg.Message)
		diags[i] = do
	}
	o.Set("diagnostics", diags)
	return o
}
