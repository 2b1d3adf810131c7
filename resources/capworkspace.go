package resources

import (
	"github.com/forgebench/forgebench/engine/capability"
)

// CapabilityWorkspace is the library as pi-forge's capability runtime sees
// it (engine/capability.Workspace): trust, the capability catalog (failing
// closed on a directory fault), every loaded Preset with its first error
// and resolved bindings, and the Preset a fresh session activates (an
// auto-activating profile's Preset, else Preset auto-activation).
func (lib *Library) CapabilityWorkspace() *capability.Workspace {
	ws := &capability.Workspace{Trusted: lib.Workspace.Trust.Trusted, Catalog: lib.capCatalog}
	if f := lib.capabilityDirFault(""); f != nil {
		ws.CatalogError = dirFaultMessage(f)
	}
	refs := make(map[*Preset]*capability.PresetRef, len(lib.Presets))
	for _, p := range lib.Presets {
		ref := lib.PresetRef(p)
		refs[p] = ref
		ws.Presets = append(ws.Presets, ref)
	}
	if auto, _ := lib.FreshSessionPreset(); auto != nil {
		ws.AutoActivate = refs[auto]
	}
	return ws
}

// PresetRef describes one loaded Preset for the capability runtime (also
// used for a draft that is about to be saved).
func (lib *Library) PresetRef(p *Preset) *capability.PresetRef {
	return &capability.PresetRef{
		Key:      capability.Key{Scope: p.Scope, ID: p.ID},
		Stack:    p.Stack,
		Error:    p.firstError(),
		Bindings: lib.ResolvePresetCapabilities(p),
	}
}
