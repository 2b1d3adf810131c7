package cli

import (
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/replay"
)

// PresetCmd groups the preset commands.
type PresetCmd struct {
	List          PresetListCmd     `cmd:"" help:"List presets of the project and global scopes."`
	Show          PresetShowCmd     `cmd:"" help:"Show one preset (with its sourceRevision)."`
	Validate      PresetValidateCmd `cmd:"" help:"Validate the active Preset (or the named ones, or --all); exit 1 when any error diagnostic exists."`
	Preview       PresetPreviewCmd  `cmd:"" help:"Preview a compiled preset, each part labelled with its item and a token estimate; at a --session entry the capability updates sit where the request carries them."`
	Compile       PresetCompileCmd  `cmd:"" help:"Compile a preset into a system prompt and messages."`
	New           PresetNewCmd      `cmd:"" help:"Create a preset (exclusive create), from the default Pi mirror or --from another."`
	Fork          PresetForkCmd     `cmd:"" help:"Copy a preset to a new id."`
	Delete        PresetDeleteCmd   `cmd:"" help:"Delete a preset; requires --revision."`
	MigrateStacks PresetMigrateCmd  `cmd:"" name:"migrate-stacks" help:"Copy legacy .pi/prompt-stacks presets into .pi/forge/prompt-stacks."`
	Use           PresetUseCmd      `cmd:"" help:"Switch the active preset of a Pi session offline (guarded append), as /preset use does."`
}

// PresetListCmd lists presets of both scopes.
type PresetListCmd struct {
	JSON    bool   `name:"json" help:"Print an array of {scope, id, key, name, path, legacy, sourceRevision, errors, warnings, usable, autoActivate, autoActivateVia, shadowedBy} (plus active with --session); autoActivate marks what a fresh session activates (an auto-activating profile's Preset first)."`
	Session string `help:"Also mark (▶) the Preset this Pi session has active at --leaf, as pi-forge restores it from the branch: a file, a session id or a unique prefix of one." placeholder:"SESSION" predictor:"session"`
	Leaf    string `help:"Entry of --session (default: the last entry)." placeholder:"ID" predictor:"entry"`
}

// Run lists every preset file with its scope badge and diagnostics counts.
func (c *PresetListCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	sel, err := c.sessionSelection(g, lib)
	if err != nil {
		return err
	}
	auto, via := lib.FreshSessionPreset()
	viaKey := ""
	if via != nil {
		viaKey = via.Key()
	}
	if c.JSON {
		list := make([]any, 0, len(lib.Presets))
		for _, p := range lib.Presets {
			o := resourceJSON(&p.Resource)
			o.Set("name", p.Name())
			o.Set("legacy", p.Legacy)
			o.Set("autoActivate", auto == p)
			if auto == p {
				o.Set("autoActivateVia", viaKey)
			} else {
				o.Set("autoActivateVia", "")
			}
			var shadows []any
			for _, s := range lib.ShadowedBy(p) {
				shadows = append(shadows, s.Key())
			}
			o.Set("shadowedBy", orEmpty(shadows))
			if sel != nil {
				o.Set("active", sel.preset == p)
			}
			list = append(list, o)
		}
		return printJSON(g.stdout, list)
	}
	if len(lib.Presets) == 0 {
		fmt.Fprintln(g.stderr, i18n.T("no presets found"))
	}
	for _, p := range lib.Presets {
		marks := ""
		switch {
		case auto == p && via != nil:
			marks += i18n.T(" (auto-activates via profile %s)", viaKey)
		case auto == p:
			marks += i18n.T(" (auto-activates)")
		}
		if by := lib.ShadowedBy(p); len(by) > 0 {
			marks += i18n.T(" (shadowed by %s)", by[0].Key())
		}
		active := ""
		if sel != nil {
			active = "  "
			if sel.preset == p {
				active = "▶ "
			}
		}
		fmt.Fprintf(g.stdout, "%s%-9s %-28s %-32s %s%s\n", active, scopeBadge(&p.Resource), sanitize.Line(p.ID), sanitize.Clip(p.Name(), 32), countsText(&p.Resource), marks)
	}
	if sel != nil {
		fmt.Fprintln(g.stdout, i18n.T("session %s at %s: %s", sanitize.Clip(sel.sessionID, 60), sanitize.Clip(sel.entryID, 20), sel.describe()))
	}
	return nil
}

// presetSelection is the Preset a session has active at an entry.
type presetSelection struct {
	sessionID, entryID string
	active             replay.ActivePreset
	preset             *resources.Preset // nil: none, unrecorded or not resolvable
}

