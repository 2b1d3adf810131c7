package capability

import (
	"strconv"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Legacy (pre-0.5.5 "instruction mode") entry types that make a branch's
// capability history unreadable (§9.5, §9.8).
const (
	legacyEventType    = "pi-forge-instruction-event"
	legacyToolsType    = "pi-forge-instruction-tools"
	legacyDeliveryType = "pi-forge-instruction-delivery"
)

// Messages of the history reader (readCapabilitySession).
const (
	msgLegacyState    = "This session contains legacy pre-capability state. Start a new session; old capability state is not restored."
	msgLegacyDelivery = "This session contains legacy pre-capability delivery state. Start a new session; old capability state is not restored."
)

// MaxToolsListLength and MaxToolsNameLength bound a tools baseline entry.
const (
	MaxToolsListLength = 4096
	MaxToolsNameLength = 1024
)

// RecordKind classifies a branch entry for the history reader.
type RecordKind uint8

// Record kinds: everything else on a branch is irrelevant to capabilities.
const (
	RecordCompaction RecordKind = iota + 1
	RecordCustom
	RecordCustomMessage
)

// Record is one branch entry as the capability history reader needs it. The
// session layer passes, in branch order, every compaction entry and every
// custom / custom_message entry whose customType matters (IsHistoryType).
type Record struct {
	Kind       RecordKind
	CustomType string
	// Payload is the decoded `data` of a custom entry or the `details` of a
	// custom_message entry (jsonv value); Present is false when the key is
	// absent (undefined in JavaScript). Raw may carry the undecoded JSON
	// instead (Payload nil, Present true): it is then decoded on first use,
	// and a well-formed delivery anchor is read without building a value.
	Payload any
	Raw     []byte
	Present bool
	// EntryIndex is the entry's position in the session (for diagnostics
	// and for locating anchors); EntryID its id.
	EntryIndex int
	EntryID    string

	// decoded caches the event decode of an event record between reads.
	decoded   *Event
	decodeMsg string
}

// payload returns the record's decoded payload, decoding Raw once; a raw
// payload that is not JSON reports the parser's message.
func (r *Record) payload() (any, string) {
	if r.Payload == nil && r.Raw != nil {
		v, err := jsonv.Parse(r.Raw)
		if err != nil {
			return nil, "invalid JSON: " + err.Error()
		}
		r.Payload, r.Raw = v, nil
	}
	return r.Payload, ""
}

// anchorCursor reads a delivery anchor payload: the common exact form
// {"schemaVersion":1,"throughEventId":"<resource id>"} straight from the
// raw bytes, anything else through ValidateAnchorData.
func (r *Record) anchorCursor() (string, string) {
	if r.Payload == nil && r.Raw != nil {
		const head, tail = `{"schemaVersion":1,"throughEventId":"`, `"}`
		raw := r.Raw
		if len(raw) > len(head)+len(tail) && string(raw[:len(head)]) == head && string(raw[len(raw)-len(tail):]) == tail {
			if id := string(raw[len(head) : len(raw)-len(tail)]); len(id) <= MaxIDLength && preset.IsValidResourceID(id) {
				return id, ""
			}
		}
	}
	if !r.Present {
		return ValidateAnchorData(nil)
	}
	v, msg := r.payload()
	if msg != "" {
		return "", "Invalid capability anchor metadata: data must be a non-null object"
	}
	return ValidateAnchorData(v)
}

// IsHistoryType reports whether a custom or custom_message entry of this
// customType takes part in capability history reading; other entries only
// matter when they are compactions.
func IsHistoryType(customType string) bool {
	switch customType {
	case EventEntryType, ToolsEntryType, DeliveryEntryType, legacyEventType, legacyToolsType, legacyDeliveryType:
		return true
	}
	return false
}

// ToolsSnapshot is a tool policy baseline snapshot ({baseline, lastApplied},
// pi-forge's ToolPolicySnapshot) as stored in pi-forge-capability-tools.
type ToolsSnapshot struct {
	Baseline    []string
	LastApplied []string
}

// Data is the entry payload {schemaVersion:1, baseline, lastApplied}.
func (t ToolsSnapshot) Data() *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("schemaVersion", float64(1))
	obj.Set("baseline", stringsToJSON(t.Baseline))
	obj.Set("lastApplied", stringsToJSON(t.LastApplied))
	return obj
}

// Same reports whether two snapshots would JSON.stringify the same (order
// matters); a nil snapshot equals only nil.
func (t *ToolsSnapshot) Same(o *ToolsSnapshot) bool {
	if t == nil || o == nil {
		return t == o
	}
	return sameOrdered(t.Baseline, o.Baseline) && sameOrdered(t.LastApplied, o.LastApplied)
}

