package capability

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func FuzzParseCapability(f *testing.F) {
	for _, seed := range []string{
		capJSON("a", "text", `"bash"`, `"edit"`),
		`{"schemaVersion":1,"type":"pi-forge.capability","id":"x","content":"","tools":{"add":["a b",1,"*"]}}`,
		`{"id":"bad id","name":null,"tools":[]}`,
		`[]`, `null`, `{"a":`, `{"content":"\ud800","id":"😀"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, diags := Parse(raw, "fuzz.json", preset.ScopeProject)
		if c == nil || c.Tools.Add == nil || c.Tools.Remove == nil {
			t.Fatalf("nil parts: %+v", c)
		}
		out := Serialize(c)
		again, againDiags := Parse(out, "fuzz.json", preset.ScopeProject)
		if !bytes.Equal(Serialize(again), out) {
			t.Fatalf("re-parse changed the value:\n%s\n%s", out, Serialize(again))
		}
		// Normalization only removes problems: a clean file stays clean.
		if !diags.HasErrors() && againDiags.HasErrors() {
			t.Fatalf("clean file re-parses with errors %+v", againDiags)
		}
	})
}

// BenchmarkParseCapability loads a workspace of 500 capabilities and 500
// Presets that bind them, and resolves every binding: the budget for the
// whole load is well under 150 ms.
func BenchmarkParseCapability(b *testing.B) {
	caps := make([][]byte, 500)
	stacks := make([][]byte, 500)
	for i := range caps {
		id := fmt.Sprintf("cap-%03d", i)
		caps[i] = Serialize(&Capability{ID: id, Name: ptr("Capability " + id),
			Content: fmt.Sprintf("Instruction text for %s. %s", id, bytes.Repeat([]byte("Keep changes small. "), 20)),
			Tools:   ToolPatch{Add: []string{"bash", "edit"}, Remove: []string{"write"}}})
		stacks[i] = []byte(fmt.Sprintf(`{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"stack-%03d","name":"Stack","tools":{"allow":["read","bash","edit"]},"capabilities":[{"ref":"project:%s","modelCallable":true},{"ref":"cap-%03d","id":"second","overrides":{"appendContent":"more"}}],"items":[{"kind":"block","id":"role","role":"system","content":"You are a careful engineer."},{"kind":"slot","id":"chat-history","slot":"chat-history"}]}`, i, fmt.Sprintf("cap-%03d", i), (i+1)%500))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		entries := make([]*Entry, len(caps))
		for i, raw := range caps {
			entries[i] = Load(raw, fmt.Sprintf("cap-%03d.json", i), preset.ScopeProject)
		}
		cat := NewCatalog(entries...)
		for i, raw := range stacks {
			stack, _ := preset.ParseWith(raw, fmt.Sprintf("stack-%03d.json", i), preset.ParseOptions{Scope: preset.ScopeProject})
			if res := ResolveBindings(stack, preset.ScopeProject, cat); res.Error != "" {
				b.Fatal(res.Error)
			}
		}
	}
}

func ptr(s string) *string { return &s }

func FuzzResolveBindings(f *testing.F) {
	for _, seed := range []string{
		`[{"ref":"p"},{"ref":"global:shadow","id":"x","overrides":{"appendContent":"a","tools":{"add":["b"]}}}]`,
		`[{"ref":"p"},{"ref":"p"}]`, `["x",{"ref":5},{"ref":"team:x"}]`, `[{"ref":"empty","overrides":{"content":"c"}}]`,
	} {
		f.Add(seed, false)
	}
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, bindings string, global bool) {
		scope := preset.ScopeProject
		if global {
			scope = preset.ScopeGlobal
		}
		src := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"owner","capabilities":` + bindings + `,"items":[]}`
		stack, _ := preset.ParseWith([]byte(src), "owner.json", preset.ParseOptions{Scope: scope})
		res := ResolveBindings(stack, scope, cat)
		if len(res.Bindings) != len(stack.Capabilities) {
			t.Fatalf("%d results for %d bindings", len(res.Bindings), len(stack.Capabilities))
		}
		usable := 0
		for _, b := range res.Bindings {
			if b.Usable() {
				usable++
				if d := Validate(b.Effective); d.HasErrors() {
					t.Fatalf("usable binding with invalid effective capability: %+v", d)
				}
			}
		}
		if res.Error == "" && usable != len(res.Bindings) {
			t.Fatalf("no error but %d of %d usable", usable, len(res.Bindings))
		}
		if res.Error != "" && res.ErrorIndex >= len(res.Bindings) {
			t.Fatalf("error index %d out of range", res.ErrorIndex)
		}
	})
}

