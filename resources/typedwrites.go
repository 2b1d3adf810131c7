package resources

import (
	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
)

// CreatePreset writes a new Preset file (exclusive create; ErrConflict if
// the id is taken in that scope). The file is pi-forge's serialization
// (§1.3).
func CreatePreset(ws Workspace, scope Scope, stack *preset.Stack) (WriteResult, error) {
	return CreateFile(ws, KindPreset, scope, stack.ID, preset.Serialize(stack))
}

// SavePreset replaces the Preset id of scope with stack when the file still
// has expectedRevision (the SourceRevision the user saw). stack.ID must be
// id: ids are immutable on save (use ForkPreset for a new id).
func SavePreset(ws Workspace, scope Scope, id string, stack *preset.Stack, expectedRevision string) (WriteResult, error) {
	return SaveFile(ws, KindPreset, scope, id, preset.Serialize(stack), expectedRevision)
}

// DeletePreset removes the Preset id of scope when the file still has
// expectedRevision.
func DeletePreset(ws Workspace, scope Scope, id, expectedRevision string) (string, error) {
	return DeleteFile(ws, KindPreset, scope, id, expectedRevision)
}

// ForkPreset copies a loaded Preset under a new id (and possibly another
// scope) with an exclusive create. The copy is the normalized Preset with
// only its id changed.
func ForkPreset(ws Workspace, src *Preset, scope Scope, newID string) (WriteResult, error) {
	if src.Fault || src.Raw == nil {
		return WriteResult{}, newError(ErrInvalid, "Cannot fork unreadable prompt stack: "+src.Path)
	}
	stack, _ := preset.ParseWith(src.Raw, src.FileName(), preset.ParseOptions{Scope: src.Scope})
	stack.ID = newID
	return CreateFile(ws, KindPreset, scope, newID, preset.Serialize(stack))
}

// CreateCapability writes a new capability file (exclusive create). An
// invalid capability is refused with ErrInvalid.
func CreateCapability(ws Workspace, scope Scope, c *capability.Capability) (WriteResult, error) {
	return CreateFile(ws, KindCapability, scope, c.ID, capability.Serialize(c))
}

// SaveCapability replaces capability id of scope when the file still has
// expectedRevision; c.ID must be id. Saving never activates anything.
func SaveCapability(ws Workspace, scope Scope, id string, c *capability.Capability, expectedRevision string) (WriteResult, error) {
	return SaveFile(ws, KindCapability, scope, id, capability.Serialize(c), expectedRevision)
}

// DeleteCapability removes capability id of scope when the file still has
// expectedRevision.
func DeleteCapability(ws Workspace, scope Scope, id, expectedRevision string) (string, error) {
	return DeleteFile(ws, KindCapability, scope, id, expectedRevision)
}

// ForkCapability copies a loaded capability under a new id.
func ForkCapability(ws Workspace, src *Capability, scope Scope, newID string) (WriteResult, error) {
	if src.Fault || src.Raw == nil {
		return WriteResult{}, newError(ErrInvalid, "Cannot fork unreadable capability: "+src.Path)
	}
	c, _ := capability.Parse(src.Raw, src.FileName(), src.Scope)
	c = c.Clone()
	c.ID = newID
	return CreateFile(ws, KindCapability, scope, newID, capability.Serialize(c))
}
