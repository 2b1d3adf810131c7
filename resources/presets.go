package resources

import (
	"path/filepath"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Preset is one loaded Preset (prompt stack) file.
type Preset struct {
	Resource
	// Stack is the normalized Preset; the fallback stack (§2.2) for an
	// unreadable or unparsable file. Never nil.
	Stack *preset.Stack
}

// Name is the display name: the Preset name when present, else its id.
func (p *Preset) Name() string {
	if p.Stack != nil && p.Stack.Name != nil {
		return *p.Stack.Name
	}
	return p.ID
}

// LegacyPresetsDir is the read-only legacy project directory
// <cwd>/.pi/prompt-stacks (§14.1).
func LegacyPresetsDir(cwd string) string { return filepath.Join(cwd, ".pi", "prompt-stacks") }

// presetJobs lists the Preset files of one scope. The project scope reads
// .pi/forge/prompt-stacks first and then the legacy directory, where a file
// whose name already appeared is shadowed.
func (lib *Library) presetJobs(scope Scope, cwd string) []loadJob {
	dirs := []string{StorageDir(lib.Workspace, KindPreset, scope)}
	if scope == ScopeProject {
		dirs = append(dirs, LegacyPresetsDir(cwd))
	}
	seen := map[string]bool{}
	var jobs []loadJob
	for i, dir := range dirs {
		entries, err := listJSON(dir)
		if err != nil {
			// pi-forge skips a Preset directory it cannot list; the snapshot
			// records it so the UI can say why the list is short.
			lib.DirFaults = append(lib.DirFaults, DirFault{Kind: KindPreset, Scope: scope, Dir: dir, Err: err})
			continue
		}
		for _, e := range entries {
			if seen[e.Name()] {
				continue
			}
			seen[e.Name()] = true
			jobs = append(jobs, loadJob{kind: KindPreset, scope: scope, path: filepath.Join(dir, e.Name()), legacy: i == 1})
		}
	}
	return jobs
}

// loadPresetFile reads one Preset once, hashes and parses the same bytes.
func loadPresetFile(path string, scope Scope, legacy bool) *Preset {
	base := filepath.Base(path)
	p := &Preset{Resource: Resource{Scope: scope, Path: path, Legacy: legacy}}
	raw, err := readRegularFile(path)
	if err != nil {
		p.Fault = true
		p.Stack = preset.FallbackStack(base)
		p.ID = p.Stack.ID
		p.addError("Failed to read prompt stack: "+nodeReadError(err, "open", path), "")
		return p
	}
	stack, diags := preset.ParseWith(raw, base, preset.ParseOptions{Scope: scope})
	p.Raw, p.SourceRevision, p.Stack, p.ID = raw, sourceRevision(raw), stack, stack.ID
	p.Diagnostics = fromPresetDiagnostics(diags)
	return p
}

func fromPresetDiagnostics(diags preset.Diagnostics) []Diagnostic {
	out := make([]Diagnostic, 0, len(diags))
	for _, d := range diags {
		out = append(out, Diagnostic{Level: d.Level, Message: d.Message, ItemID: d.ItemID})
	}
	return out
}

// annotatePresetDuplicates adds `Duplicate <scope> stack id: <id> appears in
// multiple files (<files>).` to every Preset sharing a scope and id (§14.1).
func annotatePresetDuplicates(presets []*Preset) {
	groups := map[string][]*Preset{}
	var order []string
	for _, p := range presets {
		k := p.Key()
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], p)
	}
	for _, k := range order {
		g := groups[k]
		if len(g) < 2 {
			continue
		}
		names := make([]string, len(g))
		for i, p := range g {
			names[i] = p.FileName()
		}
		msg := "Duplicate " + string(g[0].Scope) + " stack id: " + g[0].ID + " appears in multiple files (" + strings.Join(names, ", ") + ")."
		for _, p := range g {
			p.addError(msg, "")
		}
	}
}

// PresetsIn returns the Presets of one scope with the given id (normally
// zero or one; more means a duplicate).
func (lib *Library) PresetsIn(scope Scope, id string) []*Preset {
	var out []*Preset
	for _, p := range lib.Presets {
		if p.Scope == scope && p.ID == id {
			out = append(out, p)
		}
	}
	return out
}

// ShadowedBy returns the project Presets that shadow a global Preset (same
// id), or nil when p is not shadowed.
func (lib *Library) ShadowedBy(p *Preset) []*Preset {
	if p.Scope != ScopeGlobal {
		return nil
	}
	return lib.PresetsIn(ScopeProject, p.ID)
}

// EffectivePresets is the project-over-global view by id (§14.1): every
// project Preset, then every global Preset whose id no project Preset uses
// (an invalid project Preset still shadows).
func (lib *Library) EffectivePresets() []*Preset {
	var out []*Preset
	for _, p := range lib.Presets {
		if p.Scope == ScopeProject || len(lib.ShadowedBy(p)) == 0 {
			out = append(out, p)
		}
	}
	return out
}

// ResolvePreset resolves a selector (`<id>`, `project:<id>`, `global:<id>`)
// with fail-closed bare resolution (§1.1): a bare id looks in the project
// scope first and never falls back to global when the project has a match,
// even an unusable or ambiguous one.
//
// Errors (all *Error): ErrInvalidSelector with pi-forge's selector message;
// ErrNotFound `Unknown prompt stack: <selector>`; ErrAmbiguous `Prompt stack
// id is ambiguous: <selector>`; ErrUnusable `Prompt stack <scope>:<id> has
// errors: <first error>` — in that case the Preset is returned as well so
// show/validate can still display it.
func (lib *Library) ResolvePreset(selector string) (*Preset, error) {
	sel, msg := preset.ParseSelector(selector)
	if msg != "" {
		return nil, newError(ErrInvalidSelector, msg)
	}
	label := jsonv.TrimJS(selector)
	var matches []*Preset
	if sel.Scope != "" {
		matches = lib.PresetsIn(sel.Scope, sel.ID)
	} else if matches = lib.PresetsIn(ScopeProject, sel.ID); len(matches) == 0 {
		matches = lib.PresetsIn(ScopeGlobal, sel.ID)
	}
	switch {
	case len(matches) == 0:
		e := newError(ErrNotFound, "Unknown prompt stack: "+label)
		e.Subject = `Preset "` + label + `"`
		return nil, e
	case len(matches) > 1:
		return nil, newError(ErrAmbiguous, "Prompt stack id is ambiguous: "+label)
	}
	p := matches[0]
	if first := p.firstError(); first != "" {
		return p, newError(ErrUnusable, "Prompt stack "+p.Key()+" has errors: "+first)
	}
	return p, nil
}

// AutoActivatePreset is Preset auto-activation (§14.2). Only autoActivate
// true takes part. When any project Preset asks for it, exactly one must and
// it must be usable, else none (fail closed, no global fallback); otherwise
// exactly one global candidate whose id no project Preset uses, and usable.
func (lib *Library) AutoActivatePreset() *Preset {
	candidates := func(scope Scope) []*Preset {
		var out []*Preset
		for _, p := range lib.Presets {
			if p.Scope != scope || p.Stack.AutoActivate == nil || !*p.Stack.AutoActivate {
				continue
			}
			if scope == ScopeGlobal && len(lib.ShadowedBy(p)) > 0 {
				continue
			}
			out = append(out, p)
		}
		return out
	}
	c := candidates(ScopeProject)
	if len(c) == 0 {
		c = candidates(ScopeGlobal)
	}
	if len(c) == 1 && c[0].Usable() {
		return c[0]
	}
	return nil
}