// sessionSelection decodes --session/--leaf (nil without --session).
func (c *PresetListCmd) sessionSelection(g *Globals, lib *resources.Library) (*presetSelection, error) {
	if c.Session == "" {
		if c.Leaf != "" {
			return nil, failErr(exitUsage, i18n.Errorf("--leaf needs --session"))
		}
		return nil, nil
	}
	path, err := g.namedSession(c.Session, "--session", optionalSession)
	if err != nil {
		return nil, err
	}
	s, index, err := openAt(path, c.Leaf)
	if err != nil {
		return nil, err
	}
	sel := &presetSelection{sessionID: s.Header.ID, entryID: s.Entries[index].ID, active: replay.ActivePresetAt(s, index)}
	if sel.active.Choice == replay.PresetSelected {
		if p, err := lib.ResolvePreset(sel.active.Selector); p != nil && (err == nil || errors.Is(err, resources.ErrUnusable)) {
			sel.preset = p
		}
	}
	return sel, nil
}

// describe says in words what the session selected.
func (s *presetSelection) describe() string {
	switch {
	case s.preset != nil:
		return i18n.T("active Preset %s", s.preset.Key())
	case s.active.Choice == replay.PresetDisabled:
		return i18n.T("Presets switched off (none)")
	case s.active.Choice == replay.PresetSelected:
		return i18n.T("%s is recorded but does not resolve here (pi-forge falls back to auto-activation)", sanitize.Clip(s.active.Selector, 60))
	}
	return i18n.T("no Preset recorded on the branch (auto-activation applies)")
}

// PresetShowCmd shows one preset.
type PresetShowCmd struct {
	Selector string `arg:"" help:"Preset selector: id, project:id or global:id." predictor:"preset"`
	JSON     bool   `name:"json" help:"Print {scope, id, key, path, legacy, sourceRevision, errors, warnings, usable, stack, diagnostics}."`
}

// Run prints the normalized preset, its revision and diagnostics.
func (c *PresetShowCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, err := resolved(lib.ResolvePreset(c.Selector))
	if err != nil {
		return err
	}
	if c.JSON {
		o := resourceJSON(&p.Resource)
		o.Set("legacy", p.Legacy)
		o.Set("stack", preset.ToJSON(p.Stack))
		o.Set("diagnostics", diagnosticsJSON(p.Diagnostics))
		return printJSON(g.stdout, o)
	}
	w := g.stdout
	fmt.Fprintf(w, "%s  %s\n", p.Key(), sanitize.Line(p.Name()))
	fmt.Fprint(w, i18n.T("path      %s\nrevision  %s\nstatus    %s\n", p.Path, p.SourceRevision, countsText(&p.Resource)))
	st := p.Stack
	fmt.Fprint(w, i18n.T("mode      %s · schema v%d · %d item(s)\n", st.EffectiveMode(), st.SchemaVersion, len(st.Items)))
	for i := range st.Items {
		it := &st.Items[i]
		state := "on "
		if !it.IsEnabled() {
			state = "off"
		}
		what := "block"
		if it.Kind == preset.KindSlot {
			what = "slot " + it.Slot
		}
		fmt.Fprintf(w, "  %2d %s %-10s %-22s %s\n", i+1, state, orDefault(string(it.Role), "-"), sanitize.Clip(it.ID, 22), what)
	}
	if len(p.Diagnostics) > 0 {
		fmt.Fprintln(w, i18n.T("diagnostics"))
		writeDiagnostics(w, p.Diagnostics)
	}
	return nil
}

// PresetValidateCmd validates presets.
type PresetValidateCmd struct {
	Selectors []string `arg:"" optional:"" help:"Presets to validate (default: the active Preset, the one in force at --session's --leaf, as pi-forge 0.5.6's /preset validate checks only the active one)." predictor:"preset"`
	All       bool     `help:"Validate every preset file; exit 1 when any has an error."`
	Session   string   `help:"Session whose active Preset is validated when no Preset is named: a file, a session id or a unique prefix of one (default: the project's newest session, named on stderr; with none, the Preset a fresh session activates)." placeholder:"SESSION" predictor:"session"`
	Leaf      string   `help:"Entry of --session (default: the last entry)." placeholder:"ID" predictor:"entry"`
	JSON      bool     `name:"json" help:"Print an array of {scope, id, key, path, errors, warnings, usable, diagnostics}; diagnostics include a warning (field tools.allow) for each allow pattern matching no registered tool (Pi's built-ins and forge_capability)."`
}

