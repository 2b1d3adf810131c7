package services

import (
	"fmt"
	"strings"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// The offline /profile use, /profile forget and /profile save of both
// front ends: the CLI's profile commands and the Presets panel's Profiles
// view plan here and append through session.Append, so what the panel
// shows before it writes is what the CLI's --dry-run prints.

// LibraryPresets adapts the library to the profile engine's Preset lookup.
type LibraryPresets struct{ Lib *resources.Library }

// PresetsWithID implements profile.PresetLookup.
func (l LibraryPresets) PresetsWithID(scope preset.Scope, id string) []*profile.PresetRef {
	var out []*profile.PresetRef
	for _, p := range l.Lib.PresetsIn(scope, id) {
		var diags preset.Diagnostics
		for _, d := range p.Diagnostics {
			diags = append(diags, preset.Diagnostic{Level: d.Level, Message: d.Message, ItemID: d.ItemID})
		}
		out = append(out, &profile.PresetRef{Scope: p.Scope, Stack: p.Stack, Diagnostics: diags})
	}
	return out
}

// ProfilePreflight is pi-forge's transactional preflight of a profile:
// the model in Pi's catalog with credentials (auth), the thinking level
// Pi would apply, the Preset and its diagnostics, allow patterns that
// match no tool.
func ProfilePreflight(lib *resources.Library, cat *catalog.Catalog, p *resources.Profile, auth resources.AuthStatus) profile.Resolved {
	// Pi's built-in tools plus forge_capability, the tool pi-forge itself
	// registers (§9.11).
	tools := []string{"forge_capability"}
	for _, t := range compile.BuiltinTools {
		tools = append(tools, t.Name)
	}
	return profile.Preflight(p.Entry, profile.Resources{
		Model: func(m profile.Model, level string) profile.ModelStatus {
			known, ok := cat.Lookup(m.Provider, m.ID)
			if !ok {
				return profile.ModelStatus{}
			}
			eff := profile.ClampThinkingLevel(known.Reasoning, known.ThinkingLevelMap, level)
			if eff == level {
				eff = ""
			}
			return profile.ModelStatus{Known: true, NoAuth: !auth.Configured, EffectiveThinkingLevel: eff}
		},
		Presets:   LibraryPresets{lib},
		ToolNames: tools,
	})
}

// ProfileUse is the plan of /profile use at a session's leaf: the
// preflight, and when it passes the entries to append and pi-forge's
// messages.
type ProfileUse struct {
	// Resolved is the preflight's result (its Diagnostics: errors and
	// warnings, in pi-forge's order).
	Resolved profile.Resolved
	// Failure is pi-forge's refusal when the preflight or the Preset step
	// failed ("" when the profile can be applied); nothing is written then.
	Failure string
	// Entries are what the append writes, Guard the file as it was read.
	Entries []session.NewEntry
	Guard   session.Guard
	// Message is pi-forge's message once applied; Warning the capability
	// sync's, when there is one.
	Message, Warning string
	// CacheWarning is the prompt-cache impact notice pi-forge 0.5.4 and
	// later shows after /profile use applied the profile
	// (capstate.CacheNotice of its Preset step): "" when the profile keeps
	// the active Preset, whatever its model and thinking level.
	CacheWarning string
}

// Warnings counts the preflight's warnings.
func (u *ProfileUse) Warnings() int {
	n := 0
	for _, d := range u.Resolved.Diagnostics {
		if d.Level == "warning" {
			n++
		}
	}
	return n
}

// PlanProfileUse plans /profile use of p (named selector) at s's leaf in
// the session's own workspace ws (its trust must have been checked):
// Pi's model and thinking-level changes, the Preset selection with the
// capability sync of a switch, and the provenance entry stamped now.
func PlanProfileUse(lib *resources.Library, cat *catalog.Catalog, capIn capstate.Inputs, ws resources.Workspace, s *session.Session, p *resources.Profile, selector string, now time.Time) (*ProfileUse, error) {
	u := &ProfileUse{Resolved: ProfilePreflight(lib, cat, p, resources.ProviderAuth(lib.Workspace.AgentDir, p.Profile.Model.Provider, nil))}
	res := &u.Resolved
	if !res.Usable() {
		var b strings.Builder
		fmt.Fprintf(&b, "pi-forge: profile %s failed preflight; runtime state was not changed.", selector)
		for _, d := range res.Diagnostics {
			fmt.Fprintf(&b, "\n    %s: %s", d.Level, sanitize.Line(d.Message))
		}
		u.Failure = b.String()
		return u, nil
	}
	known, _ := cat.Lookup(p.Profile.Model.Provider, p.Profile.Model.ID)
	cur := replay.RuntimeStateAt(s, s.LeafIndex())
	in := profile.RuntimeInput{CurrentThinking: cur.ThinkingLevel, Target: p.Profile.Model,
		TargetInfo:     profile.ModelInfo{Reasoning: known.Reasoning, ThinkingLevelMap: known.ThinkingLevelMap},
		TargetThinking: res.EffectiveThinkingLevel,
		SwitchThinking: resources.PiThinkingSettings(ws).ForModel(p.Profile.Model.Provider, p.Profile.Model.ID)}
	if cur.Provider != "" {
		in.Current = &profile.Model{Provider: cur.Provider, ID: cur.Model}
	}
	for _, ch := range profile.PlanRuntimeChanges(in) {
		typ, fields := ch.Entry()
		u.Entries = append(u.Entries, session.NewEntry{Type: typ, Fields: fields})
	}
	// The Preset step is /preset use of the resolved Preset (or none):
	// its selection entry and the sync that retires bound activations.
	clock := func() time.Time { return now }
	target := "none"
	if res.Preset != nil {
		target = res.Preset.Selector()
	}
	plan, err := capstate.PlanAt(s, capIn, capstate.Operation{Kind: capstate.OpUsePreset, Arg: target}, capstate.DefaultOptions(clock))
	if err != nil {
		u.Failure = fmt.Sprintf("pi-forge: failed to apply profile %s: %v. Previous runtime state was restored.", selector, err)
		return u, nil
	}
	if plan.Refusal != nil {
		u.Failure = fmt.Sprintf("pi-forge: failed to apply profile %s: %s Previous runtime state was restored.", selector, sanitize.Line(plan.Refusal.Notice()))
		return u, nil
	}
	u.Guard = plan.Guard
	u.Entries = append(u.Entries, plan.Entries()...)
	prov := profile.NewProvenance(res, session.FormatTimestamp(now))
	u.Entries = append(u.Entries, session.CustomEntry(profile.StateEntryType, profile.StateEntryData(&prov)))
	u.Message = "pi-forge: applied profile " + selector + " once"
	if w := u.Warnings(); w > 0 {
		u.Message += fmt.Sprintf(" with %d warning(s)", w)
	}
	u.Message += "; later manual changes will be preserved."
	u.Warning = plan.Result.Warning
	// pi-forge estimates the switch from the active Preset to the
	// profile's before it applies anything, against the runtime of the
	// last compiled request: the model the profile sets plays no part.
	u.CacheWarning = capstate.CacheNotice(s, plan, capIn)
	return u, nil
}

// ForgetNothing and ForgetDone are pi-forge's messages of /profile forget.
const (
	ForgetNothing = "pi-forge: there is no last-applied profile provenance to forget."
	ForgetDone    = "pi-forge: forgot last-applied profile provenance; model, thinking level, and preset were not changed."
)

// PlanProfileForget is /profile forget at s's leaf: the {provenance:
// null} entry when the branch has a last-applied profile (none: nothing
// to append, ForgetNothing says so).
func PlanProfileForget(s *session.Session) []session.NewEntry {
	st := replay.ProfileStateAt(s, s.LeafIndex())
	if _, ok := profile.ParseProvenance(st.Provenance); !st.Found || !ok {
		return nil
	}
	return []session.NewEntry{session.CustomEntry(profile.StateEntryType, profile.StateEntryData(nil))}
}

// CaptureProfile is /profile save's capture at entry index of s: the
// model and thinking level Pi holds there and the active Preset
// pi-forge's runtime holds (the recorded selection, else the one
// auto-activation chose), as profile id in scope over prior (the
// existing profile replaced, nil when new). A nil profile or errors in
// the diagnostics: it cannot be saved (failure says why).
func CaptureProfile(s *session.Session, index int, capIn capstate.Inputs, id string, scope preset.Scope, prior *profile.Profile) (*profile.Profile, profile.Diagnostics, string, error) {
	rt := replay.RuntimeStateAt(s, index)
	if rt.Provider == "" {
		return nil, nil, "pi-forge: cannot save a profile because no model is currently selected.", nil
	}
	st, err := capstate.At(s, index, capIn, capstate.DefaultOptions(nil))
	if err != nil {
		return nil, nil, "", err
	}
	capture := profile.CaptureInput{Model: &profile.Model{Provider: rt.Provider, ID: rt.Model}, ThinkingLevel: rt.ThinkingLevel}
	if st.Preset != nil {
		capture.PresetScope, capture.PresetID = st.Preset.Key.Scope, st.Preset.Key.ID
	}
	p, diags := profile.Capture(id, scope, capture, prior)
	if p != nil {
		diags = append(diags, profile.ValidateScope(p, scope)...)
	}
	if p == nil || diags.HasErrors() {
		var b strings.Builder
		fmt.Fprintf(&b, "pi-forge: current runtime could not be saved as profile %s.", id)
		for _, d := range diags {
			fmt.Fprintf(&b, "\n    %s: %s", d.Level, sanitize.Line(d.Message))
		}
		return p, diags, b.String(), nil
	}
	return p, diags, "", nil
}
