package capability

import (
	"strconv"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// SectionPrefix starts the name of a capability's system prompt section.
const SectionPrefix = "forge-capability-"

// FallbackHeader starts a fallback (user role) capability update.
const FallbackHeader = "[pi-forge capability update]\n"

// Presentation is how capability text reaches the model (§9.9).
type Presentation string

// Presentations: native system sections, or attributed user updates.
const (
	PresentationNative   Presentation = "native"
	PresentationFallback Presentation = "fallback"
)

// Section is one section change of an update: Content nil = removed.
type Section struct {
	Name    string
	Content *string
}

// RenderSystemMessageUpdate is Pi's renderSystemMessageUpdate for a system
// message with empty content: one paragraph per section, in order, joined
// with a blank line.
func RenderSystemMessageUpdate(sections []Section) string {
	parts := make([]string, 0, len(sections))
	for _, s := range sections {
		if s.Content == nil {
			parts = append(parts, `Removed system prompt section "`+s.Name+`".`)
		} else {
			parts = append(parts, `Updated system prompt section "`+s.Name+"\":\n\n"+*s.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

// UpdateKind says why a projected update exists.
type UpdateKind string

// Update kinds: at a stored anchor, for a pending event, or the full state
// re-sent after a compaction.
const (
	UpdateAnchor     UpdateKind = "anchor"
	UpdatePending    UpdateKind = "pending"
	UpdateCheckpoint UpdateKind = "checkpoint"
)

// Update is one projected capability update.
type Update struct {
	Kind           UpdateKind
	ThroughEventID string
	Sections       []Section
	Timestamp      float64
	// Message is the projected message (jsonv object): native
	// {role:"system", content:"", sections, timestamp} or fallback
	// {role:"user", content:"[pi-forge capability update]\n…", timestamp}.
	Message *jsonv.Object
}

// ActivationIDs lists the activations the update names, in order.
func (u Update) ActivationIDs() []string {
	out := make([]string, 0, len(u.Sections))
	for _, s := range u.Sections {
		if id, ok := strings.CutPrefix(s.Name, SectionPrefix); ok {
			out = append(out, id)
		}
	}
	return out
}

// ProjectedMessage builds the request message of a section delta
// (createProjectedMessage).
func ProjectedMessage(sections []Section, timestamp float64, native bool) *jsonv.Object {
	msg := jsonv.NewObject()
	if native {
		so := jsonv.NewObject()
		for _, s := range sections {
			if s.Content == nil {
				so.Set(s.Name, nil)
			} else {
				so.Set(s.Name, *s.Content)
			}
		}
		msg.Set("role", "system")
		msg.Set("content", "")
		msg.Set("sections", so)
		msg.Set("timestamp", timestamp)
		return msg
	}
	msg.Set("role", "user")
	msg.Set("content", FallbackHeader+RenderSystemMessageUpdate(sections))
	msg.Set("timestamp", timestamp)
	return msg
}

// textMap is an ordered activationId → content map of the text-bearing
// active capabilities (blank content is skipped: tool-only capabilities
// send no text).
type textMap struct {
	ids     []string
	content map[string]string
}

func textMapOf(active []Active) textMap {
	m := textMap{content: make(map[string]string, len(active))}
	for _, a := range active {
		if jsonv.TrimJS(a.Snapshot.Content) == "" {
			continue
		}
		if _, dup := m.content[a.Snapshot.ActivationID]; !dup {
			m.ids = append(m.ids, a.Snapshot.ActivationID)
		}
		m.content[a.Snapshot.ActivationID] = a.Snapshot.Content
	}
	return m
}

// delta is computeDeltaSections: added or changed in the current map's
// order, then removals in the previous map's order; nil when nothing changed.
func delta(prev, curr textMap) []Section {
	var out []Section
	for _, id := range curr.ids {
		c := curr.content[id]
		if p, ok := prev.content[id]; !ok || p != c {
			out = append(out, Section{Name: SectionPrefix + id, Content: &c})
		}
	}
	for _, id := range prev.ids {
		if _, ok := curr.content[id]; !ok {
			out = append(out, Section{Name: SectionPrefix + id})
		}
	}
	return out
}

// fullState is every text section of a map (a checkpoint update).
func fullState(m textMap) []Section {
	out := make([]Section, 0, len(m.ids))
	for _, id := range m.ids {
		c := m.content[id]
		out = append(out, Section{Name: SectionPrefix + id, Content: &c})
	}
	return out
}

// IsDeliveryMarker reports whether a message is an in-memory delivery
// marker ({role:"custom", customType:"pi-forge-capability-delivery"}).
func IsDeliveryMarker(m any) bool {
	o, ok := m.(*jsonv.Object)
	if !ok {
		return false
	}
	role, _ := o.Get("role")
	ct, _ := o.Get("customType")
	return role == "custom" && ct == DeliveryEntryType
}

// MarkerMessage is the in-memory marker a stored anchor materializes into.
func MarkerMessage(throughEventID string, timestamp float64) *jsonv.Object {
	m := jsonv.NewObject()
	m.Set("role", "custom")
	m.Set("customType", DeliveryEntryType)
	m.Set("content", []any{})
	m.Set("display", false)
	details := jsonv.NewObject()
	details.Set("schemaVersion", float64(1))
	details.Set("throughEventId", throughEventID)
	m.Set("details", details)
	m.Set("timestamp", timestamp)
	return m
}

// forwardStates yields the reducer state after each event index of a
// de-duplicated event list, moving forward only.
type forwardStates struct {
	events []Event
	r      Reducer
	at     int
}

func (f *forwardStates) mapAt(index int) (textMap, string) {
	for f.at < index {
		f.at++
		if _, msg := f.r.Apply(&f.events[f.at]); msg != "" {
			return textMap{}, "Failed to reduce event prefix: " + msg
		}
	}
	return textMapOf(f.r.active), ""
}

// ProjectMessages replaces delivery markers in messages with capability
// updates (projectCapabilityMessages, §9.9): markers up to the checkpoint
// are dropped, later ones become the delta since the previous cursor, a
// non-empty checkpoint state is re-sent after the first system message,
// and events after the last marker are replayed one at a time at the end.
// It returns the new message list, the updates in output order of
// creation (checkpoint first when present), and pi-forge's message on
// failure.
func ProjectMessages(messages []any, h *History, native bool) ([]any, []Update, string) {
	if _, rerr := Reduce(h.Events); rerr != nil {
		return nil, nil, "Invalid capability events at index " + strconv.Itoa(rerr.Index) + ": " + rerr.Message
	}
	var events []Event
	index := map[string]int{}
	for _, ev := range h.Events {
		if _, seen := index[ev.EventID]; seen {
			continue
		}
		index[ev.EventID] = len(events)
		events = append(events, ev)
	}
	checkpoint := -1
	if h.CheckpointThrough != "" {
		i, ok := index[h.CheckpointThrough]
		if !ok {
			return nil, nil, `checkpointThrough "` + h.CheckpointThrough + `" not found in branch events`
		}
		checkpoint = i
	}
	for _, m := range messages {
		if !IsDeliveryMarker(m) {
			continue
		}
		if through, msg := markerCursor(m); msg != "" {
			return nil, nil, msg
		} else if _, ok := index[through]; !ok {
			return nil, nil, `Delivery marker cursor "` + through + `" not found in branch events`
		}
	}
	states := &forwardStates{events: events, at: -1}
	var updates []Update
	cursor, current := -1, textMap{}
	var checkpointUpdate *Update
	if checkpoint >= 0 {
		m, msg := states.mapAt(checkpoint)
		if msg != "" {
			return nil, nil, msg
		}
		cursor, current = checkpoint, m
		if len(m.ids) > 0 {
			secs := fullState(m)
			ts := events[checkpoint].CreatedAt
			checkpointUpdate = &Update{Kind: UpdateCheckpoint, ThroughEventID: events[checkpoint].EventID, Sections: secs, Timestamp: ts,
				Message: ProjectedMessage(secs, ts, native)}
			updates = append(updates, *checkpointUpdate)
		}
	}
	out := make([]any, 0, len(messages)+1)
	for _, m := range messages {
		if !IsDeliveryMarker(m) {
			out = append(out, m)
			continue
		}
		through, _ := markerCursor(m)
		at := index[through]
		if checkpoint >= 0 && at <= checkpoint {
			continue
		}
		if at < cursor {
			return nil, nil, `Corrupt marker cursor: marker at "` + through + `" (index ` + strconv.Itoa(at) +
				") is earlier than current cursor position " + strconv.Itoa(cursor)
		}
		if at == cursor {
			continue
		}
		next, msg := states.mapAt(at)
		if msg != "" {
			return nil, nil, msg
		}
		secs := delta(current, next)
		current, cursor = next, at
		if secs != nil {
			ts, _ := m.(*jsonv.Object).Get("timestamp")
			tsNum, _ := ts.(float64)
			u := Update{Kind: UpdateAnchor, ThroughEventID: through, Sections: secs, Timestamp: tsNum, Message: ProjectedMessage(secs, tsNum, native)}
			out = append(out, u.Message)
			updates = append(updates, u)
		}
	}
	if checkpointUpdate != nil {
		at := 0
		for i, m := range out {
			if o, ok := m.(*jsonv.Object); ok {
				if role, _ := o.Get("role"); role == "system" {
					at = i + 1
					break
				}
			}
		}
		out = append(out[:at], append([]any{checkpointUpdate.Message}, out[at:]...)...)
	}
	for i := cursor + 1; i < len(events); i++ {
		next, msg := states.mapAt(i)
		if msg != "" {
			return nil, nil, msg
		}
		secs := delta(current, next)
		current = next
		if secs != nil {
			u := Update{Kind: UpdatePending, ThroughEventID: events[i].EventID, Sections: secs, Timestamp: events[i].CreatedAt,
				Message: ProjectedMessage(secs, events[i].CreatedAt, native)}
			out = append(out, u.Message)
			updates = append(updates, u)
		}
	}
	return out, updates, ""
}

// markerCursor validates a marker's details and returns its cursor.
func markerCursor(m any) (string, string) {
	o := m.(*jsonv.Object)
	raw, _ := o.Get("details")
	details, ok := raw.(*jsonv.Object)
	if !ok {
		return "", "Invalid capability delivery marker: details object is required"
	}
	if v, _ := details.Get("schemaVersion"); v != float64(1) {
		shown := "undefined"
		if details.Has("schemaVersion") {
			shown = jsonv.ToString(v)
		}
		return "", "Invalid capability delivery marker: schemaVersion must be 1, got " + shown
	}
	through, _ := details.Get("throughEventId")
	id, ok := through.(string)
	if !ok || id == "" {
		return "", "Invalid capability delivery marker: throughEventId must be a non-empty string"
	}
	return id, ""
}