func FuzzDecodeEvent(f *testing.F) {
	seeds := []any{
		NewActivateEvent("e1", ActorUser, 1, manualSnap("a1", "text")).JSON(),
		NewActivateEvent("e2", ActorAgent, 2, boundSnap("a2", "cap", "p", "b", "", []string{"bash"}, []string{"x"})).JSON(),
		NewDeactivateEvent("e3", ActorLifecycle, 3, "a2").JSON(),
		NewResetEvent("e4", 4).JSON(),
	}
	for _, s := range seeds {
		f.Add([]byte(jsonv.Stringify(s)))
	}
	f.Add([]byte(`{"schemaVersion":1,"eventId":"e","createdAt":-0,"op":"reset","actor":"user"}`))
	f.Add([]byte(`{"schemaVersion":1,"eventId":"e","createdAt":1,"op":{},"actor":[]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := jsonv.Parse(raw)
		if err != nil {
			return
		}
		ev, msg := DecodeEvent(v)
		if msg != "" {
			return
		}
		// A decoded event re-encodes to a payload that decodes identically.
		again, msg := DecodeEvent(ev.JSON())
		if msg != "" || again.Canonical() != ev.Canonical() {
			t.Fatalf("re-decode: %q %s vs %s", msg, again.Canonical(), ev.Canonical())
		}
	})
}

// FuzzReadHistory feeds branches given as a JSON array of entries
// ({"type":"compaction"} or {"type":"custom"|"custom_message",
// "customType":…, "data"|"details":…}) to the history reader and the
// projection: errors are fine, panics and broken invariants are not.
func FuzzReadHistory(f *testing.F) {
	a1 := jsonv.Stringify(NewActivateEvent("e1", ActorUser, 1, manualSnap("a1", "one")).JSON())
	d1 := jsonv.Stringify(NewDeactivateEvent("e2", ActorUser, 2, "a1").JSON())
	f.Add([]byte(`[{"type":"custom","customType":"pi-forge-capability-event","data":` + a1 + `},{"type":"custom","customType":"pi-forge-capability-delivery","data":{"schemaVersion":1,"throughEventId":"e1"}},{"type":"compaction"},{"type":"custom","customType":"pi-forge-capability-event","data":` + d1 + `}]`))
	f.Add([]byte(`[{"type":"custom","customType":"pi-forge-capability-tools","data":{"schemaVersion":1,"baseline":["read"],"lastApplied":[]}},{"type":"custom_message","customType":"pi-forge-capability-delivery","details":{"throughEventId":"e1"}}]`))
	f.Add([]byte(`[{"type":"custom","customType":"pi-forge-instruction-event"}]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := jsonv.Parse(raw)
		if err != nil {
			return
		}
		list, ok := v.([]any)
		if !ok {
			return
		}
		var records []Record
		var markers []any
		for _, item := range list {
			o, ok := item.(*jsonv.Object)
			if !ok {
				continue
			}
			typ, _ := o.Get("type")
			ct, _ := o.Get("customType")
			ctype, _ := ct.(string)
			switch typ {
			case "compaction":
				records = append(records, Record{Kind: RecordCompaction})
			case "custom":
				data, present := o.Get("data")
				r := Record{Kind: RecordCustom, CustomType: ctype, Payload: data, Present: present}
				if present && len(records)%2 == 0 {
					// Every other record goes the raw way (fast event
					// decoder, raw anchor reader), as the session layer does.
					r.Payload, r.Raw = nil, []byte(jsonv.Stringify(data))
				}
				records = append(records, r)
				if ctype == DeliveryEntryType {
					if id, msg := ValidateAnchorData(data); msg == "" {
						markers = append(markers, MarkerMessage(id, 0))
					}
				}
			case "custom_message":
				details, present := o.Get("details")
				records = append(records, Record{Kind: RecordCustomMessage, CustomType: ctype, Payload: details, Present: present})
			}
		}
		h, herr := ReadHistory(records)
		if herr != nil {
			if herr.Message == "" {
				t.Fatal("empty history error")
			}
			return
		}
		if h.LastAnchoredIndex >= len(h.Events) {
			t.Fatalf("anchored index %d of %d events", h.LastAnchoredIndex, len(h.Events))
		}
		if len(h.PendingEvents()) > len(h.Events) {
			t.Fatal("more pending events than events")
		}
		if _, rerr := Reduce(h.Events); rerr != nil {
			t.Fatalf("read history accepted a branch the reducer rejects: %s", rerr.Message)
		}
		for _, native := range []bool{false, true} {
			if _, _, msg := ProjectMessages(markers, h, native); msg != "" && !strings.HasPrefix(msg, "Corrupt marker cursor") {
				t.Fatalf("projection of stored anchors failed: %s", msg)
			}
		}
	})
}

