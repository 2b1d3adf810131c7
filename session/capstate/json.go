package capstate

import (
	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
)

// StatusValue is the script contract of `capability status --json`:
// exactly {leafId, activePreset, active, lastEventId, pendingEventIds,
// delivery, presentation, effectiveTools, abandonedWrites}. activePreset is
// the branch's recorded selection ("scope:id" or "none") or null when none
// is recorded; effectiveTools is null when the session does not tell which
// tools are selected; abandonedWrites (added last, after the keys scripts
// already read) lists st.Abandoned as [{entryIds, parentId, timestamp}].
func StatusValue(st *State) *jsonv.Object {
	out := jsonv.NewObject()
	if st.Index >= 0 {
		out.Set("leafId", st.ID)
	} else {
		out.Set("leafId", nil)
	}
	if st.StoredPreset != nil {
		out.Set("activePreset", *st.StoredPreset)
	} else {
		out.Set("activePreset", nil)
	}
	active := make([]any, 0, len(st.Active()))
	for _, a := range st.Active() {
		active = append(active, ActiveValue(a))
	}
	out.Set("active", active)
	if last := st.lastEventID(); last != "" {
		out.Set("lastEventId", last)
	} else {
		out.Set("lastEventId", nil)
	}
	pending := make([]any, 0, len(st.Pending))
	for _, ev := range st.Pending {
		pending = append(pending, ev.EventID)
	}
	out.Set("pendingEventIds", pending)
	out.Set("delivery", string(st.Delivery))
	out.Set("presentation", string(st.Presentation))
	if st.EffectiveTools != nil {
		out.Set("effectiveTools", stringsValue(st.EffectiveTools))
	} else {
		out.Set("effectiveTools", nil)
	}
	abandoned := make([]any, 0, len(st.Abandoned))
	for _, w := range st.Abandoned {
		o := jsonv.NewObject()
		o.Set("entryIds", stringsValue(w.IDs))
		if w.ParentID != "" {
			o.Set("parentId", w.ParentID)
		} else {
			o.Set("parentId", nil)
		}
		o.Set("timestamp", w.Timestamp)
		abandoned = append(abandoned, o)
	}
	out.Set("abandonedWrites", abandoned)
	return out
}

// ActiveValue is one active capability of the status contract:
// {activationId, actor, source, bindingId?, name?, content, tools,
// fingerprint, eventId, createdAt}.
func ActiveValue(a capability.Active) *jsonv.Object {
	s := a.Snapshot
	o := jsonv.NewObject()
	o.Set("activationId", s.ActivationID)
	o.Set("actor", string(a.Actor))
	o.Set("source", s.SourceLabel())
	if b := s.BindingID(); b != "" {
		o.Set("bindingId", b)
	}
	if s.Name != nil {
		o.Set("name", *s.Name)
	}
	o.Set("content", s.Content)
	tools := jsonv.NewObject()
	tools.Set("add", stringsValue(s.Tools.Add))
	tools.Set("remove", stringsValue(s.Tools.Remove))
	o.Set("tools", tools)
	o.Set("fingerprint", s.Fingerprint)
	o.Set("eventId", a.EventID)
	o.Set("createdAt", a.CreatedAt)
	return o
}

func stringsValue(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
