package capability

import (
	"math"
	"strconv"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// Custom entry types pi-forge writes into Pi sessions (§9.5).
const (
	EventEntryType    = "pi-forge-capability-event"
	ToolsEntryType    = "pi-forge-capability-tools"
	DeliveryEntryType = "pi-forge-capability-delivery"
	// PresetStateEntryType records the active Preset selection (§14.2).
	PresetStateEntryType = "pi-forge-prompt-stack-state"
)

// MaxIDLength bounds eventId, activationId and control-call ids (§9.6, §9.11).
const MaxIDLength = 128

// Op is a capability event operation.
type Op string

// Event operations.
const (
	OpActivate   Op = "activate"
	OpDeactivate Op = "deactivate"
	OpReset      Op = "reset"
)

// Actor says who caused an event.
type Actor string

// Actors. Lifecycle only deactivates (a Preset switch retiring bindings).
const (
	ActorUser      Actor = "user"
	ActorAgent     Actor = "agent"
	ActorLifecycle Actor = "lifecycle"
)

// Event is one decoded capability event (§9.6). Exactly one of Snapshot
// (activate) or ActivationID (deactivate) is set; reset carries neither.
type Event struct {
	EventID   string
	Op        Op
	Actor     Actor
	CreatedAt float64
	// Snapshot is the frozen activation (activate only).
	Snapshot *Snapshot
	// ActivationID is the activation to stop (deactivate only).
	ActivationID string

	canonical string
}

// JSON returns the event object exactly as pi-forge persists the decoded
// event: schemaVersion, eventId, op, actor, createdAt, then snapshot or
// activationId.
func (e Event) JSON() *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("schemaVersion", float64(1))
	obj.Set("eventId", e.EventID)
	obj.Set("op", string(e.Op))
	obj.Set("actor", string(e.Actor))
	obj.Set("createdAt", e.CreatedAt)
	switch e.Op {
	case OpActivate:
		obj.Set("snapshot", e.Snapshot.JSON())
	case OpDeactivate:
		obj.Set("activationId", e.ActivationID)
	}
	return obj
}

// Canonical is the canonical JSON of the event, the identity the reducer
// uses to tell an identical replay from a conflicting one.
func (e *Event) Canonical() string {
	if e.canonical == "" {
		// Only strings, finite numbers and arrays of strings: cannot fail.
		e.canonical, _ = fingerprint.CanonicalJSON(e.JSON())
	}
	return e.canonical
}

// SourceLabel is how status and disable name a snapshot's source: "manual"
// or the capability key "scope:id".
func (s Snapshot) SourceLabel() string {
	if s.Source.Kind == SourceManual {
		return "manual"
	}
	return s.Source.Key.String()
}

// BindingID is the id of the Preset binding the snapshot came through, or "".
func (s Snapshot) BindingID() string {
	if s.Source.Binding == nil {
		return ""
	}
	return s.Source.Binding.ID
}

// isEventID reports whether v is a valid event or activation id: a string
// of 1..128 characters matching the resource-id grammar.
func isEventID(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok && len(s) <= MaxIDLength && preset.IsValidResourceID(s)
}

