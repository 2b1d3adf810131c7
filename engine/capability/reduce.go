package capability

// Active is one active capability in a session: the frozen snapshot and
// who activated it when.
type Active struct {
	Snapshot  Snapshot
	Actor     Actor
	EventID   string
	CreatedAt float64
}

// State is the reducer result (reduceCapabilityEvents): the active
// capabilities in activation order and the last new event id ("" = none).
type State struct {
	Active      []Active
	LastEventID string
}

// Patches returns the tool patches of the active capabilities in order.
func (s State) Patches() []ToolPatch {
	out := make([]ToolPatch, len(s.Active))
	for i, a := range s.Active {
		out[i] = a.Snapshot.Tools
	}
	return out
}

// ReduceError is a reducer failure at an event index.
type ReduceError struct {
	Index   int
	Message string
}

// Reducer folds events one at a time; the zero value is an empty state.
// It enforces exactly the reducer's rules (§9.8): identical replays are
// no-ops, conflicting replays, reused activation ids, duplicate active
// bindings and ownership violations fail.
type Reducer struct {
	active      []Active
	seenEvents  map[string]*Event // eventId → its first occurrence
	seenActIDs  map[string]bool
	lastEventID string
}

// Apply folds one event; it returns pi-forge's message on failure (the
// state is then unchanged) and reports whether the event was new.
func (r *Reducer) Apply(ev *Event) (isNew bool, msg string) {
	if r.seenEvents == nil {
		r.seenEvents, r.seenActIDs = map[string]*Event{}, map[string]bool{}
	}
	if prev, seen := r.seenEvents[ev.EventID]; seen {
		// Canonical JSON is only needed to compare a replay.
		if prev.Canonical() == ev.Canonical() {
			return false, ""
		}
		return false, "Duplicate eventId with conflicting payload: " + ev.EventID
	}
	switch ev.Op {
	case OpActivate:
		snap := ev.Snapshot
		if r.seenActIDs[snap.ActivationID] {
			return false, "activationId cannot be reused in the same branch: " + snap.ActivationID
		}
		if b := snap.Source.Binding; b != nil {
			for _, a := range r.active {
				if ab := a.Snapshot.Source.Binding; ab != nil && ab.Preset == b.Preset && ab.ID == b.ID {
					return false, "Duplicate preset binding id currently active: " + b.Preset.String() + " -> " + b.ID
				}
			}
		}
		r.seenActIDs[snap.ActivationID] = true
		r.active = append(r.active, Active{Snapshot: *snap, Actor: ev.Actor, EventID: ev.EventID, CreatedAt: ev.CreatedAt})
	case OpDeactivate:
		target := -1
		for i, a := range r.active {
			if a.Snapshot.ActivationID == ev.ActivationID {
				target = i
				break
			}
		}
		if target >= 0 {
			t := r.active[target]
			if ev.Actor == ActorAgent && t.Actor == ActorUser {
				return false, "Agent cannot deactivate user-owned activation: " + ev.ActivationID
			}
			if ev.Actor == ActorLifecycle && t.Snapshot.Source.Binding == nil {
				return false, "Lifecycle can only deactivate capability with binding: " + ev.ActivationID
			}
			copy(r.active[target:], r.active[target+1:])
			r.active[len(r.active)-1] = Active{}
			r.active = r.active[:len(r.active)-1]
		}
	case OpReset:
		r.active = nil
	}
	r.seenEvents[ev.EventID] = ev
	r.lastEventID = ev.EventID
	return true, ""
}

// State returns a copy of the current state.
func (r *Reducer) State() State {
	return State{Active: append([]Active(nil), r.active...), LastEventID: r.lastEventID}
}

// Reduce folds a whole event list (reduceCapabilityEvents), failing fast.
func Reduce(events []Event) (State, *ReduceError) {
	var r Reducer
	for i := range events {
		if _, msg := r.Apply(&events[i]); msg != "" {
			return State{}, &ReduceError{Index: i, Message: msg}
		}
	}
	return r.State(), nil
}
