package profile

import (
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// isAgentProfileProvenance only checks that the snapshot's model parts and
// promptStack are non-blank; the record keeps them as written, so drift
// against the runtime compares the raw values.
func TestParseProvenanceKeepsRawSnapshotValues(t *testing.T) {
	v, err := jsonv.Parse([]byte(`{"profileId":"p","sourcePath":"/x/p.json","sourceFingerprint":"{}","appliedAt":"2026-01-01T00:00:00.000Z",` +
		`"snapshot":{"model":{"provider":" anthropic ","id":"claude "},"thinkingLevel":"low","promptStack":" project:s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ParseProvenance(v)
	if !ok {
		t.Fatal("valid provenance rejected")
	}
	if p.Model.Provider != " anthropic " || p.Model.ID != "claude " || p.PromptStack == nil || *p.PromptStack != " project:s" {
		t.Fatalf("snapshot values were rewritten: %+v %q", p.Model, *p.PromptStack)
	}
	if got := jsonv.Stringify(p.JSON()); got != jsonv.Stringify(v) {
		t.Fatalf("round trip changed the record:\n%s\n%s", got, jsonv.Stringify(v))
	}
}
