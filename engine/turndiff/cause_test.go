package turndiff

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// TestWireTextAndCapabilityOrigin: blocks keep the wire value their hash
// covers, and a capability origin names its capability in the cause.
func TestWireTextAndCapabilityOrigin(t *testing.T) {
	v, err := jsonv.Parse([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	turn := ExtractPayload("t", "", "", v, "")
	if w := WireText(&turn.Blocks[0]); !strings.Contains(w, "\"cache_control\": {\n") || !strings.HasPrefix(w, "{\n  \"section\": \"messages\",") {
		t.Errorf("wire %q", w)
	}
	if WireText(&Block{}) != "" || WireText(nil) != "" {
		t.Error("a block without a wire value has no wire text")
	}
	before := Turn{Blocks: []Block{NewBlock("system", "system", "s")}}
	after := Turn{Blocks: []Block{NewBlock("system", "system", "s"), NewBlock("u", "user", "update")}}
	d := DiffTurns(&before, &after)
	ann := Annotated{Turn: after, Blocks: map[string]Origin{"u": {Kind: CauseCapability, Label: "capability update", CapabilityID: "project:write-access"}}}
	c := CauseFromOrigins(&d, 1, 0, &Annotated{Turn: before}, &ann)
	if c == nil || c.CapabilityID != "project:write-access" || c.Detail != "capability update" {
		t.Errorf("cause %+v", c)
	}
}
