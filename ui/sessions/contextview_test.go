package sessions

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
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
	res := buildContext(1, buildLoaded("mem.jsonl", s), 1, catalog.Default())
	if res.err != nil || len(res.messages) != 2 {
		t.Fatalf("%+v", res)
	}
	if res.messages[0].role != "system" || !strings.Contains(res.messages[0].text, "You review invoices.\n\n<cwd>") {
		t.Fatalf("the system message must show the replayed prompt, got %q", res.messages[0].text)
	}
}