// Run prints diagnostics and exits 1 when any error diagnostic exists.
func (c *PresetValidateCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	var targets []*resources.Preset
	switch {
	case c.All && len(c.Selectors) > 0:
		return failErr(exitUsage, i18n.Errorf("--all validates every Preset; name Presets or pass --all, not both"))
	case c.All:
		targets = lib.Presets
	case len(c.Selectors) > 0:
		for _, sel := range c.Selectors {
			p, err := resolved(lib.ResolvePreset(sel))
			if err != nil {
				return err
			}
			targets = append(targets, p)
		}
	default:
		p, err := c.activePreset(g, lib)
		if err != nil {
			return err
		}
		targets = []*resources.Preset{p}
	}
	failed := 0
	var list []any
	for _, p := range targets {
		errs, _ := p.Counts()
		if errs > 0 || p.Fault {
			failed++
		}
		// Allow patterns that match no registered tool: pi-forge surfaces
		// them in validation and preflight (§5.2) as warnings.
		unmatched := unmatchedAllow(p)
		if c.JSON {
			o := resourceJSON(&p.Resource)
			o.Set("diagnostics", diagnosticsJSON(append(append([]resources.Diagnostic{}, p.Diagnostics...), unmatched...)))
			_, warns := p.Counts()
			o.Set("warnings", float64(warns+len(unmatched)))
			list = append(list, o)
			continue
		}
		status := countsText(&p.Resource)
		if len(unmatched) > 0 {
			status += i18n.T(", %d tool policy warning(s)", len(unmatched))
		}
		fmt.Fprintf(g.stdout, "%s %s: %s\n", scopeBadge(&p.Resource), sanitize.Line(p.Key()), status)
		writeDiagnostics(g.stdout, p.Diagnostics)
		writeDiagnostics(g.stdout, unmatched)
	}
	if c.JSON {
		if err := printJSON(g.stdout, orEmpty(list)); err != nil {
			return err
		}
	}
	if failed > 0 {
		return failErr(exitFailed, i18n.Errorf("%d preset(s) have errors", failed))
	}
	return nil
}