// DecodeEvent validates one raw event payload (decodeCapabilityEvent): raw
// is a jsonv value. On failure the message is pi-forge's, byte for byte.
func DecodeEvent(raw any) (Event, string) {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return Event{}, "Event must be a plain object"
	}
	if v, _ := obj.Get("schemaVersion"); v != float64(1) {
		return Event{}, "schemaVersion must be 1"
	}
	rawEventID, _ := obj.Get("eventId")
	eventID, ok := isEventID(rawEventID)
	if !ok {
		return Event{}, "Invalid eventId"
	}
	rawCreated, _ := obj.Get("createdAt")
	createdAt, ok := rawCreated.(float64)
	if !ok || math.IsInf(createdAt, 0) || math.IsNaN(createdAt) || createdAt < 0 {
		return Event{}, "createdAt must be a non-negative finite number"
	}
	if createdAt == 0 {
		createdAt = 0 // -0 is ≥ 0 in JavaScript; keep it plain
	}
	ev := Event{EventID: eventID, CreatedAt: createdAt}
	rawOp, _ := obj.Get("op")
	actor, _ := obj.Get("actor")
	switch rawOp {
	case string(OpActivate):
		if k, bad := firstKeyOutside(obj, "schemaVersion", "eventId", "op", "actor", "createdAt", "snapshot"); bad {
			return Event{}, "Unexpected property on activate event: " + k
		}
		if actor != string(ActorUser) && actor != string(ActorAgent) {
			return Event{}, "Activate actor must be user or agent"
		}
		snapValue, _ := obj.Get("snapshot")
		snap, msg := decodeSnapshot(snapValue, Actor(actor.(string)))
		if msg != "" {
			return Event{}, msg
		}
		ev.Op, ev.Actor, ev.Snapshot = OpActivate, Actor(actor.(string)), snap
	case string(OpDeactivate):
		if k, bad := firstKeyOutside(obj, "schemaVersion", "eventId", "op", "actor", "createdAt", "activationId"); bad {
			return Event{}, "Unexpected property on deactivate event: " + k
		}
		if actor != string(ActorUser) && actor != string(ActorAgent) && actor != string(ActorLifecycle) {
			return Event{}, "Deactivate actor must be user, agent, or lifecycle"
		}
		rawActivation, _ := obj.Get("activationId")
		activationID, ok := isEventID(rawActivation)
		if !ok {
			return Event{}, "Invalid activationId"
		}
		ev.Op, ev.Actor, ev.ActivationID = OpDeactivate, Actor(actor.(string)), activationID
	case string(OpReset):
		if k, bad := firstKeyOutside(obj, "schemaVersion", "eventId", "op", "actor", "createdAt"); bad {
			return Event{}, "Unexpected property on reset event: " + k
		}
		if actor != string(ActorUser) {
			return Event{}, "Reset actor must be user"
		}
		ev.Op, ev.Actor = OpReset, ActorUser
	default:
		return Event{}, "Invalid op" + displaySuffix(rawOp)
	}
	return ev, ""
}

// displaySuffix is pi-forge's `: ${value}` for strings, numbers and
// booleans and "" for anything else (null, objects, arrays, a missing value).
func displaySuffix(v any) string {
	switch v.(type) {
	case string, float64, bool:
		return ": " + jsonv.ToString(v)
	}
	return ""
}

// firstKeyOutside returns the first own key of obj (in JavaScript
// enumeration order) that is not one of allowed; ok is false when every key
// is allowed.
func firstKeyOutside(obj *jsonv.Object, allowed ...string) (key string, ok bool) {
	obj.Range(func(k string, _ any) bool {
		for _, a := range allowed {
			if k == a {
				return true
			}
		}
		key, ok = k, true
		return false
	})
	return key, ok
}

// decodeSnapshot validates the snapshot of an activate event in pi-forge's
// order: keys, activationId, source, actor rules, name, content, tools,
// blank check, fingerprint format and value.
func decodeSnapshot(raw any, actor Actor) (*Snapshot, string) {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return nil, "snapshot must be a plain object"
	}
	if k, bad := firstKeyOutside(obj, "activationId", "source", "name", "content", "tools", "fingerprint"); bad {
		return nil, "Unexpected property on snapshot: " + k
	}
	rawActivation, _ := obj.Get("activationId")
	activationID, ok := isEventID(rawActivation)
	if !ok {
		return nil, "Invalid snapshot activationId"
	}
	rawSource, _ := obj.Get("source")
	source, msg := decodeSource(rawSource)
	if msg != "" {
		return nil, msg
	}
	if actor == ActorAgent && (source.Kind != SourceCapability || source.Binding == nil) {
		return nil, "agent activation must have source capability with binding"
	}
	if source.Kind == SourceManual && actor != ActorUser {
		return nil, "manual source can only be activated by user"
	}
	snap := &Snapshot{ActivationID: activationID, Source: source}
	if rawName, present := obj.Get("name"); present {
		name, isString := rawName.(string)
		if !isString || jsonv.UTF16Len(name) > MaxNameLength {
			return nil, "name must be a string <= " + strconv.Itoa(MaxNameLength)
		}
		snap.Name = &name
	}
	rawContent, _ := obj.Get("content")
	content, isString := rawContent.(string)
	if !isString || jsonv.UTF16Len(content) > MaxContentLength {
		return nil, "content must be a string <= " + strconv.Itoa(MaxContentLength)
	}
	snap.Content = content
	rawTools, _ := obj.Get("tools")
	tools, msg := decodeSnapshotTools(rawTools)
	if msg != "" {
		return nil, msg
	}
	snap.Tools = tools
	if jsonv.TrimJS(content) == "" && !tools.HasEffect() {
		return nil, "Snapshot must have non-empty content or at least one tool effect"
	}
	rawFingerprint, _ := obj.Get("fingerprint")
	fp, isString := rawFingerprint.(string)
	if !isString || !fingerprint.IsFingerprint(fp) {
		return nil, "Invalid snapshot fingerprint format"
	}
	if fp != SnapshotFingerprint(source, snap.Name, content, tools) {
		return nil, "Snapshot fingerprint mismatch"
	}
	snap.Fingerprint = fp
	return snap, ""
}

