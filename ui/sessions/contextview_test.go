package sessions

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
)

func TestContextViewRendersTheRecordedSystemPrompt(t *testing.T) {
	src := `{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:00.100Z","message":{"role":"system","content":"","sections":{"preamble":"You review invoices.","cwd":"<cwd>\n/w\n</cwd>"},"timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":2}}
`
	s, err := session.Read(strings.NewReader(src), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// No library at all: a session pi-forge never wrote to needs none.
	res := buildSent(contextKey{file: "mem.jsonl", sess: s, idx: 1}, services.New(resources.Workspace{AgentDir: t.TempDir()}))
	if res.err != nil || !res.same || res.sentErr != "" {
		t.Fatalf("%+v", res)
	}
	msgs := res.side(false).messages
	if len(msgs) != 2 || msgs[0].role != "system" || !strings.Contains(msgs[0].text, "You review invoices.\n\n<cwd>") {
		t.Fatalf("the system message must show the replayed prompt, got %+v", msgs)
	}
	if res.forAssistant || res.entry != "a2" {
		t.Fatalf("a user entry's request is the next one from it: %+v", res)
	}
}