// FuzzSnapshotCanonical compares the direct snapshot encoder with the
// generic canonical JSON on arbitrary strings.
func FuzzSnapshotCanonical(f *testing.F) {
	f.Add("content", "name", "bash", "project", "id", true)
	f.Add("\u2028\x7f\"", "", "😀", "global", "a.b", false)
	f.Fuzz(func(t *testing.T, content, name, tool, scope, id string, bound bool) {
		src := SnapshotSource{Kind: SourceCapability, Key: Key{Scope: preset.Scope(scope), ID: id}}
		if bound {
			src.Binding = &SnapshotBinding{Preset: Key{Scope: preset.Scope(scope), ID: name}, ID: tool}
		}
		tools := ToolPatch{Add: []string{tool}, Remove: []string{}}
		generic, err := fingerprint.CanonicalJSON(SnapshotValue(src, &name, content, tools))
		if err != nil {
			t.Fatal(err)
		}
		if fast := string(appendSnapshotCanonical(nil, src, &name, content, tools)); fast != generic {
			t.Fatalf("mismatch:\n%s\n%s", fast, generic)
		}
	})
}

// FuzzFastDecodeEvent: whatever the fast decoder accepts, DecodeEvent
// accepts with the same event; the seeds are accepted by both.
func FuzzFastDecodeEvent(f *testing.F) {
	name := "Write \"tools\" \u2028 é"
	src := SnapshotSource{Kind: SourceCapability, Key: Key{Scope: "global", ID: "w"}, Binding: &SnapshotBinding{Preset: Key{Scope: "global", ID: "p"}, ID: "b"}}
	for _, ev := range []Event{
		NewActivateEvent("e1", ActorUser, 1.5e12, manualSnap("a1", "line\nnext \\ \"q\" \x01")),
		NewActivateEvent("e2", ActorAgent, 0, NewSnapshot("a2", src, &name, "", ToolPatch{Add: []string{"bash", "😀"}, Remove: []string{"x"}})),
		NewDeactivateEvent("e3", ActorLifecycle, 3, "a2"),
		NewResetEvent("e4", 1e21),
	} {
		raw := []byte(jsonv.Stringify(ev.JSON()))
		if _, ok := fastDecodeEvent(raw); !ok {
			f.Fatalf("fast path rejects its own layout: %s", raw)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := fastDecodeEvent(raw)
		if !ok {
			return
		}
		v, err := jsonv.Parse(raw)
		if err != nil {
			t.Fatalf("fast path accepted invalid JSON %q", raw)
		}
		slow, msg := DecodeEvent(v)
		if msg != "" {
			t.Fatalf("fast path accepted what DecodeEvent rejects (%s): %s", msg, raw)
		}
		if jsonv.Stringify(fast.JSON()) != jsonv.Stringify(slow.JSON()) {
			t.Fatalf("decoders disagree:\n%s\n%s", jsonv.Stringify(fast.JSON()), jsonv.Stringify(slow.JSON()))
		}
	})
}
