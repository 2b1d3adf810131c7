package replay

import (
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// ProfileStateType is the customType of pi-forge's agent-profile
// provenance entry (spec pi-forge-formats §11.4).
const ProfileStateType = "pi-forge-agent-profile-state"

// ProfileState is the latest agent-profile provenance entry on a branch.
type ProfileState struct {
	// Found is false when the branch has no such entry.
	Found bool
	// EntryID is the id of that entry.
	EntryID string
	// Provenance is the entry's data.provenance value (nil for the
	// {provenance: null} that /profile forget writes, or an unreadable
	// entry); engine/profile.ParseProvenance reads it.
	Provenance any
}

// ProfileStateAt finds the latest pi-forge-agent-profile-state entry on the
// branch ending at index (branch-local, as pi-forge reads it).
func ProfileStateAt(s *session.Session, index int) ProfileState {
	path := s.PathTo(index)
	for k := len(path) - 1; k >= 0; k-- {
		e := &s.Entries[path[k]]
		if e.Type != session.TypeCustom {
			continue
		}
		payload, err := e.Payload()
		c, ok := payload.(*session.Custom)
		if err != nil || !ok || c.CustomType != ProfileStateType {
			continue
		}
		st := ProfileState{Found: true, EntryID: e.ID}
		if v, err := jsonv.Parse(c.Data); err == nil {
			if obj, isObj := v.(*jsonv.Object); isObj {
				st.Provenance, _ = obj.Get("provenance")
			}
		}
		return st
	}
	return ProfileState{}
}

// RuntimeState is what a session says the runtime is at an entry: the model
// and thinking level in force (Pi's session settings over the path) and the
// Preset selection.
type RuntimeState struct {
	// Provider and Model are "" when no model is recorded.
	Provider, Model string
	// ThinkingLevel is Pi's level ("off" when none was recorded).
	ThinkingLevel string
	Preset        ActivePreset
}

// RuntimeStateAt reads the runtime state at the entry with index.
func RuntimeStateAt(s *session.Session, index int) RuntimeState {
	c := &session.Context{Path: s.PathTo(index), ThinkingLevel: session.RawValue(`"off"`)}
	s.ApplySettings(c)
	st := RuntimeState{ThinkingLevel: c.ThinkingLevel.StrOr("off"), Preset: ActivePresetAt(s, index)}
	if c.Model != nil {
		st.Provider, st.Model = c.Model.Provider.StrOr(""), c.Model.ModelID.StrOr("")
	}
	return st
}
