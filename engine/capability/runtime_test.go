package capability

import (
	"fmt"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

const (
	reviewJSON     = `{"schemaVersion":1,"type":"pi-forge.capability","id":"review","name":"Review","description":"Report findings and evidence before editing.","content":"List findings, evidence, and risks. Do not directly edit files.","tools":{"add":[],"remove":["bash","powershell","write","edit"]}}`
	writeToolsJSON = `{"schemaVersion":1,"type":"pi-forge.capability","id":"write-tools","name":"Write tools","description":"Enable bash and edit for task commands/edits.","content":"Use bash and edit only as needed for the current task. Disable this capability when finished.","tools":{"add":["bash","edit"],"remove":[]}}`
	lockJSON       = `{"schemaVersion":1,"type":"pi-forge.capability","id":"lock","content":"No control.","tools":{"add":[],"remove":["forge_capability"]}}`
	webJSON        = `{"schemaVersion":1,"type":"pi-forge.capability","id":"web","content":"","tools":{"add":["web_search"],"remove":[]}}`
	workerJSON     = `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"worker","tools":{"allow":["read","ls","forge_capability","bash","edit"],"initial":["read","ls","forge_capability"]},
	 "capabilities":[{"id":"write-tools","ref":"project:write-tools","modelCallable":true},{"id":"human","ref":"project:write-tools"},{"id":"lock","ref":"project:lock","modelCallable":true},{"id":"web","ref":"project:web","modelCallable":true}],"items":[]}`
	plainJSON = `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"plain","tools":{"deny":["bash"]},"items":[]}`
)

func testWorkspace(t *testing.T, trusted bool) *Workspace {
	t.Helper()
	cat := NewCatalog(
		Load([]byte(reviewJSON), "review.json", preset.ScopeProject),
		Load([]byte(writeToolsJSON), "write-tools.json", preset.ScopeProject),
		Load([]byte(lockJSON), "lock.json", preset.ScopeProject),
		Load([]byte(webJSON), "web.json", preset.ScopeProject),
	)
	ws := &Workspace{Trusted: trusted, Catalog: cat}
	for _, raw := range []string{workerJSON, plainJSON} {
		stack, diags := preset.ParseWith([]byte(raw), "p.json", preset.ParseOptions{Scope: preset.ScopeProject})
		if diags.HasErrors() {
			t.Fatalf("preset: %+v", diags)
		}
		ws.Presets = append(ws.Presets, &PresetRef{Key: Key{Scope: preset.ScopeProject, ID: stack.ID}, Stack: stack,
			Bindings: ResolveBindings(stack, preset.ScopeProject, cat)})
	}
	return ws
}

var piTools = []string{"read", "bash", "edit", "write", "grep", "find", "ls", "forge_capability"}

func seqOptions() Options {
	n := 0
	return Options{Now: func() float64 { return 1000 }, NewID: func() string { n++; return fmt.Sprintf("id-%d", n) }}
}

func newRT(t *testing.T, ws *Workspace, records []Record, presetState string) *Runtime {
	t.Helper()
	in := SessionInput{Records: records, Tools: ToolHost{Registered: piTools, Active: []string{"read", "bash", "edit", "write"}, ActiveKnown: true}}
	if presetState != "" {
		in.PresetState = &presetState
	}
	r, err := NewRuntime(ws, in, seqOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// plannedText renders planned entries as "type data" lines.
func plannedText(r *Runtime) string {
	var b strings.Builder
	for _, p := range r.Planned() {
		b.WriteString(strings.TrimPrefix(p.CustomType, "pi-forge-") + " " + jsonv.Stringify(p.Data) + "\n")
	}
	return b.String()
}

func TestEnableWritesToolsEventAnchors(t *testing.T) {
	r := newRT(t, testWorkspace(t, true), nil, "")
	if got := r.EffectiveTools(); strings.Join(got, ",") != "read,bash,edit,write" {
		t.Fatalf("effective before: %v", got)
	}
	res, ref := r.Enable("review")
	if ref != nil {
		t.Fatal(ref)
	}
	if res.Message != "Selected id-2; tools prepared, instruction pending next model request. Use /capability disable id-2 to stop." {
		t.Errorf("message %q", res.Message)
	}
	snap := directSnap("id-2", "review", "List findings, evidence, and risks. Do not directly edit files.", []string{}, []string{"bash", "powershell", "write", "edit"})
	name := "Review"
	snap = NewSnapshot("id-2", snap.Source, &name, snap.Content, snap.Tools)
	want := `capability-tools {"schemaVersion":1,"baseline":["read","bash","edit","write"],"lastApplied":["read","bash","edit","write"]}
capability-event ` + jsonv.Stringify(NewActivateEvent("id-1", ActorUser, 1000, snap).JSON()) + `
capability-delivery {"schemaVersion":1,"throughEventId":"id-1"}
capability-tools {"schemaVersion":1,"baseline":["read","bash","edit","write"],"lastApplied":["read"]}
`
	if got := plannedText(r); got != want {
		t.Errorf("planned:\n%s\nwant\n%s", got, want)
	}
	if got := r.EffectiveTools(); strings.Join(got, ",") != "read" {
		t.Errorf("effective after: %v", got)
	}
	// Repeated enable is idempotent and writes nothing more.
	before := len(r.Planned())
	res, ref = r.Enable("project:review")
	if ref != nil || !res.Idempotent || res.Message != "Already selected as id-2; source edits do not change this snapshot. Disable/enable to reapply." || len(r.Planned()) != before {
		t.Errorf("idempotent enable: %+v %v", res, ref)
	}
	// Disable by capability id restores the baseline. (The idempotent
	// enable consumed id-3: pi-forge draws the event id first.)
	res, ref = r.Disable("review")
	if ref != nil || res.Message != "Stopped id-2; tools recomputed, stop notice pending next request." {
		t.Fatalf("disable: %+v %v", res, ref)
	}
	if got := strings.Join(r.EffectiveTools(), ","); got != "read,bash,edit,write" {
		t.Errorf("effective after disable: %v", got)
	}
	lines := strings.Split(strings.TrimSpace(plannedText(r)), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[4], `capability-event {"schemaVersion":1,"eventId":"id-4","op":"deactivate","actor":"user"`) ||
		lines[5] != `capability-delivery {"schemaVersion":1,"throughEventId":"id-4"}` ||
		lines[6] != `capability-tools {"schemaVersion":1,"baseline":["read","bash","edit","write"],"lastApplied":["read","bash","edit","write"]}` {
		t.Errorf("disable entries:\n%s", strings.Join(lines, "\n"))
	}
	res, _ = r.Disable("review")
	if res.Message != MsgNoMatch || !res.Idempotent {
		t.Errorf("second disable: %+v", res)
	}
	res, _ = r.Reset()
	if res.Message != MsgNothingToReset {
		t.Errorf("empty reset: %+v", res)
	}
}

func TestEnableBoundWithInitialTools(t *testing.T) {
	r := newRT(t, testWorkspace(t, true), nil, "project:worker")
	if got := strings.Join(r.EffectiveTools(), ","); got != "read,ls,forge_capability" {
		t.Fatalf("defaults: %s", got)
	}
	res, ref := r.EnableBound("write-tools", ActorUser)
	if ref != nil {
		t.Fatal(ref)
	}
	if res.ActivationID != "id-1" || !strings.HasPrefix(res.Message, "Selected id-1; tools prepared, instruction pending") {
		t.Errorf("enable-bound: %+v", res)
	}
	if got := strings.Join(r.EffectiveTools(), ","); got != "read,ls,forge_capability,bash,edit" {
		t.Errorf("with write-tools: %s", got)
	}
	// Idempotent by binding, no ownership change even when the agent asks.
	res, ref = r.EnableBound("write-tools", ActorAgent)
	if ref != nil || !res.Idempotent || res.Message != `Capability "write-tools" is already active as id-1. Repeated use is idempotent and does not change ownership.` {
		t.Errorf("repeat: %+v %v", res, ref)
	}
	// The agent may not stop the human's activation.
	if _, ref := r.AgentDisable("write-tools"); ref == nil || ref.Message != "Agent cannot deactivate user-owned activation: id-1" {
		t.Errorf("agent disable of user activation: %v", ref)
	}
	// Disable by binding id.
	if res, ref := r.Disable("write-tools"); ref != nil || res.ActivationID != "id-1" {
		t.Errorf("disable by binding id: %+v %v", res, ref)
	}
	if got := strings.Join(r.EffectiveTools(), ","); got != "read,ls,forge_capability" {
		t.Errorf("defaults again: %s", got)
	}
}

func TestRefusals(t *testing.T) {
	ws := testWorkspace(t, true)
	cases := []struct {
		name  string
		state string
		run   func(r *Runtime) (Result, *Refusal)
		kind  RefusalKind
		want  string
	}{
		{"untrusted enable", "", func(r *Runtime) (Result, *Refusal) { r.ws = testWorkspace(t, false); return r.Enable("review") }, RefusedUntrusted, MsgUntrustedActivate},
		{"untrusted add", "", func(r *Runtime) (Result, *Refusal) { r.ws = testWorkspace(t, false); return r.Add("x") }, RefusedUntrusted, MsgUntrustedActivate},
		{"untrusted disable", "", func(r *Runtime) (Result, *Refusal) { r.ws = testWorkspace(t, false); return r.Disable("manual") }, RefusedUntrusted, MsgWorkbenchUntrusted},
		{"untrusted preset", "", func(r *Runtime) (Result, *Refusal) { r.ws = testWorkspace(t, false); return r.UsePreset("none") }, RefusedUntrusted, MsgPresetUntrusted},
		{"unknown capability", "", func(r *Runtime) (Result, *Refusal) { return r.Enable("nope") }, RefusedUnknown, `Capability capability "nope" not found.`},
		{"bad selector", "", func(r *Runtime) (Result, *Refusal) { return r.Enable("user:x") }, RefusedUsage, `Unknown scope prefix: user. Expected "project" or "global".`},
		{"no preset", "", func(r *Runtime) (Result, *Refusal) { return r.EnableBound("write-tools", ActorUser) }, RefusedRule, MsgNoActivePreset},
		{"unknown binding", "project:worker", func(r *Runtime) (Result, *Refusal) { return r.EnableBound("nope", ActorUser) }, RefusedUnknown,
			`Capability "nope" is not bound to active preset "project:worker".`},
		{"agent without modelCallable", "project:worker", func(r *Runtime) (Result, *Refusal) { return r.EnableBound("human", ActorAgent) }, RefusedRule,
			`Capability "human" is not authorized for agent use (modelCallable is not true).`},
		{"agent removes control tool", "project:worker", func(r *Runtime) (Result, *Refusal) { return r.EnableBound("lock", ActorAgent) }, RefusedRule,
			`Cannot activate capability "lock": agent cannot remove control tool "forge_capability".`},
		{"binding not registered", "project:worker", func(r *Runtime) (Result, *Refusal) { return r.EnableBound("web", ActorUser) }, RefusedRule,
			`Cannot activate capability "web": Tool "web_search" is not registered.`},
		{"policy blocks add", "project:plain", func(r *Runtime) (Result, *Refusal) { return r.Enable("write-tools") }, RefusedRule,
			`Tool "bash" is blocked by prompt stack "plain".`},
		{"long binding id", "project:worker", func(r *Runtime) (Result, *Refusal) { return r.EnableBound(strings.Repeat("b", 129), ActorUser) }, RefusedRule,
			"Binding ID must be at most 128 characters."},
		{"usage add", "", func(r *Runtime) (Result, *Refusal) { return r.Add("  ") }, RefusedUsage, "Usage: /capability add <text>"},
		{"usage disable", "", func(r *Runtime) (Result, *Refusal) { return r.Disable(" ") }, RefusedUsage, "Usage: /capability disable <id>"},
		{"unknown preset", "", func(r *Runtime) (Result, *Refusal) { return r.UsePreset("ghost") }, RefusedUnknown, "Unknown prompt stack: ghost"},
	}
	for _, c := range cases {
		r := newRT(t, ws, nil, c.state)
		_, ref := c.run(r)
		if ref == nil || ref.Kind != c.kind || ref.Message != c.want {
			t.Errorf("%s: got %+v, want %s %q", c.name, ref, c.kind, c.want)
		}
		if len(r.Planned()) != 0 {
			t.Errorf("%s: a refusal planned entries:\n%s", c.name, plannedText(r))
		}
	}
}

// TestResetWorksInAnUntrustedProject: reset is pi-forge's way out of
// "Active capabilities require a trusted project", so it is planned there.
func TestResetWorksInAnUntrustedProject(t *testing.T) {
	r := newRT(t, testWorkspace(t, true), nil, "")
	if _, ref := r.Add("Answer in French."); ref != nil {
		t.Fatal(ref)
	}
	before := len(r.Planned())
	r.ws = testWorkspace(t, false)
	res, ref := r.Reset()
	if ref != nil || res.Message != MsgResetDone || len(r.Planned()) <= before {
		t.Fatalf("untrusted reset: %+v %+v\n%s", res, ref, plannedText(r))
	}
	if len(r.history.Reduced.Active) != 0 {
		t.Fatal("reset left activations")
	}
}

func TestAmbiguousDisableAndAdd(t *testing.T) {
	r := newRT(t, testWorkspace(t, true), nil, "")
	if _, ref := r.Add("Answer in French.  "); ref != nil {
		t.Fatal(ref)
	}
	if _, ref := r.Add("Be brief."); ref != nil {
		t.Fatal(ref)
	}
	if _, ref := r.Disable("manual"); ref == nil || ref.Message != MsgAmbiguousDisable {
		t.Errorf("ambiguous: %v", ref)
	}
	st := r.History().Reduced
	if len(st.Active) != 2 || st.Active[0].Snapshot.Content != "Answer in French.  " {
		t.Errorf("manual content kept verbatim: %+v", st.Active)
	}
	// The first commit stores the pristine baseline; manual directives
	// change no tools, so no later tools entry follows.
	if got := plannedText(r); strings.Count(got, "capability-tools") != 1 || !strings.HasPrefix(got, "capability-tools ") {
		t.Errorf("tools entries:\n%s", got)
	}
	res, ref := r.Reset()
	if ref != nil || res.Message != MsgResetDone || len(r.History().Reduced.Active) != 0 {
		t.Errorf("reset: %+v %v", res, ref)
	}
}

func TestStaleBindingIdentity(t *testing.T) {
	ws := testWorkspace(t, true)
	// An earlier version of the binding pointed at review.
	stale := NewActivateEvent("e1", ActorUser, 1, boundSnap("a1", "review", "worker", "write-tools", "old", []string{}, []string{}))
	r := newRT(t, ws, []Record{eventRec(stale), anchorRec("e1")}, "project:worker")
	if _, ref := r.EnableBound("write-tools", ActorUser); ref == nil || ref.Message != `Capability "write-tools" has a stale binding identity; disable the old activation before reusing it.` {
		t.Errorf("stale: %v", ref)
	}
}

func TestPresetSwitch(t *testing.T) {
	ws := testWorkspace(t, true)
	r := newRT(t, ws, nil, "project:worker")
	if _, ref := r.EnableBound("write-tools", ActorAgent); ref != nil {
		t.Fatal(ref)
	}
	if _, ref := r.Add("Keep notes."); ref != nil {
		t.Fatal(ref)
	}
	// plain denies bash; write-tools (bound to worker) retires on the
	// switch, so only the manual directive survives the preflight.
	n := len(r.Planned())
	res, ref := r.UsePreset("plain")
	if ref != nil || res.Message != "pi-forge: active prompt stack plain" {
		t.Fatalf("switch: %+v %v", res, ref)
	}
	lines := strings.Split(strings.TrimSpace(plannedText(r)), "\n")[n:]
	if lines[0] != `prompt-stack-state {"activeStackId":"project:plain"}` ||
		!strings.HasPrefix(lines[1], `capability-event {"schemaVersion":1,"eventId":"id-5","op":"deactivate","actor":"lifecycle","createdAt":1000,"activationId":"id-1"}`) ||
		lines[2] != `capability-delivery {"schemaVersion":1,"throughEventId":"id-5"}` ||
		!strings.HasPrefix(lines[3], `capability-tools {"schemaVersion":1,"baseline":["read","bash","edit","write"],"lastApplied":["read","edit","write"]}`) {
		t.Errorf("switch entries:\n%s", strings.Join(lines, "\n"))
	}
	if len(r.History().Reduced.Active) != 1 || r.History().Reduced.Active[0].Snapshot.Source.Kind != SourceManual {
		t.Errorf("survivors: %+v", r.History().Reduced.Active)
	}
	// Switching to the same Preset writes nothing.
	if res, ref := r.UsePreset("project:plain"); ref != nil || !res.Idempotent {
		t.Errorf("same preset: %+v %v", res, ref)
	}
	// A direct write-tools activation survives switches and conflicts with
	// plain's deny: the preflight refuses going back to plain.
	r = newRT(t, ws, nil, "")
	if _, ref := r.Enable("write-tools"); ref != nil {
		t.Fatal(ref)
	}
	n = len(r.Planned())
	if _, ref := r.UsePreset("plain"); ref == nil || ref.Message != `Tool "bash" is blocked by prompt stack "plain".` || len(r.Planned()) != n {
		t.Errorf("preflight: %v", ref)
	}
	if got := r.SavePreflight(ws.Presets[1]); got != "" {
		t.Errorf("save preflight of an inactive preset: %q", got)
	}
	r2 := newRT(t, ws, nil, "project:worker")
	if _, ref := r2.Enable("review"); ref != nil {
		t.Fatal(ref)
	}
	draft := *ws.Presets[0]
	stack := *draft.Stack
	stack.Tools = &preset.ResourcePolicy{Deny: []string{"edit"}}
	draft.Stack = &stack
	if got := r2.SavePreflight(&draft); got != "" {
		t.Errorf("review only removes tools, any policy accepts it: %q", got)
	}
	if _, ref := r2.Enable("write-tools"); ref != nil {
		t.Fatal(ref)
	}
	if got := r2.SavePreflight(&draft); got != `Tool "edit" is blocked by prompt stack "worker".` {
		t.Errorf("save preflight: %q", got)
	}
}

func TestAgentTool(t *testing.T) {
	r := newRT(t, testWorkspace(t, true), nil, "project:worker")
	call := func(s string) (AgentReply, string) {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return r.AgentTool(v, "STATUS")
	}
	for in, want := range map[string]string{
		`[]`:                            "forge_capability parameters must be a plain object.",
		`{"action":"list","x":1}`:       `forge_capability: unknown argument "x". Only "action" and "id" are permitted.`,
		`{"action":"reset"}`:            `forge_capability: invalid action "reset". Expected "list", "status", "enable", or "disable".`,
		`{}`:                            `forge_capability: invalid action "undefined". Expected "list", "status", "enable", or "disable".`,
		`{"action":"status","id":null}`: `forge_capability: argument "id" is irrelevant for action "status".`,
		`{"action":"enable"}`:           `forge_capability: argument "id" is required for action "enable".`,
		`{"action":"disable","id":" "}`: `forge_capability: argument "id" is required for action "disable".`,
		`{"action":"enable","id":"` + strings.Repeat("i", 129) + `"}`: `forge_capability: argument "id" must be at most 128 characters.`,
		`{"action":"enable","id":"human"}`:                            `Capability "human" is not authorized for agent use (modelCallable is not true).`,
	} {
		if _, got := call(in); got != want {
			t.Errorf("%s: got %q want %q", in, got, want)
		}
	}
	reply, msg := call(`{"action":"list"}`)
	if msg != "" || reply.Text != "id: write-tools (Write tools)\n  description: Enable bash and edit for task commands/edits.\n  tools: +bash, edit; -(none)" {
		t.Errorf("list: %q %q", reply.Text, msg)
	}
	if got := jsonv.Stringify(reply.Details); got != `{"action":"list","capabilities":[{"id":"write-tools","name":"Write tools","tools":{"add":["bash","edit"],"remove":[]}}]}` {
		t.Errorf("list details: %s", got)
	}
	reply, msg = call(`{"action":"enable","id":"write-tools"}`)
	if msg != "" || jsonv.Stringify(reply.Details) != `{"action":"enable","activationId":"id-1","idempotent":false}` {
		t.Errorf("enable: %q %s", msg, jsonv.Stringify(reply.Details))
	}
	reply, _ = call(`{"action":"status"}`)
	if reply.Text != "STATUS" || jsonv.Stringify(reply.Details) != `{"action":"status","activeCount":1,"active":[{"activationId":"id-1","actor":"agent","source":"project:write-tools","bindingId":"write-tools","tools":{"add":["bash","edit"],"remove":[]}}]}` {
		t.Errorf("status: %s", jsonv.Stringify(reply.Details))
	}
	reply, msg = call(`{"action":"disable","id":"write-tools"}`)
	if msg != "" || reply.Text != "Stopped id-1; tools recomputed, stop notice pending next request." {
		t.Errorf("disable: %q %q", reply.Text, msg)
	}
	if _, msg := call(`{"action":"disable","id":"write-tools"}`); msg != "No matching active capability: write-tools" {
		t.Errorf("disable again: %q", msg)
	}
	// Without the control tool selected the agent is refused everything.
	r = newRT(t, testWorkspace(t, true), nil, "project:plain")
	if _, msg := call(`{"action":"list"}`); msg != MsgControlUnavailable {
		t.Errorf("control tool: %q", msg)
	}
	r.ws = testWorkspace(t, false)
	if _, msg := call(`{"action":"list"}`); msg != "forge_capability requires a trusted project." {
		t.Errorf("untrusted: %q", msg)
	}
}

func TestUnknownToolSelection(t *testing.T) {
	in := SessionInput{Tools: ToolHost{Registered: piTools}}
	r, err := NewRuntime(testWorkspace(t, true), in, seqOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.EffectiveTools() != nil {
		t.Errorf("unknown selection must stay unknown: %v", r.EffectiveTools())
	}
	if _, ref := r.Enable("write-tools"); ref != nil {
		t.Fatal(ref)
	}
	// Event and anchor, but no guessed tools baseline.
	if got := plannedText(r); strings.Contains(got, "capability-tools") || strings.Count(got, "\n") != 2 {
		t.Errorf("planned:\n%s", got)
	}
}

// TestModelCallableIsWhatTheAgentMayEnable: the bindings forge_capability
// lists — modelCallable, not removing the control tool, passing the
// policy — and nothing without trust or an active Preset.
func TestModelCallableIsWhatTheAgentMayEnable(t *testing.T) {
	r := newRT(t, testWorkspace(t, true), nil, "project:worker")
	got := r.ModelCallable()
	if len(got) != 1 || got[0].BindingID != "write-tools" || got[0].Capability != "project:write-tools" || got[0].Name != "Write tools" {
		t.Fatalf("%+v", got)
	}
	if got := newRT(t, testWorkspace(t, true), nil, "").ModelCallable(); len(got) != 0 {
		t.Fatalf("no Preset: %+v", got)
	}
	if got := newRT(t, testWorkspace(t, false), nil, "project:worker").ModelCallable(); len(got) != 0 {
		t.Fatalf("untrusted: %+v", got)
	}
}
