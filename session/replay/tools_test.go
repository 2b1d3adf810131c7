package replay

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
)

func TestToolsAtAndModelAt(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-10-01T10:00:00.000Z","cwd":"/p"}`,
		`{"type":"message","id":"a","parentId":null,"timestamp":"2026-10-01T10:00:01.000Z","message":{"role":"system","content":"","toolsAdded":[{"name":"read"},{"name":"bash"},{"name":"mcp_x"}],"timestamp":1}}`,
		`{"type":"message","id":"b","parentId":"a","timestamp":"2026-10-01T10:00:02.000Z","message":{"role":"assistant","content":[],"provider":"openai","model":"gpt-4o","timestamp":2}}`,
		`{"type":"message","id":"c","parentId":"b","timestamp":"2026-10-01T10:00:03.000Z","message":{"role":"system","content":"","toolsRemoved":[{"name":"bash"}],"toolsAdded":[{"name":"edit"}],"timestamp":3}}`,
		`{"type":"compaction","id":"d","parentId":"c","timestamp":"2026-10-01T10:00:04.000Z","summary":"s","firstKeptEntryId":"d","tokensBefore":1,"systemMessage":{"role":"system","content":"","toolsAdded":[{"name":"read"},{"name":"ls"}],"timestamp":4}}`,
		`{"type":"model_change","id":"e","parentId":"d","timestamp":"2026-10-01T10:00:05.000Z","provider":"anthropic","modelId":"claude-opus-4-8"}`,
		`{"type":"custom","customType":"x","data":{"k":1},"id":"f","parentId":"e","timestamp":"2026-10-01T10:00:06.000Z"}`,
		`{"type":"custom_message","customType":"y","content":"","display":false,"details":[1],"id":"g","parentId":"f","timestamp":"2026-10-01T10:00:07.000Z"}`,
	}
	s, err := session.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(i int) string { return strings.Join(ToolsAt(s, i).InForce, ",") }
	if got := at(1); got != "read,bash,mcp_x" {
		t.Errorf("at b: %s", got)
	}
	if got := at(2); got != "read,mcp_x,edit" {
		t.Errorf("at c: %s", got)
	}
	d := ToolsAt(s, 5)
	if got := strings.Join(d.InForce, ","); got != "read,ls" || strings.Join(d.Ever, ",") != "read,bash,mcp_x,edit,ls" || d.LastIndex != 3 || !d.Recorded {
		t.Errorf("after compaction: %+v", d)
	}
	if p, m, ok := s.ModelAt(2); !ok || p != "openai" || m != "gpt-4o" {
		t.Errorf("model at c: %s %s", p, m)
	}
	if p, m, ok := s.ModelAt(6); !ok || p != "anthropic" || m != "claude-opus-4-8" {
		t.Errorf("model at g: %s %s", p, m)
	}
	if _, _, ok := s.ModelAt(0); ok {
		t.Error("no model selected at a")
	}
	if ct, data, ok := s.Entries[5].CustomPayload(); !ok || ct != "x" || string(data) != `{"k":1}` {
		t.Errorf("custom payload %q %s", ct, data)
	}
	if ct, details, ok := s.Entries[6].CustomPayload(); !ok || ct != "y" || string(details) != `[1]` {
		t.Errorf("custom_message payload %q %s", ct, details)
	}
	if _, _, ok := s.Entries[4].CustomPayload(); ok {
		t.Error("model_change has no custom payload")
	}
	if empty := ToolsAt(s, 99); empty.Recorded || empty.LastIndex != -1 {
		t.Errorf("out of range: %+v", empty)
	}
}
