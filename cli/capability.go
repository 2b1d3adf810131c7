package cli

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
)

// CapabilityCmd groups the capability commands.
type CapabilityCmd struct {
	List        CapabilityListCmd        `cmd:"" help:"List capabilities of the project and global scopes."`
	Show        CapabilityShowCmd        `cmd:"" help:"Show one capability."`
	Validate    CapabilityValidateCmd    `cmd:"" help:"Validate capabilities; exit 1 on errors."`
	New         CapabilityNewCmd         `cmd:"" help:"Create a capability (exclusive create)."`
	Delete      CapabilityDeleteCmd      `cmd:"" help:"Delete a capability; requires --revision."`
	Bindings    CapabilityBindingsCmd    `cmd:"" help:"Show a preset's capability bindings, source vs effective."`
	Status      CapabilityStatusCmd      `cmd:"" help:"Capability state of a session at an entry (pi-forge's /capability status)."`
	Enable      CapabilityEnableCmd      `cmd:"" help:"Enable a library capability in a session (guarded append; Pi not running)."`
	EnableBound CapabilityEnableBoundCmd `cmd:"" name:"enable-bound" help:"Enable a binding of the session's active preset."`
	Disable     CapabilityDisableCmd     `cmd:"" help:"Disable one active capability in a session."`
	Reset       CapabilityResetCmd       `cmd:"" help:"Disable every active capability in a session."`
	Add         CapabilityAddCmd         `cmd:"" help:"Add a manual directive to a session."`
}

// CapabilityListCmd lists capabilities of both scopes.
type CapabilityListCmd struct {
	JSON bool `name:"json" help:"Print an array of {scope, id, key, name, path, sourceRevision, errors, warnings, usable, toolsAdd, toolsRemove}."`
}

// Run lists capability files with scope badge and diagnostics counts.
func (c *CapabilityListCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	if c.JSON {
		list := make([]any, 0, len(lib.Capabilities))
		for _, cp := range lib.Capabilities {
			o := resourceJSON(&cp.Resource)
			o.Set("name", cp.Capability.DisplayName())
			o.Set("toolsAdd", stringsJSON(cp.Capability.Tools.Add))
			o.Set("toolsRemove", stringsJSON(cp.Capability.Tools.Remove))
			list = append(list, o)
		}
		return printJSON(g.stdout, list)
	}
	for _, cp := range lib.Capabilities {
		fmt.Fprintf(g.stdout, "%-9s %-24s %-30s %-18s %s\n", scopeBadge(&cp.Resource), sanitize.Line(cp.ID), sanitize.Clip(cp.Capability.DisplayName(), 30),
			toolPatchText(cp.Capability.Tools), countsText(&cp.Resource))
	}
	return nil
}

// toolPatchText is the patch ("+a +b -c"), or "no tool changes".
func toolPatchText(p capability.ToolPatch) string {
	return cmp.Or(p.String(), i18n.T("no tool changes"))
}

