package cli

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/catalog"
)

// ProfileCmd groups the agent-profile commands.
type ProfileCmd struct {
	List     ProfileListCmd     `cmd:"" help:"List agent profiles."`
	Show     ProfileShowCmd     `cmd:"" help:"Show one agent profile."`
	Validate ProfileValidateCmd `cmd:"" help:"Validate agent profiles; exit 1 on errors."`
	Preview  ProfilePreviewCmd  `cmd:"" help:"Resolve a profile's preset, model and effective tools (reports whether auth is configured, never secrets); --task previews the delegated task a subagent host would prepare."`
	Status   ProfileStatusCmd   `cmd:"" help:"The last applied profile of a session (its provenance entries), whether its source changed since, and the drift of each field."`
	Use      ProfileUseCmd      `cmd:"" help:"Apply a profile to a Pi session offline, as /profile use does: pi-forge's preflight, then the model, thinking, Preset and provenance entries (guarded append); a preflight error writes nothing (exit 1)."`
	Forget   ProfileForgetCmd   `cmd:"" help:"Append {provenance: null} to a Pi session, as /profile forget does; model, thinking level and Preset are unchanged."`
	Save     ProfileSaveCmd     `cmd:"" help:"Save the model, thinking level and active Preset of a session entry as a profile, as /profile save does."`
	Delete   ProfileDeleteCmd   `cmd:"" help:"Delete an agent profile; requires --revision."`
}

// ProfileListCmd lists agent profiles.
type ProfileListCmd struct {
	JSON bool `name:"json" help:"Print an array of {scope, id, key, name, path, sourceRevision, errors, warnings, usable, model, thinkingLevel, promptStack, autoActivate}."`
}

// Run lists profile files with their model and preset.
func (c *ProfileListCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	auto := lib.AutoActivateProfile()
	if c.JSON {
		list := make([]any, 0, len(lib.Profiles))
		for _, p := range lib.Profiles {
			o := resourceJSON(&p.Resource)
			pr := p.Profile
			o.Set("name", displayName(pr.Name, pr.ID))
			o.Set("model", pr.Model.String())
			o.Set("thinkingLevel", pr.ThinkingLevel)
			if pr.PromptStack != nil {
				o.Set("promptStack", *pr.PromptStack)
			} else {
				o.Set("promptStack", nil)
			}
			o.Set("autoActivate", auto == p)
			list = append(list, o)
		}
		return printJSON(g.stdout, list)
	}
	for _, p := range lib.Profiles {
		pr := p.Profile
		stack := i18n.T("(no preset)")
		if pr.PromptStack != nil {
			stack = *pr.PromptStack
		}
		mark := ""
		if auto == p {
			mark = i18n.T(" (auto-activates)")
		}
		fmt.Fprintf(g.stdout, "%-9s %-20s %-32s %-8s %-22s %s%s\n", scopeBadge(&p.Resource), sanitize.Line(p.ID), sanitize.Clip(pr.Model.String(), 32),
			pr.ThinkingLevel, sanitize.Clip(stack, 22), countsText(&p.Resource), mark)
	}
	return nil
}

func displayName(name *string, id string) string {
	if name != nil && *name != "" {
		return *name
	}
	return id
}

// ProfileShowCmd shows one agent profile.
type ProfileShowCmd struct {
	Selector string `arg:"" help:"Profile selector: id, project:id or global:id." predictor:"profile"`
	JSON     bool   `name:"json" help:"Print {scope, id, key, path, sourceRevision, errors, warnings, usable, profile, diagnostics}."`
}