// activePreset is the Preset pi-forge has active at the session entry
// (the recorded selection, else auto-activation), or with no session in
// the project the one a fresh session activates; none is "No active
// preset." (exit 2), pi-forge's words.
func (c *PresetValidateCmd) activePreset(g *Globals, lib *resources.Library) (*resources.Preset, error) {
	var key *capability.Key
	where := ""
	path := ""
	if c.Session != "" {
		var err error
		if path, err = g.namedSession(c.Session, "--session", readsSession); err != nil {
			return nil, err
		}
	} else if c.Leaf != "" {
		return nil, failErr(exitUsage, i18n.Errorf("--leaf needs --session"))
	} else if it, err := g.newestSession(); err == nil {
		g.sayWhichSession(it, "--session")
		path = it.Path
	}
	if path != "" {
		s, index, err := openAt(path, c.Leaf)
		if err != nil {
			return nil, err
		}
		in, err := g.capabilityInputs()
		if err != nil {
			return nil, err
		}
		st, err := capstate.At(s, index, in, capstate.DefaultOptions(nil))
		if err != nil {
			return nil, err
		}
		if st.Preset != nil {
			key = &st.Preset.Key
		}
		where = i18n.T(" (session %s %q)", shortID(s.Header.ID), s.Title())
	} else {
		if p, _ := lib.FreshSessionPreset(); p != nil {
			return p, nil
		}
		where = i18n.T(" (the project has no session, and a fresh session activates none)")
	}
	if key == nil {
		return nil, failErr(exitUsage, i18n.Errorf("No active preset.%s Name a Preset, or pass --all to validate every one.", where))
	}
	p, err := resolved(lib.ResolvePreset(key.String()))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// PresetNewCmd creates a preset.
type PresetNewCmd struct {
	ID    string `arg:"" help:"Id of the new preset."`
	Scope string `help:"Where to create it." enum:"project,global" default:"project"`
	Name  string `help:"Display name (default: the id)."`
	From  string `help:"Start from a copy of this preset (selector), or import a native pi-forge Preset JSON file (a path; - reads stdin; its id becomes ID, every other key is kept), instead of the default Pi mirror. A copy that would not validate in --scope is refused (exit 1)." placeholder:"SELECTOR|FILE" predictor:"preset"`
	JSON  bool   `name:"json" help:"Print {scope, id, path, sourceRevision}."`
}

// Run creates the file exclusively; an existing id is a conflict (exit 3).
func (c *PresetNewCmd) Run(g *Globals) error {
	if err := checkNewID(c.ID); err != nil {
		return err
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	scope := parseScope(c.Scope)
	if err := lib.IDTaken(resources.KindPreset, scope, c.ID); err != nil {
		return libraryError(err)
	}
	var tree *jsonv.Object
	var sourceDiags []resources.Diagnostic
	switch {
	case c.From != "" && isFileArg(c.From):
		if tree, err = importTree(c.From, c.ID); err != nil {
			return err
		}
	case c.From != "":
		src, err := lib.ResolvePreset(c.From)
		if err != nil && (src == nil || !errors.Is(err, resources.ErrUnusable)) {
			return libraryError(err)
		}
		if src.Fault || src.Raw == nil {
			return fail(exitFailed, "Cannot copy unreadable prompt stack: %s", src.Path) //i18n:raw pi-forge's words (contract)
		}
		v, err := jsonv.Parse(src.Raw)
		obj, isObj := v.(*jsonv.Object)
		if err != nil || !isObj {
			obj = preset.ToJSON(src.Stack) // the fallback stack of an unparsable file
		}
		tree, sourceDiags = withID(obj, c.ID), src.Diagnostics
	default:
		tree = preset.ToJSON(resources.DefaultMirror(c.ID))
	}
	if c.Name != "" {
		tree.Set("name", c.Name)
	}
	_, diags := preset.ParseValue(tree, c.ID+".json", preset.ParseOptions{Scope: scope})
	if errs := newErrors(diags, sourceDiags); len(errs) > 0 {
		return refuseInvalidCopy(g, i18n.Mark("the new preset"), scope, c.ID, errs)
	}
	res, err := resources.CreatePresetTree(lib.Workspace, scope, c.ID, tree)
	if err != nil {
		return libraryError(err)
	}
	return writeResult(g, c.JSON, c.Scope, c.ID, res)
}

func writeResult(g *Globals, asJSON bool, scope, id string, res resources.WriteResult) error {
	if asJSON {
		o := jsonv.NewObject()
		o.Set("scope", scope)
		o.Set("id", id)
		o.Set("path", res.Path)
		o.Set("sourceRevision", res.SourceRevision)
		return printJSON(g.stdout, o)
	}
	fmt.Fprintln(g.stdout, i18n.T("wrote %s (revision %s)", res.Path, res.SourceRevision))
	return nil
}

// PresetForkCmd copies a preset to a new id.
type PresetForkCmd struct {
	Selector string `arg:"" help:"Preset to copy." predictor:"preset"`
	NewID    string `arg:"" name:"new-id" help:"Id of the copy."`
	Scope    string `help:"Scope of the copy (default: the source's scope)." enum:",project,global" default:""`
	JSON     bool   `name:"json" help:"Print {scope, id, path, sourceRevision}."`
}

// Run forks with an exclusive create.
func (c *PresetForkCmd) Run(g *Globals) error {
	if err := checkNewID(c.NewID); err != nil {
		return err
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	src, err := resolved(lib.ResolvePreset(c.Selector))
	if err != nil {
		return err
	}
	scope := src.Scope
	if c.Scope != "" {
		scope = parseScope(c.Scope)
	}
	if err := lib.IDTaken(resources.KindPreset, scope, c.NewID); err != nil {
		return libraryError(err)
	}
	if src.Fault || src.Raw == nil {
		return fail(exitFailed, "Cannot fork unreadable prompt stack: %s", src.Path) //i18n:raw pi-forge's words (contract)
	}
	// The copy is validated where it goes: a global copy cannot bind a
	// project capability (§9.4), and pi-forge would never activate it.
	// Such a copy is refused (exit 1, nothing written) rather than written
	// broken: the user asked for a usable Preset, and a broken file in the
	// global scope would shadow nothing and help no session.
	stack, _ := preset.ParseWith(src.Raw, src.FileName(), preset.ParseOptions{Scope: src.Scope})
	stack.ID = c.NewID
	_, diags := preset.ParseValue(preset.ToJSON(stack), c.NewID+".json", preset.ParseOptions{Scope: scope})
	if errs := newErrors(diags, src.Diagnostics); len(errs) > 0 {
		return refuseInvalidCopy(g, i18n.Mark("the copy"), scope, c.NewID, errs)
	}
	res, err := resources.ForkPreset(lib.Workspace, src, scope, c.NewID)
	if err != nil {
		return libraryError(err)
	}
	return writeResult(g, c.JSON, string(scope), c.NewID, res)
}

// PresetDeleteCmd deletes a preset.
type PresetDeleteCmd struct {
	Selector string `arg:"" help:"Preset to delete." predictor:"preset"`
	Revision string `required:"" help:"The sourceRevision you last saw (preset show --json); a different file on disk is a conflict (exit 3)." placeholder:"HEX"`
	JSON     bool   `name:"json" help:"Print {scope, id, key, path, deleted}."`
}

// Run deletes the file when it still has the expected revision.
func (c *PresetDeleteCmd) Run(g *Globals) error {
	if err := checkRevisionArg(c.Revision); err != nil {
		return err
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, err := lib.ResolvePreset(c.Selector)
	if err != nil && (p == nil || !errors.Is(err, resources.ErrUnusable)) {
		return deleteResolveError(lib, resources.KindPreset, c.Selector, err)
	}
	path, err := resources.DeleteLoaded(lib.Workspace, resources.KindPreset, &p.Resource, c.Revision)
	if err != nil {
		return libraryError(err)
	}
	return deleteResult(g, c.JSON, &p.Resource, path)
}

// PresetMigrateCmd copies legacy presets into the forge directory.
type PresetMigrateCmd struct {
	DryRun       bool   `name:"dry-run" help:"Report what would happen without writing."`
	Overwrite    bool   `help:"Replace presets that already exist in .pi/forge/prompt-stacks."`
	DeleteLegacy bool   `name:"delete-legacy" help:"Delete each legacy file once it is migrated."`
	Session      string `help:"Session whose active Preset an overwrite is preflighted against: a file, a session id or a unique prefix of one (default: the project's newest session)." placeholder:"SESSION" predictor:"session"`
	JSON         bool   `name:"json" help:"Print {sourceDir, targetDir, dryRun, overwrite, deleteLegacy, copied, overwritten, skipped, errors, deletedLegacy, files:[{file, sourcePath, targetPath, action, reason, deleteLegacy}]}."`
}

// Run migrates .pi/prompt-stacks into .pi/forge/prompt-stacks.
func (c *PresetMigrateCmd) Run(g *Globals) error {
	ws, err := g.workspace()
	if err != nil {
		return err
	}
	if c.Overwrite && !c.DryRun {
		if err := c.preflight(g, ws); err != nil {
			return err
		}
	}
	rep, err := resources.MigrateStacks(ws, c.DryRun, c.Overwrite, c.DeleteLegacy)
	if err != nil {
		return libraryError(err)
	}
	if c.JSON {
		files := make([]any, len(rep.Files))
		for i, f := range rep.Files {
			o := jsonv.NewObject()
			o.Set("file", f.Name)
			o.Set("sourcePath", f.SourcePath)
			o.Set("targetPath", f.TargetPath)
			o.Set("action", string(f.Action))
			o.Set("reason", f.Reason)
			o.Set("deleteLegacy", f.DeleteLegacy)
			files[i] = o
		}
		o := jsonv.NewObject()
		o.Set("sourceDir", rep.SourceDir)
		o.Set("targetDir", rep.TargetDir)
		o.Set("dryRun", rep.DryRun)
		o.Set("overwrite", rep.Overwrite)
		o.Set("deleteLegacy", rep.DeleteLegacy)
		for _, n := range []struct {
			key   string
			count int
		}{{"copied", rep.Copied}, {"overwritten", rep.Overwritten}, {"skipped", rep.Skipped}, {"errors", rep.Errors}, {"deletedLegacy", rep.DeletedLegacy}} { //i18n:raw JSON keys
			o.Set(n.key, float64(n.count))
		}
		o.Set("files", files)
		if err := printJSON(g.stdout, o); err != nil {
			return err
		}
	} else {
		fmt.Fprint(g.stdout, sanitize.Text(rep.Render())) // file names come from the checkout
	}
	if rep.Errors > 0 {
		return failErr(exitFailed, i18n.Errorf("%d file(s) could not be migrated", rep.Errors))
	}
	return nil
}

// preflight checks what an overwriting migration would replace: an
// overwrite of the session's active Preset runs pi-forge's save preflight.
func (c *PresetMigrateCmd) preflight(g *Globals, ws resources.Workspace) error {
	plan, err := resources.MigrateStacks(ws, true, c.Overwrite, c.DeleteLegacy)
	if err != nil {
		return libraryError(err)
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	drafts, err := legacyDrafts(lib, plan)
	if err != nil {
		return err
	}
	return savePreflight(g, c.Session, drafts)
}

func orEmpty(list []any) []any {
	if list == nil {
		return []any{}
	}
	return list
}
