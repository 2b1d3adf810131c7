package replay

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session"
)

// FuzzSystemPromptAt: the system prompt replays at every entry of any
// one-line session without an error or a panic.
func FuzzSystemPromptAt(f *testing.F) {
	f.Add(`{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"1","name":"x","arguments":{}}],"provider":"openai","model":"gpt-5.4","usage":{"input":1,"output":2}}}`)
	f.Add(`{"type":"usage","id":"b","parentId":null,"timestamp":"x","provider":1,"model":null,"usage":{"input":"1","cost":{"total":"x"}}}`)
	f.Add(`{"type":"compaction","id":"c","parentId":null,"timestamp":"x","summary":"s","firstKeptEntryId":"c","tokensBefore":1,"usage":[]}`)
	f.Add(`{"type":"message","id":"d","parentId":null,"timestamp":"x","message":{"role":"system","content":"a","sections":{"10":"x"},"toolsAdded":[{"name":"t"}]}}`)
	f.Fuzz(func(t *testing.T, line string) {
		text := `{"type":"session","version":3,"id":"f","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}` + "\n" + line + "\n"
		s, err := session.Read(strings.NewReader(text), session.Options{Workers: 1})
		if err != nil {
			return
		}
		for i := range s.Entries {
			if _, err := SystemPromptAt(s, i); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestSystemPromptUpstreamV1: a migrated v1 session records no system
// prompt.
func TestSystemPromptUpstreamV1(t *testing.T) {
	ls, err := session.Open(fixtures.Path(t, "pi-sessions/upstream/pi-mono/large-session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := SystemPromptAt(ls, ls.LeafIndex()); err != nil || p.Source != SystemPromptNone {
		t.Errorf("v1 session prompt: %v %v", p, err)
	}
}