// Run prints the normalized profile, its revision and diagnostics.
func (c *ProfileShowCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, err := resolved(lib.ResolveProfile(c.Selector))
	if err != nil {
		return err
	}
	if c.JSON {
		o := resourceJSON(&p.Resource)
		o.Set("profile", profile.ToJSON(p.Profile))
		o.Set("diagnostics", diagnosticsJSON(p.Diagnostics))
		return printJSON(g.stdout, o)
	}
	pr := p.Profile
	stack := i18n.T("(none)")
	if pr.PromptStack != nil {
		stack = *pr.PromptStack
	}
	fmt.Fprint(g.stdout, i18n.T("%s  %s\npath      %s\nrevision  %s\nstatus    %s\nmodel     %s · thinking %s\npreset    %s\n",
		p.Key(), sanitize.Line(displayName(pr.Name, pr.ID)), p.Path, p.SourceRevision, countsText(&p.Resource), sanitize.Line(pr.Model.String()), sanitize.Line(pr.ThinkingLevel), sanitize.Line(stack)))
	if len(p.Diagnostics) > 0 {
		fmt.Fprintln(g.stdout, i18n.T("diagnostics"))
		writeDiagnostics(g.stdout, p.Diagnostics)
	}
	return nil
}

// ProfileValidateCmd validates agent profiles.
type ProfileValidateCmd struct {
	Selectors []string `arg:"" optional:"" help:"Profiles to validate (default: every profile file)." predictor:"profile"`
	JSON      bool     `name:"json" help:"Print an array of {scope, id, key, path, errors, warnings, usable, diagnostics}."`
}

// Run prints diagnostics and exits 1 when any error diagnostic exists.
func (c *ProfileValidateCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	var targets []*resources.Resource
	if len(c.Selectors) == 0 {
		for _, p := range lib.Profiles {
			targets = append(targets, &p.Resource)
		}
	}
	for _, sel := range c.Selectors {
		p, err := resolved(lib.ResolveProfile(sel))
		if err != nil {
			return err
		}
		targets = append(targets, &p.Resource)
	}
	return validateResources(g, targets, c.JSON, "profile", nil)
}

// ProfilePreviewCmd resolves a profile without applying it.
type ProfilePreviewCmd struct {
	Selector string `arg:"" help:"Profile selector." predictor:"profile"`
	Task     string `help:"Preview the delegated task as pi-forge's subagent host port prepares a child: the Preset compiled over an empty base prompt, the task appended as a protected user message, the effective tools and the profile and Preset snapshot fingerprints." placeholder:"TEXT"`
	JSON     bool   `name:"json" help:"Print {profile, model, modelKnown, auth:{configured, source}, thinkingLevel, effectiveThinkingLevel, preset, effectiveTools, toolsSource, usable, diagnostics}; with --task {profile, preset, profileFingerprint, promptStackFingerprint, preparation:{systemPrompt, messages, effectiveToolNames, diagnostics}, usable, diagnostics}."`
}

// Run runs pi-forge's preflight: the model in the Pi catalog (models.json
// applied) and whether it has credentials (never printing them), the
// thinking level Pi would apply, the preset and its diagnostics.
func (c *ProfilePreviewCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, err := resolved(lib.ResolveProfile(c.Selector))
	if err != nil {
		return err
	}
	cat, err := g.modelCatalog()
	if err != nil {
		return err
	}
	ref := p.Profile.Model
	auth := resources.ProviderAuth(lib.Workspace.AgentDir, ref.Provider, nil)
	res := profilePreflight(lib, cat, p, auth)
	eff := res.EffectiveThinkingLevel
	presetKey := ""
	var policy *preset.ResourcePolicy
	if res.Preset != nil {
		presetKey = res.Preset.Selector()
		policy = res.Preset.Stack.Tools
	}
	if c.Task != "" {
		return c.runTask(g, p, res)
	}
	// The tools a session starts with once the profile is applied: the
	// Preset's policy over a fresh session's tools (pi-forge computes them
	// from the session's baseline; forgebench has no live session).
	sel := compile.FreshSessionTools(policy)
	if c.JSON {
		o := jsonv.NewObject()
		o.Set("profile", p.Key())
		o.Set("model", ref.String())
		o.Set("modelKnown", res.ModelKnown)
		a := jsonv.NewObject()
		a.Set("configured", auth.Configured)
		a.Set("source", auth.Source)
		o.Set("auth", a)
		o.Set("thinkingLevel", p.Profile.ThinkingLevel)
		o.Set("effectiveThinkingLevel", eff)
		o.Set("preset", presetKey)
		o.Set("effectiveTools", stringsJSON(sel.Tools))
		o.Set("toolsSource", sel.Source)
		o.Set("usable", res.Usable())
		diags := make([]any, len(res.Diagnostics))
		for i, d := range res.Diagnostics {
			do := jsonv.NewObject()
			do.Set("level", string(d.Level))
			do.Set("message", d.Message)
			diags[i] = do
		}
		o.Set("diagnostics", diags)
		if err := printJSON(g.stdout, o); err != nil {
			return err
		}
	} else {
		writeProfilePreview(g, p, cat, res, auth, presetKey)
		from := sel.Source
		if presetKey != "" && sel.Source != compile.ToolsFromDefaults {
			from = i18n.T("%s of %s", from, presetKey)
		}
		fmt.Fprint(g.stdout, i18n.T("tools     %s (%s, in a fresh session)\n", sanitize.Line(toolListText(sel.Tools)), sanitize.Line(from)))
	}
	if !res.Usable() {
		return failErr(exitFailed, i18n.Errorf("profile %s cannot be applied", p.Key()))
	}
	return nil
}

