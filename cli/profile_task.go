package cli

import (
	"fmt"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// runTask is `profile preview NAME --task TEXT`: the preparation pi-forge's
// subagent host port makes for a child running the profile (its resolve
// and prepare), with forgebench's tool catalogue (Pi's built-ins and
// forge_capability) standing in for the backend's and every access fact
// allowed. A profile that does not resolve prepares nothing (exit 1).
func (c *ProfilePreviewCmd) runTask(g *Globals, p *resources.Profile, res profile.Resolved) error {
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	var stack *preset.Stack
	stackKey, stackPrint := "", ""
	if res.Preset != nil {
		stack, stackKey = res.Preset.Stack, res.Preset.Selector()
		if stackPrint, err = fingerprint.Fingerprint(preset.ToJSON(stack)); err != nil {
			return failErr(exitFailed, i18n.Errorf("fingerprint the preset %s: %v", stackKey, err))
		}
	}
	profilePrint, err := fingerprint.Fingerprint(profile.ToJSON(p.Profile))
	if err != nil {
		return failErr(exitFailed, i18n.Errorf("fingerprint the profile %s: %v", p.Key(), err))
	}
	// The host's resolution checks the profile, its Preset reference and
	// the Preset's diagnostics, not the model's availability (the child's
	// backend owns that): model and thinking-level findings of the
	// preflight do not block a preparation.
	own := len(p.Entry.Diagnostics)
	hostDiags := append(profile.Diagnostics{}, res.Diagnostics[:own]...)
	for _, d := range res.Diagnostics[own:] {
		if d.Field != "model" && d.Field != "thinkingLevel" {
			hostDiags = append(hostDiags, d)
		}
	}
	res.Diagnostics = hostDiags
	usable := !hostDiags.HasErrors() && (p.Profile.PromptStack == nil || res.Preset != nil)
	var prep compile.Delegation
	if usable {
		prep = compile.PrepareDelegation(compile.DelegationInput{Stack: stack, Task: c.Task, Cwd: ws.Cwd,
			Model: compile.Model{Provider: p.Profile.Model.Provider, ID: p.Profile.Model.ID}, Catalog: compile.RegisteredTools(), Now: time.Now()})
	}
	if c.JSON {
		o := jsonv.NewObject()
		o.Set("profile", p.Key())
		o.Set("preset", orNull(stackKey))
		o.Set("profileFingerprint", profilePrint)
		o.Set("promptStackFingerprint", orNull(stackPrint))
		if usable {
			o.Set("preparation", compile.DelegationJSON(prep))
		} else {
			o.Set("preparation", nil)
		}
		o.Set("usable", usable)
		o.Set("diagnostics", profileDiagnosticsJSON(res.Diagnostics))
		if err := printJSON(g.stdout, o); err != nil {
			return err
		}
	} else {
		w := g.stdout
		fmt.Fprint(w, i18n.T("profile   %s · fingerprint %s\npreset    %s · fingerprint %s\n", p.Key(), profilePrint,
			sanitize.Line(orDefault(stackKey, i18n.T("(none)"))), orDefault(stackPrint, i18n.T("(none)"))))
		for _, d := range res.Diagnostics {
			fmt.Fprintf(w, "    %s: %s\n", d.Level, sanitize.Line(d.Message))
		}
		if usable {
			writeDelegation(g, prep, delegationToolsSource(stack, stackKey))
		}
	}
	if !usable {
		return failErr(exitFailed, i18n.Errorf("profile %s does not resolve, so no task can be prepared", p.Key()))
	}
	return nil
}

// delegationToolsSource says where a child's tools come from, for humans.
func delegationToolsSource(stack *preset.Stack, key string) string {
	switch {
	case stack == nil:
		return i18n.T("no Preset: Pi's built-ins and forge_capability")
	case stack.Tools != nil && stack.Tools.Initial != nil:
		return i18n.T("tools.initial of %s over Pi's built-ins and forge_capability", key)
	case preset.HasResourcePolicy(stack.Tools):
		return i18n.T("the policy of %s over Pi's built-ins and forge_capability", key)
	}
	return i18n.T("%s has no tool policy: Pi's built-ins and forge_capability", key)
}

// writeDelegation prints a preparation for reading.
func writeDelegation(g *Globals, d compile.Delegation, source string) {
	w := g.stdout
	fmt.Fprint(w, i18n.T("tools     %s (%s)\n", sanitize.Line(toolListText(d.EffectiveTools)), sanitize.Line(source)))
	fmt.Fprint(w, i18n.T("\nSYSTEM PROMPT (over an empty base prompt) · ~%d tokens\n%s\n", compile.EstimateTokens(d.SystemPrompt), indent(sanitize.Text(d.SystemPrompt), "  ")))
	fmt.Fprint(w, i18n.T("\nMESSAGES · %d\n", len(d.Messages)))
	for i, m := range d.Messages {
		what := m.Source
		if m.ProtectedTask {
			what += i18n.T(", protected")
		}
		text := ""
		for j, t := range m.Texts {
			if j > 0 {
				text += "\n"
			}
			text += t
		}
		fmt.Fprintf(w, "#%d %s · %s\n%s\n", i+1, m.Role, what, indent(sanitize.Text(text), "  "))
	}
	for _, d := range d.Diagnostics {
		fmt.Fprintf(g.stderr, "%s %s [%s]: %s\n", d.Level, d.Code, sanitize.Line(d.Path), sanitize.Line(d.Message))
	}
}

func orNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func profileDiagnosticsJSON(diags profile.Diagnostics) []any {
	out := make([]any, len(diags))
	for i, d := range diags {
		o := jsonv.NewObject()
		o.Set("level", string(d.Level))
		o.Set("message", d.Message)
		if d.Field != "" {
			o.Set("field", d.Field)
		}
		out[i] = o
	}
	return out
}
