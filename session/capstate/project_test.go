package capstate

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

func TestProjectMaterializesAnchors(t *testing.T) {
	ws := defaultWorkspace(t)
	none := capability.ToolPatch{Add: []string{}, Remove: []string{}}
	b := newBuilder()
	// An idle change before Pi's first system message: its update must not
	// displace the leading system prompt.
	e1 := capability.NewActivateEvent("e1", capability.ActorUser, 5, capability.NewSnapshot("a1", capability.SnapshotSource{Kind: capability.SourceManual}, nil, "Answer in French.", none))
	b.custom(capability.EventEntryType, e1.JSON())
	b.custom(capability.DeliveryEntryType, capability.AnchorData("e1"))
	b.message("system", systemMessage("read"))
	b.message("user", `"content":"first","timestamp":1`)
	b.message("assistant", assistant("openai", "gpt-4o"))
	e2 := capability.NewDeactivateEvent("e2", capability.ActorUser, 9, "a1")
	b.custom(capability.EventEntryType, e2.JSON())
	s := b.session(t)
	st, err := At(s, s.LeafIndex(), inputs(ws), seq())
	if err != nil || st.Err != nil {
		t.Fatal(err, st.Err)
	}
	p, err := Project(s, st, true)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range p.Messages {
		role, _ := m.(*jsonv.Object).Get("role")
		roles = append(roles, role.(string))
	}
	// system first, then the anchored update, the user turn, the reply,
	// and the pending stop notice at the end.
	if got := strings.Join(roles, ","); got != "system,user,user,assistant,user" {
		t.Fatalf("roles %s", got)
	}
	if c, _ := p.Messages[1].(*jsonv.Object).Get("content"); c != "[pi-forge capability update]\nUpdated system prompt section \"forge-capability-a1\":\n\nAnswer in French." {
		t.Errorf("anchored update %q", c)
	}
	if c, _ := p.Messages[4].(*jsonv.Object).Get("content"); c != "[pi-forge capability update]\nRemoved system prompt section \"forge-capability-a1\"." {
		t.Errorf("pending update %q", c)
	}
	if len(p.Updates) != 2 || p.Updates[0].Kind != capability.UpdateAnchor || p.Updates[1].Kind != capability.UpdatePending {
		t.Errorf("updates %+v", p.Updates)
	}
	// Untrusted: no markers, no updates.
	p, err = Project(s, st, false)
	if err != nil || len(p.Messages) != 3 || len(p.Updates) != 0 {
		t.Errorf("untrusted: %d messages, %d updates, %v", len(p.Messages), len(p.Updates), err)
	}
}

// TestProjectPreview compiles a Preset over the materialized context and
// puts the capability updates where the request carries them.
func TestProjectPreview(t *testing.T) {
	ws := defaultWorkspace(t)
	none := capability.ToolPatch{Add: []string{}, Remove: []string{}}
	b := newBuilder()
	b.message("system", systemMessage("read"))
	b.message("user", `"content":"first","timestamp":1`)
	e1 := capability.NewActivateEvent("e1", capability.ActorUser, 5, capability.NewSnapshot("a1", capability.SnapshotSource{Kind: capability.SourceManual}, nil, "Answer in French.", none))
	b.custom(capability.EventEntryType, e1.JSON())
	b.custom(capability.DeliveryEntryType, capability.AnchorData("e1"))
	b.message("assistant", assistant("anthropic", "claude-opus-4-8"))
	s := b.session(t)
	st, err := At(s, s.LeafIndex(), inputs(ws), seq())
	if err != nil || st.Err != nil {
		t.Fatal(err, st.Err)
	}
	msgs, err := Materialize(s, st, true)
	if err != nil {
		t.Fatal(err)
	}
	stack, diags := preset.ParseWith([]byte(`{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"p","items":[{"kind":"slot","id":"h","slot":"chat-history"}]}`), "p.json", preset.ParseOptions{Scope: preset.ScopeProject})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res := compile.Preview(stack, compile.Runtime{}, "base", msgs, nil)
	out, err := ProjectPreview(res, st, true)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, p := range out.Messages {
		kinds = append(kinds, p.Kind+":"+p.Role)
		// pi-forge's native cards keep the inspector prose ("Updated system
		// prompt section …:") out of the text and the token estimate.
		if p.Kind == PartCapability && (p.Text != "Answer in French." || p.Tokens != compile.EstimateTokens("Answer in French.") || !strings.Contains(p.Label, "native system section · a1")) {
			t.Errorf("capability part %+v", p)
		}
	}
	if got := strings.Join(kinds, ","); !strings.Contains(got, "capability:system") || strings.Contains(got, "custom") {
		t.Errorf("parts %s", got)
	}
	// History parts are numbered over what the request carries: the
	// delivery marker the compiler saw is not a conversation message.
	var history []string
	for _, p := range out.Messages {
		if p.Kind == compile.PartHistory {
			history = append(history, p.Label)
		}
	}
	if len(history) != 3 || !strings.HasSuffix(history[0], " 1/3") || !strings.HasSuffix(history[2], " 3/3") {
		t.Errorf("history labels %q", history)
	}
	// The compiled messages follow the projection, aligned with their
	// sources: what reads them (the draft diff) sees the request.
	compiled := out.Result.Messages
	if len(compiled.Messages) != len(out.Messages) || len(compiled.MessageSources) != len(compiled.Messages) {
		t.Fatalf("%d compiled messages, %d sources, %d parts", len(compiled.Messages), len(compiled.MessageSources), len(out.Messages))
	}
	for i, m := range compiled.Messages {
		if capability.IsDeliveryMarker(m) {
			t.Errorf("compiled message %d is a delivery marker", i)
		}
		if m != out.Messages[i].Message {
			t.Errorf("compiled message %d is not the part's message", i)
		}
	}
}
