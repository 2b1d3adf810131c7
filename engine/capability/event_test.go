package capability

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func manualSnap(id, content string) Snapshot {
	return NewSnapshot(id, SnapshotSource{Kind: SourceManual}, nil, content, ToolPatch{Add: []string{}, Remove: []string{}})
}

func boundSnap(id, capID, presetID, bindingID, content string, add, remove []string) Snapshot {
	src := SnapshotSource{Kind: SourceCapability, Key: Key{Scope: preset.ScopeProject, ID: capID},
		Binding: &SnapshotBinding{Preset: Key{Scope: preset.ScopeProject, ID: presetID}, ID: bindingID}}
	return NewSnapshot(id, src, nil, content, ToolPatch{Add: add, Remove: remove})
}

func directSnap(id, capID, content string, add, remove []string) Snapshot {
	src := SnapshotSource{Kind: SourceCapability, Key: Key{Scope: preset.ScopeProject, ID: capID}}
	return NewSnapshot(id, src, nil, content, ToolPatch{Add: add, Remove: remove})
}

// mutate parses a JSON text, lets f change it and returns the value.
func mutate(t *testing.T, obj *jsonv.Object, f func(o *jsonv.Object)) any {
	t.Helper()
	c := obj.Clone()
	f(c)
	return c
}

func child(o *jsonv.Object, path ...string) *jsonv.Object {
	for _, p := range path {
		v, _ := o.Get(p)
		o = v.(*jsonv.Object)
	}
	return o
}

