package profile

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// StateEntryType is the customType of the provenance session entry.
const StateEntryType = "pi-forge-agent-profile-state"

// Provenance records the last applied profile (§11.4).
type Provenance struct {
	ProfileID string
	// Scope; "" = absent (legacy records, which are project-scoped).
	Scope             preset.Scope
	SourcePath        string
	SourceFingerprint string
	// AppliedAt is an ISO-8601 timestamp supplied by the caller.
	AppliedAt string
	// The runtime snapshot that was applied.
	Model         Model
	ThinkingLevel string
	// PromptStack is the applied Preset's scoped key; nil = none.
	PromptStack *string
}

// NewProvenance builds the record for a successful application of r at
// appliedAt (the engine reads no clock).
func NewProvenance(r *Resolved, appliedAt string) Provenance {
	e := r.Entry
	p := Provenance{ProfileID: e.Profile.ID, Scope: e.Scope, SourcePath: e.Path,
		SourceFingerprint: SourceFingerprint(e.Profile), AppliedAt: appliedAt,
		Model: e.Profile.Model, ThinkingLevel: r.EffectiveThinkingLevel}
	if r.Preset != nil {
		key := r.Preset.Selector()
		p.PromptStack = &key
	}
	return p
}

// JSON returns the provenance object in pi-forge's key order.
func (p Provenance) JSON() *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("profileId", p.ProfileID)
	if p.Scope != "" {
		obj.Set("scope", string(p.Scope))
	}
	obj.Set("sourcePath", p.SourcePath)
	obj.Set("sourceFingerprint", p.SourceFingerprint)
	obj.Set("appliedAt", p.AppliedAt)
	model := jsonv.NewObject()
	model.Set("provider", p.Model.Provider)
	model.Set("id", p.Model.ID)
	snapshot := jsonv.NewObject()
	snapshot.Set("model", model)
	snapshot.Set("thinkingLevel", p.ThinkingLevel)
	if p.PromptStack != nil {
		snapshot.Set("promptStack", *p.PromptStack)
	} else {
		snapshot.Set("promptStack", nil)
	}
	obj.Set("snapshot", snapshot)
	return obj
}

// StateEntryData is the data of a pi-forge-agent-profile-state entry:
// {provenance: …} or {provenance: null} (nil, as /profile forget writes).
func StateEntryData(p *Provenance) *jsonv.Object {
	obj := jsonv.NewObject()
	if p == nil {
		obj.Set("provenance", nil)
	} else {
		obj.Set("provenance", p.JSON())
	}
	return obj
}

// ParseProvenance reads a provenance value as pi-forge's
// isAgentProfileProvenance accepts it; ok is false for null or any invalid
// shape.
func ParseProvenance(v any) (Provenance, bool) {
	var p Provenance
	obj, isObj := v.(*jsonv.Object)
	if !isObj {
		return p, false
	}
	snapshot, _ := field(obj, "snapshot").(*jsonv.Object)
	if snapshot == nil {
		return p, false
	}
	model, _ := field(snapshot, "model").(*jsonv.Object)
	if model == nil {
		return p, false
	}
	var ok bool
	if p.ProfileID, ok = field(obj, "profileId").(string); !ok || !preset.IsValidResourceID(p.ProfileID) {
		return p, false
	}
	if scope, present := obj.Get("scope"); present {
		if scope != string(preset.ScopeProject) && scope != string(preset.ScopeGlobal) {
			return p, false
		}
		p.Scope = preset.Scope(scope.(string))
	}
	if p.SourcePath, ok = field(obj, "sourcePath").(string); !ok {
		return p, false
	}
	if p.SourceFingerprint, ok = field(obj, "sourceFingerprint").(string); !ok {
		return p, false
	}
	if p.AppliedAt, ok = field(obj, "appliedAt").(string); !ok {
		return p, false
	}
	// Only non-blankness is checked; the values stay as recorded.
	if p.Model.Provider, ok = rawNonBlank(field(model, "provider")); !ok {
		return p, false
	}
	if p.Model.ID, ok = rawNonBlank(field(model, "id")); !ok {
		return p, false
	}
	if p.ThinkingLevel, ok = field(snapshot, "thinkingLevel").(string); !ok || !isThinkingLevel(p.ThinkingLevel) {
		return p, false
	}
	if stack := field(snapshot, "promptStack"); stack != nil {
		ref, ok := rawNonBlank(stack)
		if !ok {
			return p, false
		}
		p.PromptStack = &ref
	}
	return p, true
}

// rawNonBlank returns v unchanged when it is a string that is not blank
// after the JavaScript trim.
func rawNonBlank(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok && jsonv.TrimJS(s) != ""
}

func field(obj *jsonv.Object, key string) any {
	v, _ := obj.Get(key)
	return v
}

// Source states reported by SourceState.
const (
	SourceUnchanged = "unchanged"
	SourceChanged   = "changed"
	SourceMissing   = "missing"
)

// SourceState compares the recorded sourceFingerprint with the profile now
// loaded from the recorded sourcePath: "missing" when no entry has that
// path, else "unchanged" or "changed".
func SourceState(c *Catalog, p Provenance) string {
	if c != nil {
		for _, e := range c.Entries {
			if e.Path == p.SourcePath {
				if SourceFingerprint(e.Profile) == p.SourceFingerprint {
					return SourceUnchanged
				}
				return SourceChanged
			}
		}
	}
	return SourceMissing
}
