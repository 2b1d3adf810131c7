package compile

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// TestPrepareDelegationMatchesPiForge compares the subagent host port's
// preparation and the Preset snapshot fingerprint with pi-forge 0.5.1's
// (testdata/pi-forge-0.5.1/README.md). 0.5.1 read no tools.initial, so the
// preparation is compared for the Preset without it (the newer negotiation
// is TestDelegationAppliesToolsInitial).
func TestPrepareDelegationMatchesPiForge(t *testing.T) {
	data, err := os.ReadFile("testdata/pi-forge-0.5.1/delegation.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Stack       json.RawMessage `json:"stack"`
		Task        string          `json:"task"`
		Cwd         string          `json:"cwd"`
		Catalog     []string        `json:"catalog"`
		StackPrint  string          `json:"promptStackFingerprintOf051Fields"`
		Preparation json.RawMessage `json:"preparation"`
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	stack, _ := preset.ParseWith(fx.Stack, "guarded-worker.json", preset.ParseOptions{Scope: preset.ScopeProject})
	as051 := *stack
	allowOnly := *stack.Tools
	allowOnly.Initial = nil
	as051.Tools = &allowOnly
	got := PrepareDelegation(DelegationInput{Stack: &as051, Task: fx.Task, Cwd: fx.Cwd,
		Model: Model{Provider: "anthropic", ID: "claude-sonnet-4-5"}, Catalog: fx.Catalog, Now: time.Now()})
	want, err := jsonv.Parse(fx.Preparation)
	if err != nil {
		t.Fatal(err)
	}
	wantObj := want.(*jsonv.Object)
	wantObj.Delete("effectiveToolIds") // the host's tool ids; forgebench has names only
	if g, w := jsonv.Stringify(DelegationJSON(got)), jsonv.Stringify(wantObj); g != w {
		t.Fatalf("preparation\n%s\npi-forge\n%s", g, w)
	}
	// The snapshot fingerprint is sha256:v1 of the normalized Preset.
	noInitial := *stack
	tools := *stack.Tools
	tools.Initial = nil
	noInitial.Tools = &tools
	noInitial.Capabilities = nil // 0.5.1 knew neither tools.initial nor capabilities
	if fp, err := fingerprint.Fingerprint(preset.ToJSON(&noInitial)); err != nil || fp != fx.StackPrint {
		t.Fatalf("fingerprint %s %v, pi-forge %s", fp, err, fx.StackPrint)
	}
}

// TestDelegationAppliesToolsInitial: the newest host negotiation (pi-forge
// ≥ 0.5.5) starts a child with the Preset's tools.initial, in the
// catalogue's order, rather than every tool the allow list permits; an
// initial tool the backend lacks warns.
func TestDelegationAppliesToolsInitial(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy *preset.ResourcePolicy
		want   []string
		codes  []string
	}{
		{"the test's own case", &preset.ResourcePolicy{Initial: []string{"read", "missing"}}, []string{"read"}, []string{"tools.initial-missing"}},
		{"guarded-worker", &preset.ResourcePolicy{Allow: []string{"read", "grep", "find", "ls", "forge_capability", "edit", "write", "bash"},
			Initial: []string{"read", "grep", "ls", "forge_capability"}}, []string{"read", "grep", "ls", "forge_capability"}, nil},
		{"catalogue order", &preset.ResourcePolicy{Initial: []string{"ls", "read"}}, []string{"read", "ls"}, nil},
		{"empty initial", &preset.ResourcePolicy{Initial: []string{}}, []string{}, nil},
		{"blocked initial", &preset.ResourcePolicy{Deny: []string{"bash"}, Initial: []string{"read", "bash"}}, []string{"read"}, []string{"tools.initial-blocked"}},
		{"no initial: the allow list", &preset.ResourcePolicy{Allow: []string{"read", "web_*"}}, []string{"read"}, []string{"tools.unmatched-allow"}},
		{"no policy: the catalogue", nil, RegisteredTools(), nil},
	} {
		got, diags := NegotiateDelegationTools(RegisteredTools(), tc.policy)
		var codes []string
		for _, d := range diags {
			codes = append(codes, d.Code)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(codes, tc.codes) {
			t.Errorf("%s: tools %v, codes %v; want %v, %v", tc.name, got, codes, tc.want, tc.codes)
		}
	}
	// The demo's tdd-worker child starts read-only, so its prompt says so.
	stack, _ := preset.Parse([]byte(`{"schemaVersion":2,"id":"gw","tools":{"allow":["read","edit"],"initial":["read"]},
		"items":[{"kind":"block","id":"b","role":"system","content":"{% if runtime.tool.edit %}write{% else %}read-only{% endif %}"}]}`), "gw.json")
	prep := PrepareDelegation(DelegationInput{Stack: stack, Task: "t", Cwd: "/srv", Catalog: RegisteredTools(), Now: time.Now()})
	if prep.SystemPrompt != "read-only" || !slices.Equal(prep.EffectiveTools, []string{"read"}) {
		t.Fatalf("prompt %q, tools %v", prep.SystemPrompt, prep.EffectiveTools)
	}
}