// profilePreflight is pi-forge's transactional preflight of a profile
// (§11.3) over the library, the Pi model catalog and the provider's
// authentication status.
func profilePreflight(lib *resources.Library, cat *catalog.Catalog, p *resources.Profile, auth resources.AuthStatus) profile.Resolved {
	return services.ProfilePreflight(lib, cat, p, auth)
}

func writeProfilePreview(g *Globals, p *resources.Profile, cat *catalog.Catalog, res profile.Resolved, auth resources.AuthStatus, presetKey string) {
	w := g.stdout
	ref := p.Profile.Model
	model := i18n.T("unknown to the Pi model catalog")
	if m, ok := cat.Lookup(ref.Provider, ref.ID); ok {
		model = i18n.T("%s (%s, context %s tokens, from %s)", m.Name, m.API, count(m.ContextWindow), m.Source)
	}
	authText := i18n.T("not configured")
	if auth.Configured {
		authText = i18n.T("configured (%s)", auth.Source)
	}
	fmt.Fprint(w, i18n.T("profile   %s\nmodel     %s — %s\nauth      %s\nthinking  %s → %s\npreset    %s\n",
		p.Key(), sanitize.Line(ref.String()), sanitize.Line(model), authText, sanitize.Line(p.Profile.ThinkingLevel), sanitize.Line(orDefault(res.EffectiveThinkingLevel, "?")), sanitize.Line(orDefault(presetKey, i18n.T("(none)")))))
	if res.Usable() {
		fmt.Fprintln(w, i18n.T("status    ready to apply"))
	} else {
		fmt.Fprintln(w, i18n.T("status    pi-forge would refuse to apply it"))
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(w, "    %s: %s\n", d.Level, sanitize.Line(d.Message))
	}
}

// ProfileDeleteCmd deletes an agent profile.
type ProfileDeleteCmd struct {
	Selector string `arg:"" help:"Profile to delete." predictor:"profile"`
	Revision string `required:"" help:"The sourceRevision you last saw (profile show --json); a different file on disk is a conflict (exit 3)." placeholder:"HEX"`
	JSON     bool   `name:"json" help:"Print {scope, id, key, path, deleted}."`
}

// Run deletes the file when it still has the expected revision.
func (c *ProfileDeleteCmd) Run(g *Globals) error {
	if err := checkRevisionArg(c.Revision); err != nil {
		return err
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, err := lib.ResolveProfile(c.Selector)
	if err != nil && (p == nil || !errors.Is(err, resources.ErrUnusable)) {
		return deleteResolveError(lib, resources.KindProfile, c.Selector, err)
	}
	path, err := resources.DeleteLoaded(lib.Workspace, resources.KindProfile, &p.Resource, c.Revision)
	if err != nil {
		return libraryError(err)
	}
	return deleteResult(g, c.JSON, &p.Resource, path)
}
