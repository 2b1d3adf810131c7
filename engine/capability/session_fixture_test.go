package capability

import (
	"bytes"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// fixtureBranch reads capability-session-example.jsonl (one linear branch)
// into history records and the model-visible messages with anchors
// materialized as markers at their positions.
func fixtureBranch(t *testing.T) ([]Record, []any) {
	t.Helper()
	var records []Record
	var messages []any
	for i, line := range bytes.Split(bytes.TrimSpace(fixtures.Read(t, "pi-forge/capability-session-example.jsonl")), []byte("\n")) {
		v, err := jsonv.Parse(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		e := v.(*jsonv.Object)
		typ, _ := e.Get("type")
		ct, _ := e.Get("customType")
		switch typ {
		case "message":
			m, _ := e.Get("message")
			messages = append(messages, m)
		case "compaction":
			records = append(records, Record{Kind: RecordCompaction})
		case "custom":
			data, present := e.Get("data")
			ctype, _ := ct.(string)
			if IsHistoryType(ctype) {
				records = append(records, Record{Kind: RecordCustom, CustomType: ctype, Payload: data, Present: present})
			}
			if ctype == DeliveryEntryType {
				through, _ := data.(*jsonv.Object).Get("throughEventId")
				ts, _ := e.Get("timestamp")
				when, _ := time.Parse(time.RFC3339Nano, ts.(string))
				messages = append(messages, MarkerMessage(through.(string), float64(when.UnixMilli())))
			}
		}
	}
	return records, messages
}

// TestCapabilitySessionExample checks the synthetic session against its
// hand-derived expectations (fixtures/pi-forge/capability-session-example.*).
func TestCapabilitySessionExample(t *testing.T) {
	records, messages := fixtureBranch(t)
	expected, err := jsonv.Parse(fixtures.Read(t, "pi-forge/capability-session-example.expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	exp := expected.(*jsonv.Object)
	h, herr := ReadHistory(records)
	if herr != nil {
		t.Fatal(herr)
	}
	wantActive, _ := exp.Get("activeAfterAllEvents")
	if len(wantActive.([]any)) != len(h.Reduced.Active) {
		t.Fatalf("active: got %d, want %d", len(h.Reduced.Active), len(wantActive.([]any)))
	}
	for i, w := range wantActive.([]any) {
		wo := w.(*jsonv.Object)
		a := h.Reduced.Active[i]
		id, _ := wo.Get("activationId")
		actor, _ := wo.Get("actor")
		source, _ := wo.Get("source")
		if a.Snapshot.ActivationID != id || string(a.Actor) != actor || a.Snapshot.SourceLabel() != source {
			t.Errorf("active[%d] = %s/%s/%s, want %v/%v/%v", i, a.Snapshot.ActivationID, a.Actor, a.Snapshot.SourceLabel(), id, actor, source)
		}
	}
	if last, _ := exp.Get("lastEventId"); h.Reduced.LastEventID != last {
		t.Errorf("lastEventId %q, want %v", h.Reduced.LastEventID, last)
	}
	if idx, _ := exp.Get("lastAnchoredIndex"); float64(h.LastAnchoredIndex) != idx {
		t.Errorf("lastAnchoredIndex %d, want %v", h.LastAnchoredIndex, idx)
	}
	if pending, _ := exp.Get("pendingEvents"); len(pending.([]any)) != len(h.PendingEvents()) {
		t.Errorf("pending %d, want %d", len(h.PendingEvents()), len(pending.([]any)))
	}
	if h.Tools == nil || len(h.Tools.Baseline) != 8 || len(h.Tools.LastApplied) != 3 {
		t.Errorf("tools baseline %+v", h.Tools)
	}
	for _, native := range []bool{false, true} {
		key := "fallbackProjectionAtAnchors"
		if native {
			key = "nativeProjectionAtAnchors"
		}
		_, updates, msg := ProjectMessages(messages, h, native)
		if msg != "" {
			t.Fatal(msg)
		}
		want, _ := exp.Get(key)
		if len(updates) != len(want.([]any)) {
			t.Fatalf("%s: %d updates, want %d", key, len(updates), len(want.([]any)))
		}
		for i, w := range want.([]any) {
			wo := w.(*jsonv.Object)
			got := updates[i].Message.Clone()
			got.Delete("timestamp")
			expectMsg := wo.Clone()
			if through, ok := expectMsg.Get("throughEventId"); ok {
				if updates[i].ThroughEventID != through {
					t.Errorf("%s[%d] through %s, want %v", key, i, updates[i].ThroughEventID, through)
				}
				expectMsg.Delete("throughEventId")
			}
			if jsonv.Stringify(got) != jsonv.Stringify(expectMsg) {
				t.Errorf("%s[%d]:\n got %s\nwant %s", key, i, jsonv.Stringify(got), jsonv.Stringify(expectMsg))
			}
			if updates[i].Kind != UpdateAnchor {
				t.Errorf("%s[%d] kind %s", key, i, updates[i].Kind)
			}
		}
	}
}

// TestFingerprintVectorSnapshots recomputes the three snapshot vectors
// through the event decoder: each fixture event's fingerprint matches.
func TestFingerprintVectorSnapshots(t *testing.T) {
	records, _ := fixtureBranch(t)
	n := 0
	for _, r := range records {
		if r.CustomType != EventEntryType {
			continue
		}
		ev, msg := DecodeEvent(r.Payload)
		if msg != "" {
			t.Fatalf("fixture event rejected: %s", msg)
		}
		if ev.Op == OpActivate {
			n++
			s := ev.Snapshot
			if SnapshotFingerprint(s.Source, s.Name, s.Content, s.Tools) != s.Fingerprint {
				t.Errorf("fingerprint of %s", s.ActivationID)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d activations in the fixture, want 2", n)
	}
}