func sameOrdered(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Anchor is one stored delivery anchor (a plain custom entry).
type Anchor struct {
	// EventIndex is the cursor: the index in History.Events of the event it
	// delivers through.
	EventIndex int
	// Record is the position of the anchor in the records passed to
	// ReadHistory.
	Record int
}

// History is a branch's capability history (readCapabilitySession).
type History struct {
	// Events holds every decoded event in branch order, identical replays
	// included (indexes into it are pi-forge's cursors).
	Events []Event
	// EventRecords[i] is the record position of Events[i].
	EventRecords []int
	// CheckpointThrough is the last new event id seen before the latest
	// compaction ("" = no checkpoint).
	CheckpointThrough string
	// Tools is the latest tools baseline snapshot; nil when there is none
	// (or the latest entry had no data).
	Tools *ToolsSnapshot
	// ToolsRecord is the record position of the latest tools entry (-1).
	ToolsRecord int
	// LastAnchoredIndex is the event index of the latest anchor (-1: none).
	LastAnchoredIndex int
	// Anchors are the stored anchors in order (custom entries only).
	Anchors []Anchor
	// Reduced is the reducer state over Events.
	Reduced State

	firstIndex map[string]int
}

// HistoryError is a history that cannot be read; Message is pi-forge's.
type HistoryError struct {
	Message string
	// Record is the record position that failed (-1 when the failure
	// concerns the whole history, e.g. the reducer or the tools entry).
	Record int
}

// Error implements error with the message pi-forge shows.
func (e *HistoryError) Error() string { return e.Message }

// ReadHistory reads a branch's capability history from its records in
// branch order, with pi-forge's checks and messages (§9.8): legacy entries,
// event decoding, delivery anchor cursors, then the reducer, then the
// latest tools baseline.
func ReadHistory(records []Record) (*History, *HistoryError) {
	events := 0
	for _, r := range records {
		if r.CustomType == EventEntryType {
			events++
		}
	}
	h := &History{LastAnchoredIndex: -1, ToolsRecord: -1, firstIndex: make(map[string]int, events),
		Events: make([]Event, 0, events), EventRecords: make([]int, 0, events)}
	lastNew := ""
	var toolsPayload any
	toolsPresent := false
	for pos, r := range records {
		switch r.Kind {
		case RecordCompaction:
			h.CheckpointThrough = lastNew
		case RecordCustom:
			switch r.CustomType {
			case legacyEventType, legacyToolsType, legacyDeliveryType:
				return nil, &HistoryError{Message: msgLegacyState, Record: pos}
			case EventEntryType:
				rec := &records[pos]
				if rec.decoded == nil && rec.decodeMsg == "" && rec.Payload == nil && rec.Raw != nil {
					if ev, ok := fastDecodeEvent(rec.Raw); ok {
						rec.decoded = &ev
					}
				}
				if rec.decoded == nil && rec.decodeMsg == "" {
					v, msg := rec.payload()
					ev := Event{}
					if msg == "" {
						ev, msg = DecodeEvent(payloadOrUndefined(*rec, v))
					}
					rec.decoded, rec.decodeMsg = &ev, msg
				}
				ev, msg := *rec.decoded, rec.decodeMsg
				if msg != "" {
					return nil, &HistoryError{Message: "Invalid Forge capability history: " + msg, Record: pos}
				}
				h.Events = append(h.Events, ev)
				h.EventRecords = append(h.EventRecords, pos)
				if _, seen := h.firstIndex[ev.EventID]; !seen {
					h.firstIndex[ev.EventID] = len(h.Events) - 1
					lastNew = ev.EventID
				}
			case ToolsEntryType:
				toolsPayload, _ = records[pos].payload()
				toolsPresent = r.Present
				h.ToolsRecord = pos
			case DeliveryEntryType:
				through, msg := records[pos].anchorCursor()
				if msg != "" {
					return nil, &HistoryError{Message: msg, Record: pos}
				}
				cursor, known := h.firstIndex[through]
				if !known {
					return nil, &HistoryError{Message: `Invalid Forge capability delivery anchor: unknown or future cursor "` + through + `"`, Record: pos}
				}
				if cursor < h.LastAnchoredIndex {
					return nil, &HistoryError{Message: `Invalid Forge capability delivery anchor: out-of-order cursor "` + through + `" (index ` +
						strconv.Itoa(cursor) + " < " + strconv.Itoa(h.LastAnchoredIndex) + ")", Record: pos}
				}
				h.LastAnchoredIndex = cursor
				h.Anchors = append(h.Anchors, Anchor{EventIndex: cursor, Record: pos})
			}
		case RecordCustomMessage:
			switch r.CustomType {
			case legacyDeliveryType:
				return nil, &HistoryError{Message: msgLegacyDelivery, Record: pos}
			case DeliveryEntryType:
				// The pre-0.5.5 carrier: tolerated, advances the cursor.
				v, _ := records[pos].payload()
				details, _ := v.(*jsonv.Object)
				through, _ := details.Get("throughEventId")
				if id, ok := through.(string); ok {
					if cursor, known := h.firstIndex[id]; known && cursor >= h.LastAnchoredIndex {
						h.LastAnchoredIndex = cursor
					}
				}
			}
		}
	}
	state, rerr := Reduce(h.Events)
	if rerr != nil {
		return nil, &HistoryError{Message: "Invalid Forge capability event " + strconv.Itoa(rerr.Index) + ": " + rerr.Message, Record: h.EventRecords[rerr.Index]}
	}
	h.Reduced = state
	if toolsPresent {
		tools, msg := DecodeToolsData(toolsPayload)
		if msg != "" {
			return nil, &HistoryError{Message: msg, Record: h.ToolsRecord}
		}
		h.Tools = &tools
	}
	return h, nil
}

// payloadOrUndefined returns the payload, or a value no decoder accepts as
// an object when the key was absent.
func payloadOrUndefined(r Record, v any) any {
	if !r.Present {
		return nil
	}
	return v
}

// FirstIndex returns the index of the first occurrence of an event id.
func (h *History) FirstIndex(eventID string) (int, bool) {
	i, ok := h.firstIndex[eventID]
	return i, ok
}

// CheckpointIndex is the event index of CheckpointThrough (-1 when none).
func (h *History) CheckpointIndex() int {
	if h.CheckpointThrough == "" {
		return -1
	}
	i, ok := h.firstIndex[h.CheckpointThrough]
	if !ok {
		return -1
	}
	return i
}

// PendingEvents are the first-occurrence events after the latest anchor
// and the checkpoint (§9.9): the events no request has been prepared for.
func (h *History) PendingEvents() []Event {
	through := max(h.LastAnchoredIndex, h.CheckpointIndex())
	var out []Event
	for i, ev := range h.Events {
		if i > through && h.firstIndex[ev.EventID] == i {
			out = append(out, ev)
		}
	}
	return out
}

// DecodeToolsData validates a tools baseline payload (decodeCapabilityTools).
func DecodeToolsData(raw any) (ToolsSnapshot, string) {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return ToolsSnapshot{}, "Invalid Forge tool baseline."
	}
	if v, _ := obj.Get("schemaVersion"); v != float64(1) {
		return ToolsSnapshot{}, "Unsupported Forge tool baseline schema."
	}
	if _, bad := firstKeyOutside(obj, "schemaVersion", "baseline", "lastApplied"); bad {
		return ToolsSnapshot{}, "Unsupported Forge tool baseline schema."
	}
	var out ToolsSnapshot
	for _, key := range []string{"baseline", "lastApplied"} {
		v, _ := obj.Get(key)
		list, ok := toolsList(v)
		if !ok {
			return ToolsSnapshot{}, "Invalid Forge tool baseline " + key + "."
		}
		if key == "baseline" {
			out.Baseline = list
		} else {
			out.LastApplied = list
		}
	}
	return out, ""
}