func stringsJSON(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// CapabilityShowCmd shows one capability.
type CapabilityShowCmd struct {
	Selector string `arg:"" help:"Capability selector: id, project:id or global:id." predictor:"capability"`
	JSON     bool   `name:"json" help:"Print {scope, id, key, path, sourceRevision, errors, warnings, usable, capability, diagnostics}."`
}

// Run prints the normalized capability, its revision and diagnostics.
func (c *CapabilityShowCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	cp, err := resolved(lib.ResolveCapability(c.Selector))
	if err != nil {
		return err
	}
	if c.JSON {
		o := resourceJSON(&cp.Resource)
		o.Set("capability", capability.ToJSON(cp.Capability))
		o.Set("diagnostics", diagnosticsJSON(cp.Diagnostics))
		return printJSON(g.stdout, o)
	}
	w := g.stdout
	fmt.Fprint(w, i18n.T("%s  %s\npath      %s\nrevision  %s\nstatus    %s\ntools     %s\n\n%s\n",
		cp.Key(), sanitize.Line(cp.Capability.DisplayName()), cp.Path, cp.SourceRevision, countsText(&cp.Resource),
		sanitize.Line(toolPatchText(cp.Capability.Tools)), sanitize.Text(cp.Capability.Content)))
	if len(cp.Diagnostics) > 0 {
		fmt.Fprintln(w, i18n.T("diagnostics"))
		writeDiagnostics(w, cp.Diagnostics)
	}
	return nil
}

// CapabilityValidateCmd validates capabilities.
type CapabilityValidateCmd struct {
	Selectors []string `arg:"" optional:"" help:"Capabilities to validate (default: every capability file)." predictor:"capability"`
	JSON      bool     `name:"json" help:"Print an array of {scope, id, key, path, errors, warnings, usable, diagnostics}."`
}

// Run prints diagnostics and exits 1 when any error diagnostic exists.
func (c *CapabilityValidateCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	var targets []*resources.Resource
	if len(c.Selectors) == 0 {
		// pi-forge's capability read aborts on a directory it cannot list,
		// so nothing validates (fail closed).
		for _, f := range lib.DirFaults {
			if f.Kind == resources.KindCapability {
				return fail(exitFailed, "Failed to read capabilities in %s: %v", f.Dir, f.Err) //i18n:raw pi-forge's words (contract)
			}
		}
		for _, cp := range lib.Capabilities {
			targets = append(targets, &cp.Resource)
		}
	}
	for _, sel := range c.Selectors {
		cp, err := resolved(lib.ResolveCapability(sel))
		if err != nil {
			return err
		}
		targets = append(targets, &cp.Resource)
	}
	// pi-forge 0.5.8: exact tools.remove names in the MCP form Pi 0.99.2
	// renamed get a warning naming the new form.
	warnings := map[*resources.Resource][]resources.Diagnostic{}
	for _, cp := range lib.Capabilities {
		if cp.Capability == nil {
			continue
		}
		for _, d := range preset.MCPRenameWarningsFor(cp.Capability.Tools.Remove, "tools.remove") {
			warnings[&cp.Resource] = append(warnings[&cp.Resource], resources.Diagnostic{Level: d.Level, Field: "tools.remove", Message: d.Message})
		}
	}
	return validateResources(g, targets, c.JSON, "capability", warnings)
}

// validateResources prints each resource's diagnostics and fails with exit
// 1 when any has an error.
// extra holds warnings a command adds to a resource's own diagnostics.
func validateResources(g *Globals, targets []*resources.Resource, asJSON bool, kind string, extra map[*resources.Resource][]resources.Diagnostic) error {
	failed := 0
	var list []any
	for _, r := range targets {
		if errs, _ := r.Counts(); errs > 0 || r.Fault {
			failed++
		}
		added := extra[r]
		if asJSON {
			o := resourceJSON(r)
			o.Set("diagnostics", diagnosticsJSON(append(append([]resources.Diagnostic{}, r.Diagnostics...), added...)))
			if len(added) > 0 {
				_, warns := r.Counts()
				o.Set("warnings", float64(warns+len(added)))
			}
			list = append(list, o)
			continue
		}
		status := countsText(r)
		if len(added) > 0 {
			status += i18n.T(", %d tool policy warning(s)", len(added))
		}
		fmt.Fprintf(g.stdout, "%s %s: %s\n", scopeBadge(r), sanitize.Line(r.Key()), status)
		writeDiagnostics(g.stdout, r.Diagnostics)
		writeDiagnostics(g.stdout, added)
	}
	if asJSON {
		if err := printJSON(g.stdout, orEmpty(list)); err != nil {
			return err
		}
	}
	if failed > 0 {
		return failErr(exitFailed, i18n.Errorf("%d %s file(s) have errors", failed, kind))
	}
	return nil
}

// CapabilityBindingsCmd shows a preset's capability bindings.
type CapabilityBindingsCmd struct {
	Preset string `arg:"" help:"Preset selector whose bindings to resolve." predictor:"preset"`
	JSON   bool   `name:"json" help:"Print {preset, error, bindings:[{index, id, ref, modelCallable, source, effective, error, diagnostics}]}."`
}

// Run resolves every binding and shows the source capability next to the
// effective one after overrides; exit 1 when pi-forge would refuse them.
func (c *CapabilityBindingsCmd) Run(g *Globals) error {
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	p, err := resolved(lib.ResolvePreset(c.Preset))
	if err != nil {
		return err
	}
	res := lib.ResolvePresetCapabilities(p)
	if c.JSON {
		list := make([]any, len(res.Bindings))
		for i := range res.Bindings {
			list[i] = bindingJSON(&res.Bindings[i])
		}
		o := jsonv.NewObject()
		o.Set("preset", p.Key())
		o.Set("error", res.Error)
		o.Set("bindings", list)
		if err := printJSON(g.stdout, o); err != nil {
			return err
		}
	} else {
		writeBindings(g, p, res)
	}
	if res.Error != "" {
		return fail(exitFailed, "%s", res.Error)
	}
	return nil
}

func bindingJSON(b *capability.BoundCapability) *jsonv.Object {
	o := jsonv.NewObject()
	o.Set("index", float64(b.Index))
	o.Set("id", b.ID)
	o.Set("ref", b.Ref.String())
	o.Set("modelCallable", b.ModelCallable)
	if b.Source != nil {
		o.Set("source", capability.ToJSON(b.Source.Capability))
	} else {
		o.Set("source", nil)
	}
	if b.Effective != nil {
		o.Set("effective", capability.ToJSON(b.Effective))
	} else {
		o.Set("effective", nil)
	}
	o.Set("error", b.Error)
	diags := make([]any, len(b.Diagnostics))
	for i, d := range b.Diagnostics {
		do := jsonv.NewObject()
		do.Set("level", string(d.Level))
		do.Set("message", d.Message)
		diags[i] = do
	}
	o.Set("diagnostics", diags)
	return o
}

func writeBindings(g *Globals, p *resources.Preset, res capability.Resolution) {
	w := g.stdout
	fmt.Fprintln(w, i18n.T("%s: %d binding(s)", p.Key(), len(res.Bindings)))
	for i := range res.Bindings {
		b := &res.Bindings[i]
		callable := ""
		if b.ModelCallable {
			callable = i18n.T(" · model-callable")
		}
		fmt.Fprintf(w, "\n#%d %s → %s%s\n", b.Index+1, sanitize.Line(orDefault(b.ID, "?")), sanitize.Line(b.Ref.String()), callable)
		if b.Error != "" {
			fmt.Fprintln(w, " ", i18n.T("error: %s", sanitize.Line(b.Error)))
			continue
		}
		src, eff := b.Source.Capability, b.Effective
		row := func(field, a, b string) {
			mark := " "
			if a != b {
				mark = "≠"
			}
			fmt.Fprint(w, i18n.T("  %s %-8s source:    %s\n    %-8s effective: %s\n", mark, field, sanitize.Clip(a, 70), "", sanitize.Clip(b, 70)))
		}
		row("name", src.DisplayName(), eff.DisplayName())
		row("tools", toolPatchText(src.Tools), toolPatchText(eff.Tools))
		row("content", src.Content, eff.Content)
		if d := len([]rune(eff.Content)) - len([]rune(src.Content)); d != 0 {
			fmt.Fprint(w, i18n.T("    %-8s overrides change the content by %+d characters\n", "", d))
		}
	}
	if res.Error != "" {
		fmt.Fprint(w, i18n.T("\npi-forge refuses these bindings: %s\n", sanitize.Line(res.Error)))
	}
}

// CapabilityDeleteCmd deletes a capability.
type CapabilityDeleteCmd struct {
	Selector string `arg:"" help:"Capability to delete." predictor:"capability"`
	Revision string `required:"" help:"The sourceRevision you last saw (capability show --json); a different file on disk is a conflict (exit 3)." placeholder:"HEX"`
	JSON     bool   `name:"json" help:"Print {scope, id, key, path, deleted}."`
}

// Run deletes the file when it still has the expected revision.
func (c *CapabilityDeleteCmd) Run(g *Globals) error {
	if err := checkRevisionArg(c.Revision); err != nil {
		return err
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	cp, err := lib.ResolveCapability(c.Selector)
	if err != nil && (cp == nil || !errors.Is(err, resources.ErrUnusable)) {
		return deleteResolveError(lib, resources.KindCapability, c.Selector, err)
	}
	path, err := resources.DeleteLoaded(lib.Workspace, resources.KindCapability, &cp.Resource, c.Revision)
	if err != nil {
		return libraryError(err)
	}
	return deleteResult(g, c.JSON, &cp.Resource, path)
}

// CapabilityNewCmd creates a capability.
type CapabilityNewCmd struct {
	ID          string   `arg:"" help:"Id of the new capability."`
	Scope       string   `help:"Where to create it." enum:"project,global" default:"project"`
	Name        string   `help:"Display name."`
	Description string   `help:"One-line description."`
	Content     string   `help:"Instruction text (literal, never a template); - reads it from standard input." placeholder:"TEXT"`
	Add         []string `sep:"none" help:"Tool the capability adds while active; one name each time (a tool name may contain a comma): repeat the flag for several." placeholder:"TOOL"`
	Remove      []string `sep:"none" help:"Tool the capability removes while active; one name each time: repeat the flag for several." placeholder:"TOOL"`
	JSON        bool     `name:"json" help:"Print {scope, id, path, sourceRevision}."`
}

// Run validates and creates the file exclusively.
func (c *CapabilityNewCmd) Run(g *Globals) error {
	if err := checkNewID(c.ID); err != nil {
		return err
	}
	content := c.Content
	if content == "-" {
		// Longer than the limit, it is cut after limit+1 characters, which
		// validation below reports as too long.
		text, _, err := readContent()
		if err != nil {
			return err
		}
		content = text
	}
	doc := jsonv.NewObject()
	doc.Set("schemaVersion", float64(1))
	doc.Set("type", capability.Type)
	doc.Set("id", c.ID)
	if c.Name != "" {
		doc.Set("name", c.Name)
	}
	if c.Description != "" {
		doc.Set("description", c.Description)
	}
	doc.Set("content", content)
	tools := jsonv.NewObject()
	tools.Set("add", stringsJSON(c.Add))
	tools.Set("remove", stringsJSON(c.Remove))
	doc.Set("tools", tools)
	cp, diags := capability.ParseValue(doc, c.ID)
	if diags.HasErrors() {
		for _, d := range diags {
			fmt.Fprintf(g.stderr, "%s: %s\n", d.Level, sanitize.Line(d.Message))
		}
		return failErr(exitFailed, i18n.Errorf("capability %s is not valid", c.ID))
	}
	lib, err := g.loadLibrary()
	if err != nil {
		return err
	}
	if err := lib.IDTaken(resources.KindCapability, parseScope(c.Scope), c.ID); err != nil {
		return libraryError(err)
	}
	res, err := resources.CreateCapability(lib.Workspace, parseScope(c.Scope), cp)
	if err != nil {
		return libraryError(err)
	}
	return writeResult(g, c.JSON, c.Scope, c.ID, res)
}
