package session

import "testing"

// TestLineParserKindsAndMessageMembers: the parser classifies lines as the
// reader does, and MessageMember answers only for the message entry it read
// last — never from the members of an earlier line.
func TestLineParserKindsAndMessageMembers(t *testing.T) {
	var p LineParser
	assistant := `{"type":"message","id":"a1","parentId":null,"timestamp":"2026-01-02T03:04:05.000Z",` +
		`"message":{"role":"assistant","provider":"anthropic","model":"m1","model":"m2","content":[]}}`
	kind, e := p.Parse([]byte(assistant), 7)
	if kind != LineEntry || e.Role != RoleAssistant || e.Line != 7 || e.ID != "a1" {
		t.Fatalf("assistant line: kind %v, entry %+v", kind, e)
	}
	if got, _ := p.MessageMember("provider").Str(); got != "anthropic" {
		t.Errorf("MessageMember(provider) = %q", got)
	}
	if got, _ := p.MessageMember("model").Str(); got != "m2" {
		t.Errorf("MessageMember(model) = %q, want the last duplicate m2", got)
	}
	if e.TimestampMs() != DateMs(RawValue(`"2026-01-02T03:04:05.000Z"`)) {
		t.Errorf("TimestampMs %v, DateMs %v", e.TimestampMs(), DateMs(RawValue(`"2026-01-02T03:04:05.000Z"`)))
	}
	for _, tc := range []struct {
		line string
		want LineKind
	}{
		{" \t", LineBlank},
		{"{oops", LineMalformed},
		{"null", LineFalsy},
		{"[1]", LineEntry},
		{`{"type":"message","id":"u1","message":"not an object"}`, LineEntry},
		{`{"type":"label","id":"l1"}`, LineEntry},
	} {
		p.Parse([]byte(assistant), 1)
		if kind, _ := p.Parse([]byte(tc.line), 2); kind != tc.want {
			t.Errorf("Parse(%q) kind %v, want %v", tc.line, kind, tc.want)
		}
		if v := p.MessageMember("provider"); v != nil {
			t.Errorf("after %q MessageMember(provider) = %s, want nil (not the assistant line's)", tc.line, v)
		}
	}
	kind, e = p.Parse([]byte(`{"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"}`), 1)
	if h := HeaderOf(&e); kind != LineEntry || h.ID != "s1" || h.Cwd != "/w" || h.FileVersion != 3 || h.Line != 1 {
		t.Errorf("HeaderOf = %+v", h)
	}
}
