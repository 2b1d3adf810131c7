package resources

import (
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/profile"
)

// checkContent parses the bytes about to be written with the kind's codec:
// the id they carry must be the target id (ids are immutable on save and
// a file must be <id>.json), and a capability must be usable, as pi-forge
// refuses to write an invalid capability (reason invalid-capability).
func checkContent(kind Kind, scope Scope, id string, data []byte) error {
	base := id + ".json"
	var gotID string
	switch kind {
	case KindPreset:
		stack, _ := preset.ParseWith(data, base, preset.ParseOptions{Scope: scope})
		gotID = stack.ID
	case KindCapability:
		if len(data) > maxCapabilitySize {
			return newError(ErrInvalid, "Capability capability file size exceeds 1MiB limit.")
		}
		c, diags := capability.Parse(data, base, scope)
		if diags.HasErrors() {
			var msgs []string
			for _, d := range diags {
				if d.Level == preset.LevelError {
					msgs = append(msgs, d.Message)
				}
			}
			return newError(ErrInvalid, strings.Join(msgs, "; "))
		}
		gotID = c.ID
	default:
		return checkProfileContent(scope, base, id, data)
	}
	if gotID != id {
		return newError(ErrInvalid, "Invalid ID or rename mismatch: "+base)
	}
	return nil
}

// ValidateFile parses bytes the user is editing with the kind's codec, as
// they would load from <id>.json in scope, and returns the file-level
// diagnostics (library-level ones such as duplicates need a reload). It
// writes nothing; the Presets panel uses it for live validation.
func ValidateFile(kind Kind, scope Scope, id string, data []byte) []Diagnostic {
	base := id + ".json"
	var out []Diagnostic
	switch kind {
	case KindPreset:
		_, diags := preset.ParseWith(data, base, preset.ParseOptions{Scope: scope})
		out = fromPresetDiagnostics(diags)
	case KindCapability:
		_, diags := capability.Parse(data, base, scope)
		for _, d := range diags {
			out = append(out, Diagnostic{Level: d.Level, Message: d.Message, Field: d.Field})
		}
	case KindProfile:
		p, diags := profile.Parse(data, base, scope)
		diags = append(diags, profile.ValidateScope(p, scope)...)
		for _, d := range diags {
			out = append(out, Diagnostic{Level: d.Level, Message: d.Message, Field: d.Field})
		}
	}
	return out
}
