package capability

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
)

// SnapshotType is the "type" of the fingerprinted snapshot value (§9.7).
const SnapshotType = "pi-forge.capability-snapshot"

// SourceKind is a snapshot source kind.
type SourceKind string

// Snapshot source kinds.
const (
	SourceManual     SourceKind = "manual"
	SourceCapability SourceKind = "capability"
)

// SnapshotBinding names the Preset binding a capability was activated through.
type SnapshotBinding struct {
	Preset Key
	ID     string
}

// SnapshotSource is where an activation's text came from: a manual
// directive, or a capability (optionally through a Preset binding).
type SnapshotSource struct {
	Kind SourceKind
	// Key is the capability key (kind capability only).
	Key Key
	// Binding; nil = activated directly, not through a binding.
	Binding *SnapshotBinding
}

// JSON returns the source object in pi-forge's key order
// ({kind} or {kind, key:{scope,id}, binding?:{preset:{scope,id}, id}}).
func (s SnapshotSource) JSON() *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("kind", string(s.Kind))
	if s.Kind != SourceCapability {
		return obj
	}
	obj.Set("key", keyJSON(s.Key))
	if s.Binding != nil {
		binding := jsonv.NewObject()
		binding.Set("preset", keyJSON(s.Binding.Preset))
		binding.Set("id", s.Binding.ID)
		obj.Set("binding", binding)
	}
	return obj
}

func keyJSON(k Key) *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("scope", string(k.Scope))
	obj.Set("id", k.ID)
	return obj
}

// SnapshotValue is the value whose canonical JSON is fingerprinted:
// {type, schemaVersion:1, source, name (only if non-nil), content, tools}.
func SnapshotValue(source SnapshotSource, name *string, content string, tools ToolPatch) *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("type", SnapshotType)
	obj.Set("schemaVersion", float64(1))
	obj.Set("source", source.JSON())
	if name != nil {
		obj.Set("name", *name)
	}
	obj.Set("content", content)
	obj.Set("tools", toolPatchJSON(tools))
	return obj
}

// SnapshotFingerprint is the activation snapshot fingerprint (§9.7).
func SnapshotFingerprint(source SnapshotSource, name *string, content string, tools ToolPatch) string {
	sum := sha256.Sum256(appendSnapshotCanonical(nil, source, name, content, tools))
	return fingerprint.Prefix + hex.EncodeToString(sum[:])
}

// appendSnapshotCanonical writes the canonical JSON of SnapshotValue
// directly: its keys are fixed, so their UTF-16 order is known
// (content, name, schemaVersion, source{binding{id, preset{id, scope}},
// key{id, scope}, kind}, tools{add, remove}, type). Every activation is
// verified against its fingerprint when a history is read, so this path is
// hot; TestSnapshotCanonicalMatchesGeneric pins it to the generic encoder.
func appendSnapshotCanonical(b []byte, source SnapshotSource, name *string, content string, tools ToolPatch) []byte {
	key := func(b []byte, k Key) []byte {
		b = append(b, `{"id":`...)
		b = jsonv.AppendQuote(b, k.ID)
		b = append(b, `,"scope":`...)
		b = jsonv.AppendQuote(b, string(k.Scope))
		return append(b, '}')
	}
	list := func(b []byte, names []string) []byte {
		b = append(b, '[')
		for i, n := range names {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonv.AppendQuote(b, n)
		}
		return append(b, ']')
	}
	b = append(b, `{"content":`...)
	b = jsonv.AppendQuote(b, content)
	if name != nil {
		b = append(b, `,"name":`...)
		b = jsonv.AppendQuote(b, *name)
	}
	b = append(b, `,"schemaVersion":1,"source":{`...)
	if source.Kind == SourceCapability {
		if source.Binding != nil {
			b = append(b, `"binding":{"id":`...)
			b = jsonv.AppendQuote(b, source.Binding.ID)
			b = append(b, `,"preset":`...)
			b = key(b, source.Binding.Preset)
			b = append(b, `},`...)
		}
		b = append(b, `"key":`...)
		b = key(b, source.Key)
		b = append(b, ',')
	}
	b = append(b, `"kind":`...)
	b = jsonv.AppendQuote(b, string(source.Kind))
	b = append(b, `},"tools":{"add":`...)
	b = list(b, tools.Add)
	b = append(b, `,"remove":`...)
	b = list(b, tools.Remove)
	b = append(b, `},"type":"`+SnapshotType+`"}`...)
	return b
}

// SnapshotSource is the snapshot source of an activation through this binding.
func (b *BoundCapability) SnapshotSource() SnapshotSource {
	return SnapshotSource{Kind: SourceCapability, Key: b.Ref, Binding: &SnapshotBinding{Preset: b.Preset, ID: b.ID}}
}

// SnapshotFingerprint is the fingerprint an activation of this binding
// would record (its effective content and tools); "" when unusable.
func (b *BoundCapability) SnapshotFingerprint() string {
	if !b.Usable() {
		return ""
	}
	return SnapshotFingerprint(b.SnapshotSource(), b.Effective.Name, b.Effective.Content, b.Effective.Tools)
}

// SnapshotFingerprint is the fingerprint of a direct (unbound) activation
// of the entry's capability.
func (e *Entry) SnapshotFingerprint() string {
	c := e.Capability
	return SnapshotFingerprint(SnapshotSource{Kind: SourceCapability, Key: e.Key()}, c.Name, c.Content, c.Tools)
}

// Snapshot is the immutable activation snapshot an activate event carries
// (§9.6, §9.7): later edits of the capability never change it.
type Snapshot struct {
	ActivationID string
	Source       SnapshotSource
	// Name; nil = absent.
	Name        *string
	Content     string
	Tools       ToolPatch
	Fingerprint string
}

// NewSnapshot captures a snapshot and computes its fingerprint. The
// activation id (a random UUID upstream) is supplied by the caller.
func NewSnapshot(activationID string, source SnapshotSource, name *string, content string, tools ToolPatch) Snapshot {
	s := Snapshot{ActivationID: activationID, Source: source, Content: content, Tools: tools.Clone()}
	if name != nil {
		n := *name
		s.Name = &n
	}
	s.Fingerprint = SnapshotFingerprint(source, s.Name, content, s.Tools)
	return s
}

// JSON returns the snapshot object in pi-forge's key order:
// activationId, source, name?, content, tools, fingerprint.
func (s Snapshot) JSON() *jsonv.Object {
	obj := jsonv.NewObject()
	obj.Set("activationId", s.ActivationID)
	obj.Set("source", s.Source.JSON())
	if s.Name != nil {
		obj.Set("name", *s.Name)
	}
	obj.Set("content", s.Content)
	obj.Set("tools", toolPatchJSON(s.Tools))
	obj.Set("fingerprint", s.Fingerprint)
	return obj
}

// Snapshot captures an activation through this binding (its effective
// values); ok is false when the binding is unusable.
func (b *BoundCapability) Snapshot(activationID string) (Snapshot, bool) {
	if !b.Usable() {
		return Snapshot{}, false
	}
	return NewSnapshot(activationID, b.SnapshotSource(), b.Effective.Name, b.Effective.Content, b.Effective.Tools), true
}

// Snapshot captures a direct activation of the entry's capability; ok is
// false when the entry is unusable.
func (e *Entry) Snapshot(activationID string) (Snapshot, bool) {
	if !e.Usable() {
		return Snapshot{}, false
	}
	c := e.Capability
	return NewSnapshot(activationID, SnapshotSource{Kind: SourceCapability, Key: e.Key()}, c.Name, c.Content, c.Tools), true
}