// decodeSource validates a snapshot source (validateSource).
func decodeSource(raw any) (SnapshotSource, string) {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return SnapshotSource{}, "source must be a plain object"
	}
	kind, _ := obj.Get("kind")
	switch kind {
	case string(SourceManual):
		if obj.Len() != 1 {
			return SnapshotSource{}, "manual source must only have kind property"
		}
		return SnapshotSource{Kind: SourceManual}, ""
	case string(SourceCapability):
	default:
		return SnapshotSource{}, "Invalid source kind" + displaySuffix(kind)
	}
	if k, bad := firstKeyOutside(obj, "kind", "key", "binding"); bad {
		return SnapshotSource{}, "source has unknown property: " + k
	}
	rawKey, _ := obj.Get("key")
	keyObj, ok := rawKey.(*jsonv.Object)
	if !ok {
		return SnapshotSource{}, "capability source requires key object"
	}
	if keyObj.Len() != 2 || !keyObj.Has("scope") || !keyObj.Has("id") {
		return SnapshotSource{}, "capability key must only contain scope and id"
	}
	scope, _ := keyObj.Get("scope")
	if !isScope(scope) {
		return SnapshotSource{}, "Invalid capability key scope"
	}
	keyID, _ := keyObj.Get("id")
	id, isString := keyID.(string)
	if !isString || !preset.IsValidResourceID(id) {
		return SnapshotSource{}, "Invalid capability key id"
	}
	src := SnapshotSource{Kind: SourceCapability, Key: Key{Scope: preset.Scope(scope.(string)), ID: id}}
	rawBinding, present := obj.Get("binding")
	if !present {
		return src, ""
	}
	bindingObj, ok := rawBinding.(*jsonv.Object)
	if !ok {
		return SnapshotSource{}, "binding must be a plain object"
	}
	if bindingObj.Len() != 2 || !bindingObj.Has("preset") || !bindingObj.Has("id") {
		return SnapshotSource{}, "binding must only contain preset and id"
	}
	rawPreset, _ := bindingObj.Get("preset")
	presetObj, ok := rawPreset.(*jsonv.Object)
	if !ok {
		return SnapshotSource{}, "binding preset must be a plain object"
	}
	if presetObj.Len() != 2 || !presetObj.Has("scope") || !presetObj.Has("id") {
		return SnapshotSource{}, "binding preset must only contain scope and id"
	}
	presetScope, _ := presetObj.Get("scope")
	if !isScope(presetScope) {
		return SnapshotSource{}, "Invalid binding preset scope"
	}
	rawPresetID, _ := presetObj.Get("id")
	presetID, isString := rawPresetID.(string)
	if !isString || !preset.IsValidResourceID(presetID) {
		return SnapshotSource{}, "Invalid binding preset id"
	}
	rawBindingID, _ := bindingObj.Get("id")
	bindingID, isString := rawBindingID.(string)
	if !isString || !preset.IsValidResourceID(bindingID) {
		return SnapshotSource{}, "Invalid binding id"
	}
	if presetScope == string(preset.ScopeGlobal) && src.Key.Scope == preset.ScopeProject {
		return SnapshotSource{}, "Global preset cannot bind project capability"
	}
	src.Binding = &SnapshotBinding{Preset: Key{Scope: preset.Scope(presetScope.(string)), ID: presetID}, ID: bindingID}
	return src, ""
}