func TestDecodeEventMessages(t *testing.T) {
	act := NewActivateEvent("e1", ActorUser, 1000, boundSnap("a1", "cap", "p", "b", "text", []string{"bash"}, []string{})).JSON()
	deact := NewDeactivateEvent("e2", ActorUser, 1, "a1").JSON()
	reset := NewResetEvent("e3", 1).JSON()
	parse := func(s string) any {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name string
		raw  any
		want string
	}{
		{"array", parse(`[]`), "Event must be a plain object"},
		{"null", nil, "Event must be a plain object"},
		{"schema", mutate(t, act, func(o *jsonv.Object) { o.Set("schemaVersion", float64(2)) }), "schemaVersion must be 1"},
		{"schema missing", mutate(t, act, func(o *jsonv.Object) { o.Delete("schemaVersion") }), "schemaVersion must be 1"},
		{"eventId bad", mutate(t, act, func(o *jsonv.Object) { o.Set("eventId", "-x") }), "Invalid eventId"},
		{"eventId long", mutate(t, act, func(o *jsonv.Object) { o.Set("eventId", strings.Repeat("a", 129)) }), "Invalid eventId"},
		{"eventId number", mutate(t, act, func(o *jsonv.Object) { o.Set("eventId", float64(1)) }), "Invalid eventId"},
		{"createdAt negative", mutate(t, act, func(o *jsonv.Object) { o.Set("createdAt", float64(-1)) }), "createdAt must be a non-negative finite number"},
		{"createdAt string", mutate(t, act, func(o *jsonv.Object) { o.Set("createdAt", "1") }), "createdAt must be a non-negative finite number"},
		{"createdAt infinite", parse(`{"schemaVersion":1,"eventId":"e","createdAt":1e400,"op":"reset","actor":"user"}`), "createdAt must be a non-negative finite number"},
		{"op", mutate(t, act, func(o *jsonv.Object) { o.Set("op", "toggle") }), "Invalid op: toggle"},
		{"op number", mutate(t, act, func(o *jsonv.Object) { o.Set("op", float64(1.5)) }), "Invalid op: 1.5"},
		{"op null", mutate(t, act, func(o *jsonv.Object) { o.Set("op", nil) }), "Invalid op"},
		{"op missing", mutate(t, act, func(o *jsonv.Object) { o.Delete("op") }), "Invalid op"},
		{"activate extra", mutate(t, act, func(o *jsonv.Object) { o.Set("activationId", "x") }), "Unexpected property on activate event: activationId"},
		{"activate extra int key first", mutate(t, act, func(o *jsonv.Object) { o.Set("zz", 1.0); o.Set("7", 1.0) }), "Unexpected property on activate event: 7"},
		{"activate actor", mutate(t, act, func(o *jsonv.Object) { o.Set("actor", "lifecycle") }), "Activate actor must be user or agent"},
		{"snapshot not object", mutate(t, act, func(o *jsonv.Object) { o.Set("snapshot", []any{}) }), "snapshot must be a plain object"},
		{"snapshot extra", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("only", []any{}) }), "Unexpected property on snapshot: only"},
		{"snapshot activationId", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("activationId", "") }), "Invalid snapshot activationId"},
		{"source not object", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("source", "manual") }), "source must be a plain object"},
		{"source kind", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source").Set("kind", "file") }), "Invalid source kind: file"},
		{"source kind missing", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source").Delete("kind") }), "Invalid source kind"},
		{"manual extra", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source").Set("kind", "manual") }), "manual source must only have kind property"},
		{"source unknown", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source").Set("extra", 1.0) }), "source has unknown property: extra"},
		{"key missing", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source").Delete("key") }), "capability source requires key object"},
		{"key extra", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "key").Set("x", 1.0) }), "capability key must only contain scope and id"},
		{"key scope", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "key").Set("scope", "user") }), "Invalid capability key scope"},
		{"key id", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "key").Set("id", "a b") }), "Invalid capability key id"},
		{"binding not object", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source").Set("binding", nil) }), "binding must be a plain object"},
		{"binding extra", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding").Set("x", 1.0) }), "binding must only contain preset and id"},
		{"binding preset not object", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding").Set("preset", "p") }), "binding preset must be a plain object"},
		{"binding preset extra", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding", "preset").Delete("id") }), "binding preset must only contain scope and id"},
		{"binding preset scope", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding", "preset").Set("scope", "x") }), "Invalid binding preset scope"},
		{"binding preset id", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding", "preset").Set("id", ".x") }), "Invalid binding preset id"},
		{"binding id", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding").Set("id", "") }), "Invalid binding id"},
		{"global binds project", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "source", "binding", "preset").Set("scope", "global") }), "Global preset cannot bind project capability"},
		{"agent without binding", mutate(t, act, func(o *jsonv.Object) { o.Set("actor", "agent"); child(o, "snapshot", "source").Delete("binding") }), "agent activation must have source capability with binding"},
		{"name type", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("name", nil) }), "name must be a string <= 1000"},
		{"name long", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("name", strings.Repeat("n", 1001)) }), "name must be a string <= 1000"},
		{"content type", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("content", 1.0) }), "content must be a string <= 100000"},
		{"content long", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("content", strings.Repeat("c", 100001)) }), "content must be a string <= 100000"},
		{"tools type", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("tools", []any{}) }), "tools must be a plain object"},
		{"tools keys", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Delete("remove") }), "tools must contain exactly add and remove arrays"},
		{"tools add type", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Set("add", "bash") }), "tools.add must be an array"},
		{"tools remove type", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Set("remove", nil) }), "tools.remove must be an array"},
		{"tools add long", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Set("add", make([]any, 257)) }), "tools.add exceeds max length 256"},
		{"tools remove long", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Set("remove", make([]any, 257)) }), "tools.remove exceeds max length 256"},
		{"tools add name", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Set("add", []any{"ok", "b*"}) }), "Invalid tool name in tools.add at index 1"},
		{"tools remove name", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot", "tools").Set("remove", []any{1.0}) }), "Invalid tool name in tools.remove at index 0"},
		{"blank", mutate(t, act, func(o *jsonv.Object) {
			child(o, "snapshot").Set("content", " \n")
			child(o, "snapshot", "tools").Set("add", []any{})
		}), "Snapshot must have non-empty content or at least one tool effect"},
		{"fingerprint format", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("fingerprint", "sha256:v1:ABC") }), "Invalid snapshot fingerprint format"},
		{"fingerprint mismatch", mutate(t, act, func(o *jsonv.Object) { child(o, "snapshot").Set("content", "other") }), "Snapshot fingerprint mismatch"},
		{"deactivate extra", mutate(t, deact, func(o *jsonv.Object) { o.Set("snapshot", nil) }), "Unexpected property on deactivate event: snapshot"},
		{"deactivate actor", mutate(t, deact, func(o *jsonv.Object) { o.Set("actor", "system") }), "Deactivate actor must be user, agent, or lifecycle"},
		{"deactivate id", mutate(t, deact, func(o *jsonv.Object) { o.Set("activationId", "a:b") }), "Invalid activationId"},
		{"reset extra", mutate(t, reset, func(o *jsonv.Object) { o.Set("activationId", "a") }), "Unexpected property on reset event: activationId"},
		{"reset actor", mutate(t, reset, func(o *jsonv.Object) { o.Set("actor", "agent") }), "Reset actor must be user"},
	}
	for _, c := range cases {
		_, got := DecodeEvent(c.raw)
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	manual := NewActivateEvent("e9", ActorAgent, 1, manualSnap("m1", "x")).JSON()
	if _, got := DecodeEvent(manual); got != "agent activation must have source capability with binding" {
		t.Errorf("agent manual: %q", got)
	}
	// ("manual source can only be activated by user" is unreachable: the
	// agent rule above fires first for the only other activate actor.)
	for _, ev := range []*jsonv.Object{act, deact, reset, NewActivateEvent("e4", ActorUser, 0, manualSnap("m", "t")).JSON()} {
		dec, msg := DecodeEvent(ev)
		if msg != "" {
			t.Fatalf("valid event rejected: %s", msg)
		}
		if jsonv.Stringify(dec.JSON()) != jsonv.Stringify(ev) {
			t.Errorf("round trip changed %s to %s", jsonv.Stringify(ev), jsonv.Stringify(dec.JSON()))
		}
	}
}

