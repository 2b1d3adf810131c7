package capability

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func eventRec(ev Event) Record {
	return Record{Kind: RecordCustom, CustomType: EventEntryType, Payload: ev.JSON(), Present: true}
}

func anchorRec(id string) Record {
	return Record{Kind: RecordCustom, CustomType: DeliveryEntryType, Payload: AnchorData(id), Present: true}
}

func toolsRec(baseline, last []string) Record {
	return Record{Kind: RecordCustom, CustomType: ToolsEntryType, Payload: ToolsSnapshot{Baseline: baseline, LastApplied: last}.Data(), Present: true}
}

func rawRec(customType, payload string) Record {
	v, err := jsonv.Parse([]byte(payload))
	if err != nil {
		panic(err)
	}
	return Record{Kind: RecordCustom, CustomType: customType, Payload: v, Present: true}
}

var compaction = Record{Kind: RecordCompaction}

func TestReadHistoryMessages(t *testing.T) {
	a1 := NewActivateEvent("e1", ActorUser, 1, manualSnap("a1", "one"))
	a2 := NewActivateEvent("e2", ActorUser, 2, manualSnap("a2", "two"))
	cases := []struct {
		name    string
		records []Record
		want    string
	}{
		{"legacy event", []Record{{Kind: RecordCustom, CustomType: "pi-forge-instruction-event"}}, msgLegacyState},
		{"legacy tools", []Record{{Kind: RecordCustom, CustomType: "pi-forge-instruction-tools"}}, msgLegacyState},
		{"legacy delivery custom", []Record{{Kind: RecordCustom, CustomType: "pi-forge-instruction-delivery"}}, msgLegacyState},
		{"legacy delivery message", []Record{{Kind: RecordCustomMessage, CustomType: "pi-forge-instruction-delivery"}}, msgLegacyDelivery},
		{"bad event", []Record{rawRec(EventEntryType, `{"schemaVersion":2}`)}, "Invalid Forge capability history: schemaVersion must be 1"},
		{"event without data", []Record{{Kind: RecordCustom, CustomType: EventEntryType}}, "Invalid Forge capability history: Event must be a plain object"},
		{"future anchor", []Record{anchorRec("e1"), eventRec(a1)}, `Invalid Forge capability delivery anchor: unknown or future cursor "e1"`},
		{"out of order", []Record{eventRec(a1), eventRec(a2), anchorRec("e2"), anchorRec("e1")},
			`Invalid Forge capability delivery anchor: out-of-order cursor "e1" (index 0 < 1)`},
		{"anchor data null", []Record{rawRec(DeliveryEntryType, `null`)}, "Invalid capability anchor metadata: data must be a non-null object"},
		{"anchor extra", []Record{rawRec(DeliveryEntryType, `{"schemaVersion":1,"throughEventId":"e","x":1}`)}, `Invalid capability anchor metadata: unexpected extra field "x"`},
		{"anchor no version", []Record{rawRec(DeliveryEntryType, `{"throughEventId":"e"}`)}, "Invalid capability anchor metadata: missing required field schemaVersion"},
		{"anchor no cursor", []Record{rawRec(DeliveryEntryType, `{"schemaVersion":1}`)}, "Invalid capability anchor metadata: missing required field throughEventId"},
		{"anchor version", []Record{rawRec(DeliveryEntryType, `{"schemaVersion":"2","throughEventId":"e"}`)}, "Invalid capability anchor metadata: unsupported schemaVersion 2, expected 1"},
		{"anchor empty", []Record{rawRec(DeliveryEntryType, `{"schemaVersion":1,"throughEventId":""}`)}, "Invalid capability anchor metadata: throughEventId must be a non-empty string"},
		{"anchor long", []Record{rawRec(DeliveryEntryType, `{"schemaVersion":1,"throughEventId":"`+strings.Repeat("é", 129)+`"}`)},
			"Invalid capability anchor metadata: throughEventId length exceeds 128 characters (129)"},
		{"anchor control", []Record{rawRec(DeliveryEntryType, `{"schemaVersion":1,"throughEventId":"a\u0085"}`)}, "Invalid capability anchor metadata: throughEventId contains control characters"},
		{"tools not object", []Record{rawRec(ToolsEntryType, `[]`)}, "Invalid Forge tool baseline."},
		{"tools schema", []Record{rawRec(ToolsEntryType, `{"schemaVersion":1,"baseline":[],"lastApplied":[],"x":1}`)}, "Unsupported Forge tool baseline schema."},
		{"tools baseline", []Record{rawRec(ToolsEntryType, `{"schemaVersion":1,"baseline":[""],"lastApplied":[]}`)}, "Invalid Forge tool baseline baseline."},
		{"tools lastApplied", []Record{rawRec(ToolsEntryType, `{"schemaVersion":1,"baseline":[],"lastApplied":["a\tb"]}`)}, "Invalid Forge tool baseline lastApplied."},
		{"reducer", []Record{eventRec(a1), eventRec(NewActivateEvent("e3", ActorUser, 3, manualSnap("a1", "again")))},
			"Invalid Forge capability event 1: activationId cannot be reused in the same branch: a1"},
	}
	for _, c := range cases {
		_, err := ReadHistory(c.records)
		if err == nil || err.Message != c.want {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// Only the latest tools entry is decoded, and a later entry without
	// data clears an earlier one.
	h, err := ReadHistory([]Record{rawRec(ToolsEntryType, `[]`), toolsRec([]string{"read"}, []string{"read"})})
	if err != nil || h.Tools == nil || h.Tools.Baseline[0] != "read" {
		t.Fatalf("latest tools entry: %+v %v", h, err)
	}
	h, err = ReadHistory([]Record{toolsRec([]string{"read"}, []string{"read"}), {Kind: RecordCustom, CustomType: ToolsEntryType}})
	if err != nil || h.Tools != nil {
		t.Fatalf("tools entry without data must clear: %+v %v", h.Tools, err)
	}
}

func TestHistoryCursorsAndPending(t *testing.T) {
	a1 := NewActivateEvent("e1", ActorUser, 1, manualSnap("a1", "one"))
	a2 := NewActivateEvent("e2", ActorUser, 2, manualSnap("a2", "two"))
	d1 := NewDeactivateEvent("e3", ActorUser, 3, "a1")
	carrier := Record{Kind: RecordCustomMessage, CustomType: DeliveryEntryType, Payload: AnchorData("e2"), Present: true}
	// e1 replayed identically: an index of its own, never pending twice.
	h, err := ReadHistory([]Record{eventRec(a1), anchorRec("e1"), eventRec(a1), compaction, eventRec(a2), carrier, eventRec(d1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Events) != 4 || h.LastAnchoredIndex != 2 || h.CheckpointThrough != "e1" || h.CheckpointIndex() != 0 {
		t.Fatalf("cursors: events %d anchored %d checkpoint %q", len(h.Events), h.LastAnchoredIndex, h.CheckpointThrough)
	}
	pending := h.PendingEvents()
	if len(pending) != 1 || pending[0].EventID != "e3" {
		t.Fatalf("pending: %+v", pending)
	}
	if h.Reduced.LastEventID != "e3" || len(h.Reduced.Active) != 1 || h.Reduced.Active[0].Snapshot.ActivationID != "a2" {
		t.Fatalf("reduced: %+v", h.Reduced)
	}
	// A compaction before any event leaves no checkpoint; every event is pending.
	h, _ = ReadHistory([]Record{compaction, eventRec(a1), eventRec(a2)})
	if h.CheckpointThrough != "" || len(h.PendingEvents()) != 2 {
		t.Fatalf("no checkpoint: %q %d", h.CheckpointThrough, len(h.PendingEvents()))
	}
}

func TestReduceRules(t *testing.T) {
	bound := func(eid, aid, bid string, actor Actor) Event {
		return NewActivateEvent(eid, actor, 1, boundSnap(aid, "cap", "p", bid, "t", []string{}, []string{}))
	}
	user := NewActivateEvent("u", ActorUser, 1, manualSnap("m", "t"))
	cases := []struct {
		name   string
		events []Event
		want   string
		index  int
		active int
	}{
		{"identical replay", []Event{user, user}, "", 0, 1},
		{"conflicting replay", []Event{user, NewActivateEvent("u", ActorUser, 2, manualSnap("m", "t"))}, "Duplicate eventId with conflicting payload: u", 1, 0},
		{"reuse after stop", []Event{user, NewDeactivateEvent("d", ActorUser, 1, "m"), NewActivateEvent("u2", ActorUser, 1, manualSnap("m", "t"))},
			"activationId cannot be reused in the same branch: m", 2, 0},
		{"duplicate binding", []Event{bound("e1", "a1", "b", ActorAgent), bound("e2", "a2", "b", ActorUser)},
			"Duplicate preset binding id currently active: project:p -> b", 1, 0},
		{"binding again after stop", []Event{bound("e1", "a1", "b", ActorAgent), NewDeactivateEvent("d", ActorAgent, 1, "a1"), bound("e2", "a2", "b", ActorUser)}, "", 0, 1},
		{"agent stops user", []Event{user, NewDeactivateEvent("d", ActorAgent, 1, "m")}, "Agent cannot deactivate user-owned activation: m", 1, 0},
		{"lifecycle stops manual", []Event{user, NewDeactivateEvent("d", ActorLifecycle, 1, "m")}, "Lifecycle can only deactivate capability with binding: m", 1, 0},
		{"lifecycle stops bound", []Event{bound("e1", "a1", "b", ActorUser), NewDeactivateEvent("d", ActorLifecycle, 1, "a1")}, "", 0, 0},
		{"unknown deactivate", []Event{NewDeactivateEvent("d", ActorAgent, 1, "nobody")}, "", 0, 0},
		{"user stops agent", []Event{bound("e1", "a1", "b", ActorAgent), NewDeactivateEvent("d", ActorUser, 1, "a1")}, "", 0, 0},
		{"reset", []Event{user, bound("e1", "a1", "b", ActorAgent), NewResetEvent("r", 1)}, "", 0, 0},
	}
	for _, c := range cases {
		st, err := Reduce(c.events)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: unexpected %v", c.name, err.Message)
		case c.want != "" && (err == nil || err.Message != c.want || err.Index != c.index):
			t.Errorf("%s: got %+v, want %q at %d", c.name, err, c.want, c.index)
		case c.want == "" && len(st.Active) != c.active:
			t.Errorf("%s: %d active, want %d", c.name, len(st.Active), c.active)
		}
	}
	st, _ := Reduce([]Event{user, user})
	if st.LastEventID != "u" {
		t.Errorf("last event id %q", st.LastEventID)
	}
}

func TestProjection(t *testing.T) {
	text := NewActivateEvent("e1", ActorUser, 10, manualSnap("a1", "Answer in French."))
	toolOnly := NewActivateEvent("e2", ActorUser, 20, directSnap("a2", "cap", "  ", []string{"bash"}, []string{}))
	stop1 := NewDeactivateEvent("e3", ActorUser, 30, "a1")
	stop2 := NewDeactivateEvent("e4", ActorUser, 40, "a2")
	h, err := ReadHistory([]Record{eventRec(text), anchorRec("e1"), eventRec(toolOnly), anchorRec("e2"), eventRec(stop1), eventRec(stop2)})
	if err != nil {
		t.Fatal(err)
	}
	sys := jsonv.NewObject()
	sys.Set("role", "system")
	user := jsonv.NewObject()
	user.Set("role", "user")
	msgs := []any{sys, user, MarkerMessage("e1", 111), user, MarkerMessage("e2", 222)}
	out, updates, msg := ProjectMessages(msgs, h, false)
	if msg != "" {
		t.Fatal(msg)
	}
	// anchor e1 → add a1; anchor e2 → tool-only, no delta, marker vanishes;
	// pending e3 → removal of a1; pending e4 → tool-only stop, nothing.
	if len(updates) != 2 || updates[0].Kind != UpdateAnchor || updates[1].Kind != UpdatePending {
		t.Fatalf("updates %+v", updates)
	}
	if len(out) != 5 {
		t.Fatalf("messages %d", len(out))
	}
	got := jsonv.Stringify(out[2])
	if got != `{"role":"user","content":"[pi-forge capability update]\nUpdated system prompt section \"forge-capability-a1\":\n\nAnswer in French.","timestamp":111}` {
		t.Errorf("fallback anchor: %s", got)
	}
	if got := jsonv.Stringify(out[4]); got != `{"role":"user","content":"[pi-forge capability update]\nRemoved system prompt section \"forge-capability-a1\".","timestamp":30}` {
		t.Errorf("fallback pending: %s", got)
	}
	out, _, _ = ProjectMessages(msgs, h, true)
	if got := jsonv.Stringify(out[2]); got != `{"role":"system","content":"","sections":{"forge-capability-a1":"Answer in French."},"timestamp":111}` {
		t.Errorf("native anchor: %s", got)
	}
	if got := jsonv.Stringify(out[4]); got != `{"role":"system","content":"","sections":{"forge-capability-a1":null},"timestamp":30}` {
		t.Errorf("native pending: %s", got)
	}
	// A marker behind the cursor is corrupt; an unknown cursor fails.
	if _, _, msg := ProjectMessages([]any{MarkerMessage("e2", 0), MarkerMessage("e1", 0)}, h, false); msg != `Corrupt marker cursor: marker at "e1" (index 0) is earlier than current cursor position 1` {
		t.Errorf("corrupt: %q", msg)
	}
	if _, _, msg := ProjectMessages([]any{MarkerMessage("zz", 0)}, h, false); msg != `Delivery marker cursor "zz" not found in branch events` {
		t.Errorf("unknown: %q", msg)
	}
}

func TestProjectionCheckpoint(t *testing.T) {
	e1 := NewActivateEvent("e1", ActorUser, 10, manualSnap("a1", "one"))
	e2 := NewActivateEvent("e2", ActorUser, 20, manualSnap("a2", "two"))
	h, err := ReadHistory([]Record{eventRec(e1), anchorRec("e1"), eventRec(e2), anchorRec("e2"), compaction})
	if err != nil {
		t.Fatal(err)
	}
	sys := jsonv.NewObject()
	sys.Set("role", "system")
	summary := jsonv.NewObject()
	summary.Set("role", "compactionSummary")
	out, updates, msg := ProjectMessages([]any{sys, summary}, h, true)
	if msg != "" || len(updates) != 1 || updates[0].Kind != UpdateCheckpoint {
		t.Fatalf("%q %+v", msg, updates)
	}
	if got := jsonv.Stringify(out[1]); got != `{"role":"system","content":"","sections":{"forge-capability-a1":"one","forge-capability-a2":"two"},"timestamp":20}` {
		t.Errorf("checkpoint: %s", got)
	}
	// Without a leading system message the checkpoint goes first.
	out, _, _ = ProjectMessages([]any{summary}, h, false)
	if !strings.HasPrefix(jsonv.Stringify(out[0]), `{"role":"user","content":"[pi-forge capability update]\nUpdated system prompt section \"forge-capability-a1\":\n\none\n\nUpdated system prompt section \"forge-capability-a2\":\n\ntwo"`) {
		t.Errorf("checkpoint first: %s", jsonv.Stringify(out[0]))
	}
}

func TestStatusText(t *testing.T) {
	name := "Write"
	a := []Active{{Snapshot: NewSnapshot("a1", SnapshotSource{Kind: SourceCapability, Key: Key{Scope: "project", ID: "w"}}, &name, "Body", ToolPatch{Add: []string{"bash", "edit"}, Remove: []string{}}), Actor: ActorAgent},
		{Snapshot: manualSnap("m1", "French"), Actor: ActorUser}}
	got := StatusText(a, PresentationFallback, DeliveryPending, []string{"read", "bash"}, true)
	want := "Capability capabilities: 2; attributed user updates; pending next request\n" +
		"Currently selected tools: read, bash\n" + TransportNote + "\n" +
		"a1 · project:w · agent\n  +tools: bash, edit; -tools: (none)\nBody\n" +
		"m1 · manual · user\n  +tools: (none); -tools: (none)\nFrench"
	if got != want {
		t.Errorf("status:\n%s\nwant\n%s", got, want)
	}
	got = StatusText(nil, PresentationNative, DeliveryPrepared, []string{}, false)
	if got != "Capability capabilities: 0; native system sections; request prepared (not a model-obedience or delivery acknowledgment)\nCurrently selected tools: (none)\n"+TransportNote {
		t.Errorf("empty status: %q", got)
	}
	if got := StatusText(nil, PresentationNative, DeliveryNone, nil, false); !strings.Contains(got, "; none\nCurrently selected tools: "+UnknownTools) {
		t.Errorf("unknown tools: %q", got)
	}
}
