// Package capability implements pi-forge capability resources (spec
// pi-forge-formats §9): the codec (parse, normalize, validate, serialize,
// §9.1), resolution of a selector over an in-memory catalog (§9.3), Preset
// binding resolution with overrides (§9.4) and the activation snapshot
// fingerprint (§9.7); and the session side: the event codec (§9.6), the
// branch history reader and reducer (§9.8), delivery projection (§9.9),
// pi-forge's tool policy runtime (§9.10), the forge_capability agent tool
// (§9.11), and a Runtime that plans the entries pi-forge appends for each
// command (§9.12) and renders the status text (§9.13).
//
// Everything here is pure: the on-disk catalog is built elsewhere and handed
// in as raw bytes per file. Messages are pi-forge's, byte for byte, including
// the mechanically renamed "Capability capability …" wording.
package capability

import (
	"strings"

	"github.com/forgebench/forgebench/engine/preset"
)

// Type is the only accepted value of a capability's "type" field.
const Type = "pi-forge.capability"

// Limits of the capability schema (UTF-16 code units where they are lengths).
const (
	// MaxContentLength bounds content and the override content/appendContent.
	MaxContentLength = 100000
	// MaxNameLength bounds the optional name.
	MaxNameLength = 1000
	// MaxToolListLength bounds tools.add and tools.remove.
	MaxToolListLength = 256
	// MaxToolNameLength bounds one concrete tool name (§1.4).
	MaxToolNameLength = 128
	// MaxSourceSize is the largest capability file pi-forge reads (1 MiB).
	MaxSourceSize = 1024 * 1024
	// MaxBindings is the largest number of bindings one Preset may hold.
	MaxBindings = 256
)

// ToolPatch is a capability's tool effect. After Parse both lists are
// non-nil (possibly empty) and hold only valid concrete tool names.
type ToolPatch struct {
	Add    []string
	Remove []string
}

// String is the patch as "+a +b -c" (added tools, then removed ones, each
// in its list's order), or "" when it changes no tool.
func (p ToolPatch) String() string {
	parts := make([]string, 0, len(p.Add)+len(p.Remove))
	for _, t := range p.Add {
		parts = append(parts, "+"+t)
	}
	for _, t := range p.Remove {
		parts = append(parts, "-"+t)
	}
	return strings.Join(parts, " ")
}

// HasEffect reports whether the patch adds or removes at least one tool.
func (p ToolPatch) HasEffect() bool { return len(p.Add) > 0 || len(p.Remove) > 0 }

// Clone returns a deep copy with non-nil lists.
func (p ToolPatch) Clone() ToolPatch {
	return ToolPatch{Add: append([]string{}, p.Add...), Remove: append([]string{}, p.Remove...)}
}

// Capability is a normalized capability resource. schemaVersion (1) and type
// are implied; Name and Description are nil when absent.
type Capability struct {
	// ID is the resource id (the file basename when the file's id is unusable).
	ID string
	// Name is the display name; nil = absent.
	Name *string
	// Description; nil = absent.
	Description *string
	// Content is the literal instruction text (never a template).
	Content string
	// Tools is the tool patch.
	Tools ToolPatch
}

// Clone returns a deep copy.
func (c *Capability) Clone() *Capability {
	if c == nil {
		return nil
	}
	out := *c
	if c.Name != nil {
		name := *c.Name
		out.Name = &name
	}
	if c.Description != nil {
		description := *c.Description
		out.Description = &description
	}
	out.Tools = c.Tools.Clone()
	return &out
}

// DisplayName is the name when present, else the id.
func (c *Capability) DisplayName() string {
	if c.Name != nil {
		return *c.Name
	}
	return c.ID
}

// Diagnostic is one capability diagnostic ({level, message, field?}).
type Diagnostic struct {
	Level   preset.Level
	Message string
	// Field names the offending field ("tools.add[2]"); "" = absent.
	Field string
}

// Diagnostics is an ordered list of capability diagnostics.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error (the capability is
// then unusable).
func (d Diagnostics) HasErrors() bool {
	for _, x := range d {
		if x.Level == preset.LevelError {
			return true
		}
	}
	return false
}

// FirstError returns the message of the first error, or "".
func (d Diagnostics) FirstError() string {
	for _, x := range d {
		if x.Level == preset.LevelError {
			return x.Message
		}
	}
	return ""
}

// Dedupe drops repeats of (level, field, message), keeping the first
// occurrence and the order.
func (d Diagnostics) Dedupe() Diagnostics {
	seen := make(map[Diagnostic]bool, len(d))
	out := make(Diagnostics, 0, len(d))
	for _, x := range d {
		if seen[x] {
			continue
		}
		seen[x] = true
		out = append(out, x)
	}
	return out
}

func (d *Diagnostics) addError(field, message string) {
	*d = append(*d, Diagnostic{Level: preset.LevelError, Message: message, Field: field})
}

// Key is a scoped resource key ({scope, id}).
type Key struct {
	Scope preset.Scope
	ID    string
}

// String formats the key as "scope:id".
func (k Key) String() string { return string(k.Scope) + ":" + k.ID }