func isScope(v any) bool {
	return v == string(preset.ScopeProject) || v == string(preset.ScopeGlobal)
}

// decodeSnapshotTools validates a snapshot tool patch (validateTools):
// exactly the add and remove arrays, each ≤ 256 valid concrete tool names.
func decodeSnapshotTools(raw any) (ToolPatch, string) {
	obj, ok := raw.(*jsonv.Object)
	if !ok {
		return ToolPatch{}, "tools must be a plain object"
	}
	if obj.Len() != 2 || !obj.Has("add") || !obj.Has("remove") {
		return ToolPatch{}, "tools must contain exactly add and remove arrays"
	}
	addRaw, _ := obj.Get("add")
	add, ok := addRaw.([]any)
	if !ok {
		return ToolPatch{}, "tools.add must be an array"
	}
	removeRaw, _ := obj.Get("remove")
	remove, ok := removeRaw.([]any)
	if !ok {
		return ToolPatch{}, "tools.remove must be an array"
	}
	if len(add) > MaxToolListLength {
		return ToolPatch{}, "tools.add exceeds max length " + strconv.Itoa(MaxToolListLength)
	}
	if len(remove) > MaxToolListLength {
		return ToolPatch{}, "tools.remove exceeds max length " + strconv.Itoa(MaxToolListLength)
	}
	patch := ToolPatch{Add: make([]string, len(add)), Remove: make([]string, len(remove))}
	for _, list := range []struct {
		name string
		in   []any
		out  []string
	}{{"tools.add", add, patch.Add}, {"tools.remove", remove, patch.Remove}} {
		for i, v := range list.in {
			name, isString := v.(string)
			if !isString || !preset.IsValidToolName(name) {
				return ToolPatch{}, "Invalid tool name in " + list.name + " at index " + strconv.Itoa(i)
			}
			list.out[i] = name
		}
	}
	return patch, ""
}

// NewActivateEvent builds an activate event (the payload of a
// pi-forge-capability-event entry) for a snapshot.
func NewActivateEvent(eventID string, actor Actor, createdAt float64, snap Snapshot) Event {
	s := snap
	return Event{EventID: eventID, Op: OpActivate, Actor: actor, CreatedAt: createdAt, Snapshot: &s}
}

// NewDeactivateEvent builds a deactivate event.
func NewDeactivateEvent(eventID string, actor Actor, createdAt float64, activationID string) Event {
	return Event{EventID: eventID, Op: OpDeactivate, Actor: actor, CreatedAt: createdAt, ActivationID: activationID}
}

// NewResetEvent builds a reset event (always actor user).
func NewResetEvent(eventID string, createdAt float64) Event {
	return Event{EventID: eventID, Op: OpReset, Actor: ActorUser, CreatedAt: createdAt}
}

// CheckSnapshotInput validates the input of a new snapshot the way
// createCapabilitySnapshot does before freezing it; the message is
// pi-forge's TypeError text, "" when the input is fine.
func CheckSnapshotInput(activationID string, name *string, content string, tools ToolPatch) string {
	if _, ok := isEventID(activationID); !ok {
		return "activationId must be a valid resource id <= 128 chars"
	}
	if name != nil && jsonv.UTF16Len(*name) > MaxNameLength {
		return "name must be a string <= " + strconv.Itoa(MaxNameLength) + " chars"
	}
	if jsonv.UTF16Len(content) > MaxContentLength {
		return "content must be a string <= " + strconv.Itoa(MaxContentLength) + " chars"
	}
	if len(tools.Add) > MaxToolListLength {
		return "tools.add exceeds max length " + strconv.Itoa(MaxToolListLength)
	}
	if len(tools.Remove) > MaxToolListLength {
		return "tools.remove exceeds max length " + strconv.Itoa(MaxToolListLength)
	}
	for i, n := range tools.Add {
		if !preset.IsValidToolName(n) {
			return "Invalid tool name in tools.add at index " + strconv.Itoa(i)
		}
	}
	for i, n := range tools.Remove {
		if !preset.IsValidToolName(n) {
			return "Invalid tool name in tools.remove at index " + strconv.Itoa(i)
		}
	}
	if jsonv.TrimJS(content) == "" && !tools.HasEffect() {
		return "Snapshot must have non-empty content or at least one tool effect"
	}
	return ""
}