func toolsList(v any) ([]string, bool) {
	items, ok := v.([]any)
	if !ok || len(items) > MaxToolsListLength {
		return nil, false
	}
	out := make([]string, len(items))
	for i, item := range items {
		s, ok := item.(string)
		if !ok || s == "" || jsonv.UTF16Len(s) > MaxToolsNameLength || hasASCIIControl(s) {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func hasASCIIControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// ValidateAnchorData validates a delivery anchor payload
// (validateCapabilityAnchorData) and returns its cursor.
func ValidateAnchorData(raw any) (string, string) {
	const prefix = "Invalid capability anchor metadata: "
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return "", prefix + "data must be a non-null object"
	}
	if k, bad := firstKeyOutside(obj, "schemaVersion", "throughEventId"); bad {
		return "", prefix + `unexpected extra field "` + k + `"`
	}
	version, hasVersion := obj.Get("schemaVersion")
	if !hasVersion {
		return "", prefix + "missing required field schemaVersion"
	}
	through, hasThrough := obj.Get("throughEventId")
	if !hasThrough {
		return "", prefix + "missing required field throughEventId"
	}
	if version != float64(1) {
		return "", prefix + "unsupported schemaVersion " + jsonv.ToString(version) + ", expected 1"
	}
	id, ok := through.(string)
	if !ok || id == "" {
		return "", prefix + "throughEventId must be a non-empty string"
	}
	if n := jsonv.UTF16Len(id); n > MaxIDLength {
		return "", prefix + "throughEventId length exceeds " + strconv.Itoa(MaxIDLength) + " characters (" + strconv.Itoa(n) + ")"
	}
	for _, r := range id {
		if r <= 0x1f || (r >= 0x7f && r <= 0x9f) {
			return "", prefix + "throughEventId contains control characters"
		}
	}
	return id, ""
}

// AnchorData is the payload of a delivery anchor entry.
func AnchorData(throughEventID string) *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("schemaVersion", float64(1))
	obj.Set("throughEventId", throughEventID)
	return obj
}
