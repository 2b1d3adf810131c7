package compile

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/fingerprint"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// TestPrepareDelegationMatchesPiForge compares the subagent host port's
// preparation and the Preset snapshot fingerprint with pi-forge 0.5.1's
// (testdata/pi-forge-0.5.1/README.md).
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
	got := PrepareDelegation(DelegationInput{Stack: stack, Task: fx.Task, Cwd: fx.Cwd,
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
