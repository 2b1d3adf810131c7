package capability

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// PresetRef is one loaded Preset as the capability runtime needs it.
type PresetRef struct {
	Key   Key
	Stack *preset.Stack
	// Error is the Preset's first validation error ("" = usable).
	Error string
	// Bindings is the resolution of its capability bindings against the
	// workspace catalog (resolveCapabilityBindings).
	Bindings Resolution
}

// Workspace is pi-forge's workspace snapshot as far as capabilities need
// it: trust, the capability catalog, the loaded Presets and the Preset
// auto-activation would choose. Untrusted workspaces hold only global
// resources.
type Workspace struct {
	Trusted bool
	Catalog *Catalog
	// CatalogError is set when the capability library could not be read
	// (a directory fault): every resolution fails closed with it.
	CatalogError string
	Presets      []*PresetRef
	// AutoActivate is the Preset auto-activation selects (nil = none).
	AutoActivate *PresetRef
}

// ResolveCapability resolves a selector against the catalog (§9.3).
func (w *Workspace) ResolveCapability(selector string) (*Entry, string) {
	entry, msg, _ := w.resolveCapability(selector)
	return entry, msg
}

// resolveCapability is ResolveCapability with the kind of a failure (see
// resolveClassified).
func (w *Workspace) resolveCapability(selector string) (*Entry, string, RefusalKind) {
	if w.CatalogError != "" {
		if _, msg := preset.ParseSelector(selector); msg != "" {
			return nil, msg, RefusedUsage
		}
		return nil, w.CatalogError, RefusedRule
	}
	return resolveClassified(w.Catalog, selector)
}

// presetsIn lists the Presets of one scope and id.
func (w *Workspace) presetsIn(scope preset.Scope, id string) []*PresetRef {
	var out []*PresetRef
	for _, p := range w.Presets {
		if p.Key.Scope == scope && p.Key.ID == id {
			out = append(out, p)
		}
	}
	return out
}

// ResolvePreset resolves a Preset selector with fail-closed bare
// resolution (§1.1); the message is the workbench's preset wording
// ("Unknown prompt stack: <sel>", ambiguity, unusable).
func (w *Workspace) ResolvePreset(selector string) (*PresetRef, string) {
	sel, msg := preset.ParseSelector(selector)
	if msg != "" {
		return nil, msg
	}
	label := jsonv.TrimJS(selector)
	var matches []*PresetRef
	if sel.Scope != "" {
		matches = w.presetsIn(sel.Scope, sel.ID)
	} else if matches = w.presetsIn(preset.ScopeProject, sel.ID); len(matches) == 0 {
		matches = w.presetsIn(preset.ScopeGlobal, sel.ID)
	}
	switch {
	case len(matches) == 0:
		return nil, "Unknown prompt stack: " + label
	case len(matches) > 1:
		return nil, "Prompt stack id is ambiguous: " + label
	case matches[0].Error != "":
		return matches[0], "Prompt stack " + matches[0].Key.String() + " has errors: " + matches[0].Error
	}
	return matches[0], ""
}

// IsDisabledPresetID reports whether a stored or typed Preset id means
// "no Preset" ("none", "off"; the command also accepts "disable").
func IsDisabledPresetID(id string) bool {
	switch jsonv.TrimJS(id) {
	case "none", "off", "disable":
		return true
	}
	return false
}

// ResolvedBinding is a usable binding of the active Preset
// (ResolvedCapabilityBinding).
type ResolvedBinding struct {
	ID            string
	Ref           Key
	Preset        Key
	ModelCallable bool
	Capability    *Capability
	Description   *string
}

// ReadBindings is readBindings: the usable bindings of the active Preset,
// or pi-forge's error when the project is untrusted or any binding fails.
func ReadBindings(w *Workspace, active *PresetRef) ([]ResolvedBinding, string) {
	if !w.Trusted {
		return nil, "Project is not trusted; cannot read capability bindings."
	}
	if active == nil || active.Stack == nil || len(active.Stack.Capabilities) == 0 {
		return nil, ""
	}
	if active.Bindings.Error != "" {
		return nil, active.Bindings.Error
	}
	out := make([]ResolvedBinding, 0, len(active.Bindings.Bindings))
	for _, b := range active.Bindings.Bindings {
		if !b.Usable() {
			return nil, b.Error
		}
		out = append(out, ResolvedBinding{ID: b.ID, Ref: b.Ref, Preset: b.Preset, ModelCallable: b.ModelCallable,
			Capability: b.Effective, Description: b.Effective.Description})
	}
	return out, ""
}

// Snapshot captures an activation through the binding.
func (b ResolvedBinding) Snapshot(activationID string) Snapshot {
	src := SnapshotSource{Kind: SourceCapability, Key: b.Ref, Binding: &SnapshotBinding{Preset: b.Preset, ID: b.ID}}
	return NewSnapshot(activationID, src, b.Capability.Name, b.Capability.Content, b.Capability.Tools)
}
