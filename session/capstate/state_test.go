package capstate

import (
	"errors"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
)

func TestStateAlongABranch(t *testing.T) {
	ws := defaultWorkspace(t)
	b := newBuilder()
	b.custom(capability.PresetStateEntryType, mustObj(`{"activeStackId":"project:read-first-worker"}`))
	b.message("system", systemMessage("read", "bash", "edit", "write"))
	b.message("user", `"content":"hi","timestamp":1`)
	asst := b.message("assistant", assistant("anthropic", "claude-opus-4-8"))
	s := b.session(t)
	st, err := At(s, s.LeafIndex(), inputs(ws), seq())
	if err != nil || st.Err != nil {
		t.Fatal(err, st.Err)
	}
	if st.ID != asst || st.StoredPreset == nil || *st.StoredPreset != "project:read-first-worker" || st.Preset == nil {
		t.Fatalf("preset: %+v", st)
	}
	if got := strings.Join(st.EffectiveTools, ","); got != "read,ls,forge_capability" {
		t.Errorf("effective tools %s", got)
	}
	if st.Delivery != capability.DeliveryNone || st.Presentation != capability.PresentationNative || !st.Model.Native {
		t.Errorf("delivery %s presentation %s model %+v", st.Delivery, st.Presentation, st.Model)
	}

	// Enable the binding offline, append, and read the state back.
	p, err := PlanAt(s, inputs(ws), Operation{Kind: OpEnableBound, Arg: "write-tools"}, seq())
	if err != nil || p.Refusal != nil {
		t.Fatal(err, p.Refusal)
	}
	if len(p.Planned) != 4 || p.Planned[0].CustomType != capability.ToolsEntryType || p.Planned[1].CustomType != capability.EventEntryType ||
		p.Planned[2].CustomType != capability.DeliveryEntryType || p.Planned[3].CustomType != capability.ToolsEntryType {
		t.Fatalf("planned %+v", p.Planned)
	}
	if got := strings.Join(p.After.EffectiveTools, ","); got != "read,ls,forge_capability,bash,edit" || p.After.Delivery != capability.DeliveryPending {
		t.Errorf("after: %s %s", got, p.After.Delivery)
	}
	path := b.file(t)
	if _, err := session.Append(path, p.Guard, p.Entries(), session.AppendOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	s2, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := At(s2, s2.LeafIndex(), inputs(ws), seq())
	if len(st2.Active()) != 1 || st2.Active()[0].Snapshot.BindingID() != "write-tools" || st2.Delivery != capability.DeliveryPending || len(st2.Pending) != 0 {
		t.Errorf("re-read: %d active, delivery %s, pending %d", len(st2.Active()), st2.Delivery, len(st2.Pending))
	}
	if got := strings.Join(st2.EffectiveTools, ","); got != "read,ls,forge_capability,bash,edit" {
		t.Errorf("re-read effective %s", got)
	}
	// The state at an earlier entry is unaffected.
	earlier, _ := At(s2, 2, inputs(ws), seq())
	if len(earlier.Active()) != 0 {
		t.Error("state at an earlier entry sees a later activation")
	}
}

func TestDeliveryPrepared(t *testing.T) {
	ws := defaultWorkspace(t)
	b := newBuilder()
	b.message("system", systemMessage("read", "bash"))
	b.message("assistant", assistant("openai", "gpt-4o"))
	ev := capability.NewActivateEvent("e1", capability.ActorUser, 5, capability.NewSnapshot("a1", capability.SnapshotSource{Kind: capability.SourceManual}, nil, "Be brief.", capability.ToolPatch{Add: []string{}, Remove: []string{}}))
	b.custom(capability.EventEntryType, ev.JSON())
	b.custom(capability.DeliveryEntryType, capability.AnchorData("e1"))
	s := b.session(t)
	st, _ := At(s, s.LeafIndex(), inputs(ws), seq())
	if st.Delivery != capability.DeliveryPending {
		t.Errorf("anchored but not requested: %s", st.Delivery)
	}
	b.message("user", `"content":"go","timestamp":3`)
	b.message("assistant", assistant("openai", "gpt-4o"))
	s = b.session(t)
	st, _ = At(s, s.LeafIndex(), inputs(ws), seq())
	if st.Delivery != capability.DeliveryPrepared || st.Presentation != capability.PresentationFallback {
		t.Errorf("after a reply: %s %s", st.Delivery, st.Presentation)
	}
	if !strings.HasPrefix(st.StatusText(false), "Capability capabilities: 1; attributed user updates; request prepared") {
		t.Errorf("status: %s", st.StatusText(false))
	}
	b.add("model_change", `"provider":"anthropic","modelId":"claude-opus-4-8"`)
	s = b.session(t)
	st, _ = At(s, s.LeafIndex(), inputs(ws), seq())
	if st.Delivery != capability.DeliveryPending || st.Presentation != capability.PresentationNative {
		t.Errorf("after a model change: %s %s", st.Delivery, st.Presentation)
	}
}

func TestUnreadableHistory(t *testing.T) {
	b := newBuilder()
	b.message("user", `"content":"x","timestamp":1`)
	bad := b.custom("pi-forge-instruction-event", mustObj(`{}`))
	s := b.session(t)
	st, err := At(s, s.LeafIndex(), inputs(defaultWorkspace(t)), seq())
	if err != nil || st.Err == nil || st.ErrEntryID != bad || !strings.Contains(st.Err.Message, "legacy pre-capability state") {
		t.Fatalf("%v %+v", err, st.Err)
	}
	if _, err := PlanAt(s, inputs(defaultWorkspace(t)), Operation{Kind: OpReset}, seq()); !errors.Is(err, ErrHistory) {
		t.Errorf("plan on unreadable history: %v", err)
	}
}

// TestUntrustedRefusesEveryChange: every change but reset, pi-forge's way
// out of active capabilities in an untrusted project.
func TestUntrustedRefusesEveryChange(t *testing.T) {
	ws := workspace(t, false, []string{reviewJSON}, nil)
	b := newBuilder()
	b.message("user", `"content":"x","timestamp":1`)
	s := b.session(t)
	if p, err := PlanAt(s, inputs(ws), Operation{Kind: OpReset}, seq()); err != nil || p.Refusal != nil {
		t.Errorf("reset: %v %+v", err, p)
	}
	for _, op := range []Operation{{OpEnable, "review"}, {OpEnableBound, "x"}, {OpDisable, "x"}, {OpAdd, "t"}, {OpUsePreset, "none"}} {
		p, err := PlanAt(s, inputs(ws), op, seq())
		if err != nil || p.Refusal == nil || p.Refusal.Kind != capability.RefusedUntrusted || p.Changes() {
			t.Errorf("%s: %v %+v", op.Kind, err, p)
		}
	}
}

// TestCapabilitySessionExample reads the synthetic session through the
// session package: the state at the leaf is the hand-derived one, and the
// effective tools are the Preset's initial tools.
func TestCapabilitySessionExample(t *testing.T) {
	read := func(rel string) string { return string(fixtures.Read(t, "pi-forge/"+rel)) }
	ws := workspace(t, true,
		[]string{read("examples/capabilities/review.json"), read("examples/capabilities/write-tools.json")},
		[]string{read("examples/read-first-worker-prompt-stack.json")})
	s, err := session.Open(fixtures.Path(t, "pi-forge/capability-session-example.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := At(s, s.LeafIndex(), inputs(ws), seq())
	if err != nil || st.Err != nil {
		t.Fatal(err, st.Err)
	}
	if len(st.Active()) != 1 || st.Active()[0].Snapshot.ActivationID != "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f" ||
		st.History.Reduced.LastEventID != "2daf8c3e-a180-4f5c-84e6-708192a3b403" || len(st.Pending) != 0 || st.History.LastAnchoredIndex != 2 {
		t.Errorf("leaf state: %+v", st.History.Reduced)
	}
	if got := strings.Join(st.EffectiveTools, ","); got != "read,ls,forge_capability" {
		t.Errorf("effective tools %s (expected note: initial tools, no active patches)", got)
	}
	mid, _ := At(s, 4, inputs(ws), seq()) // e0000005: the agent's write-tools anchored
	if got := strings.Join(mid.EffectiveTools, ","); got != "read,ls,forge_capability,bash,edit" || len(mid.Active()) != 1 {
		t.Errorf("mid effective tools %s", got)
	}
	if st.Delivery != capability.DeliveryPending {
		t.Errorf("no assistant reply after the anchors: delivery %s", st.Delivery)
	}
}

func TestPresetSwitchPlan(t *testing.T) {
	plain := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"plain","items":[]}`
	ws := workspace(t, true, []string{reviewJSON, writeToolsJSON}, []string{workerJSON, plain})
	b := newBuilder()
	b.custom(capability.PresetStateEntryType, mustObj(`{"activeStackId":"project:read-first-worker"}`))
	b.message("system", systemMessage("read", "bash", "edit", "write"))
	path := b.file(t)
	apply := func(op Operation) *Plan {
		t.Helper()
		s, err := session.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := PlanAt(s, inputs(ws), op, seq())
		if err != nil || p.Refusal != nil {
			t.Fatal(err, p.Refusal)
		}
		if _, err := session.Append(path, p.Guard, p.Entries(), session.AppendOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	apply(Operation{Kind: OpEnableBound, Arg: "write-tools"})
	p := apply(Operation{Kind: OpUsePreset, Arg: "plain"})
	if p.Result.Message != "pi-forge: active prompt stack plain" || *p.After.StoredPreset != "project:plain" || len(p.After.Active()) != 0 {
		t.Errorf("switch: %+v", p.Result)
	}
	s, _ := session.Open(path)
	st, _ := At(s, s.LeafIndex(), inputs(ws), seq())
	if *st.StoredPreset != "project:plain" || st.Preset.Key != (capability.Key{Scope: preset.ScopeProject, ID: "plain"}) || len(st.Active()) != 0 {
		t.Errorf("after switch: %v %+v", *st.StoredPreset, st.Active())
	}
	if got := strings.Join(st.EffectiveTools, ","); got != "read,bash,edit,write" {
		t.Errorf("baseline restored after the switch: %s", got)
	}
}

// The Preset selection capstate reads during its one walk is the one
// replay.ActivePresetAt finds, at every entry of a session with branches,
// a custom_message of the same type (not a selection), an "off" and a
// malformed selection.
func TestStoredPresetIsActivePresetAt(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"00000000-0000-4000-8000-000000000001","timestamp":"2026-10-01T10:00:00.000Z","cwd":"/work/project"}`,
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-10-01T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
		`{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:read-first-worker"},"id":"p1","parentId":"m1","timestamp":"2026-10-01T10:00:02.000Z"}`,
		`{"type":"custom_message","customType":"pi-forge-prompt-stack-state","content":"x","display":false,"data":{"activeStackId":"global:nope"},"id":"c1","parentId":"p1","timestamp":"2026-10-01T10:00:03.000Z"}`,
		`{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"off"},"id":"p2","parentId":"c1","timestamp":"2026-10-01T10:00:04.000Z"}`,
		`{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":42},"id":"p3","parentId":"p1","timestamp":"2026-10-01T10:00:05.000Z"}`,
		`{"type":"message","id":"m2","parentId":"p3","timestamp":"2026-10-01T10:00:06.000Z","message":{"role":"user","content":"again","timestamp":2}}`,
		`{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:read-first-worker"},"id":"p4","parentId":"m1","timestamp":"2026-10-01T10:00:07.000Z"}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := inputs(defaultWorkspace(t))
	for i := range s.Entries {
		st, err := At(s, i, in, seq())
		if err != nil {
			t.Fatal(err)
		}
		want := storedPreset(replay.ActivePresetAt(s, i))
		got := st.StoredPreset
		if (got == nil) != (want == nil) || (got != nil && *got != *want) {
			t.Errorf("entry %s: stored preset %v, ActivePresetAt %v", s.Entries[i].ID, deref(got), deref(want))
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
