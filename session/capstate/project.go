package capstate

import (
	"fmt"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
)

// Projection is the model context at an entry with pi-forge's capability
// updates in place: what the next request would carry (§9.9).
type Projection struct {
	// Messages are the agent messages with delivery markers replaced by
	// native system sections or fallback user updates.
	Messages []any
	// Updates are the capability updates, checkpoint first when present.
	Updates []capability.Update
	// Native tells which presentation the model in force gets.
	Native bool
}

// Project builds the context at the entry with the given index, puts a
// delivery marker where each stored anchor sits among the projected
// entries (materializeCapabilityAnchors, keeping a leading system message
// first), and projects the capability history into it. An untrusted
// project gets the context without markers and no updates, as pi-forge
// strips them. st is the state at the same entry (At).
func Project(s *session.Session, st *State, trusted bool) (*Projection, error) {
	if st.Err != nil {
		return nil, fmt.Errorf("project capabilities: %w", st.Err)
	}
	p := &Projection{Native: st.Presentation == capability.PresentationNative}
	if st.Index < 0 {
		return p, nil
	}
	ctx, err := s.Context(st.Index)
	if err != nil {
		return nil, fmt.Errorf("project capabilities: %w", err)
	}
	var incoming, materialized []any
	for _, pe := range ctx.Entries {
		e := &s.Entries[pe.Index]
		if trusted && e.Type == session.TypeCustom {
			if ct, raw, _ := e.CustomPayload(); ct == capability.DeliveryEntryType {
				v, err := jsonv.Parse(raw)
				if err != nil {
					return nil, fmt.Errorf("project capabilities: entry %s: %w", e.ID, err)
				}
				through, msg := capability.ValidateAnchorData(v)
				if msg != "" {
					return nil, fmt.Errorf("project capabilities: entry %s: %s", e.ID, msg)
				}
				ts := e.TimestampMs()
				if ts != ts { // NaN: Date.parse failed
					ts = 0
				}
				materialized = append(materialized, capability.MarkerMessage(through, ts))
			}
		}
		incoming = append(incoming, pe.Messages...)
		materialized = append(materialized, pe.Messages...)
	}
	if !trusted {
		p.Messages = incoming
		return p, nil
	}
	if len(incoming) > 0 && isSystem(incoming[0]) && len(materialized) > 0 && materialized[0] != incoming[0] {
		for i, m := range materialized {
			if m == incoming[0] {
				materialized = append(append([]any{m}, materialized[:i]...), materialized[i+1:]...)
				break
			}
		}
	}
	out, updates, msg := capability.ProjectMessages(materialized, st.History, p.Native)
	if msg != "" {
		return nil, fmt.Errorf("project capabilities: %s", msg)
	}
	p.Messages, p.Updates = out, updates
	return p, nil
}

func isSystem(m any) bool {
	o, ok := m.(*jsonv.Object)
	if !ok {
		return false
	}
	role, _ := o.Get("role")
	return role == "system"
}

// SavePreflight checks a draft of the active Preset against the frozen
// snapshots of the session's leaf before it is saved (pi-forge 0.5.6): ""
// when the draft is not the Preset in force, the history is unreadable, or
// nothing conflicts; otherwise the conflict.
func SavePreflight(st *State, draft *capability.PresetRef) string {
	if st == nil || st.Runtime == nil {
		return ""
	}
	return st.Runtime.SavePreflight(draft)
}