// TestEventKeyOrder pins the persisted key order of each event shape.
func TestEventKeyOrder(t *testing.T) {
	name := "Write tools"
	src := SnapshotSource{Kind: SourceCapability, Key: Key{Scope: preset.ScopeProject, ID: "write-tools"},
		Binding: &SnapshotBinding{Preset: Key{Scope: preset.ScopeProject, ID: "read-first-worker"}, ID: "write-tools"}}
	snap := NewSnapshot("a", src, &name, "c", ToolPatch{Add: []string{"bash"}, Remove: []string{}})
	got := jsonv.Stringify(NewActivateEvent("e", ActorAgent, 5, snap).JSON())
	want := `{"schemaVersion":1,"eventId":"e","op":"activate","actor":"agent","createdAt":5,"snapshot":{"activationId":"a","source":{"kind":"capability","key":{"scope":"project","id":"write-tools"},"binding":{"preset":{"scope":"project","id":"read-first-worker"},"id":"write-tools"}},"name":"Write tools","content":"c","tools":{"add":["bash"],"remove":[]},"fingerprint":"` + snap.Fingerprint + `"}}`
	if got != want {
		t.Errorf("activate:\n got %s\nwant %s", got, want)
	}
	if got := jsonv.Stringify(NewDeactivateEvent("e", ActorLifecycle, 0, "a").JSON()); got != `{"schemaVersion":1,"eventId":"e","op":"deactivate","actor":"lifecycle","createdAt":0,"activationId":"a"}` {
		t.Errorf("deactivate: %s", got)
	}
	if got := jsonv.Stringify(NewResetEvent("e", 0).JSON()); got != `{"schemaVersion":1,"eventId":"e","op":"reset","actor":"user","createdAt":0}` {
		t.Errorf("reset: %s", got)
	}
}

func TestCheckSnapshotInput(t *testing.T) {
	none := ToolPatch{Add: []string{}, Remove: []string{}}
	long := strings.Repeat("x", 1001)
	for _, c := range []struct {
		id, content string
		name        *string
		tools       ToolPatch
		want        string
	}{
		{"a", "t", nil, none, ""},
		{"", "t", nil, none, "activationId must be a valid resource id <= 128 chars"},
		{"a", "t", &long, none, "name must be a string <= 1000 chars"},
		{"a", strings.Repeat("c", 100001), nil, none, "content must be a string <= 100000 chars"},
		{"a", "  ", nil, none, "Snapshot must have non-empty content or at least one tool effect"},
		{"a", "", nil, ToolPatch{Add: []string{"a b"}}, "Invalid tool name in tools.add at index 0"},
		{"a", "", nil, ToolPatch{Remove: []string{"edit"}}, ""},
	} {
		if got := CheckSnapshotInput(c.id, c.name, c.content, c.tools); got != c.want {
			t.Errorf("%q/%q: got %q want %q", c.id, c.content, got, c.want)
		}
	}
}
