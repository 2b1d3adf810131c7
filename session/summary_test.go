package session

import (
	"errors"
	"strings"
	"testing"
)

func TestSummarize(t *testing.T) {
	src := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"Fix\nthe \u001b[31mbug"}],"timestamp":1}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-11-29T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Reading."},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.ts"}}],"api":"x","provider":"p","model":"m","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":2}}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-11-29T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"export {}"}],"isError":true,"timestamp":3}}
{"type":"label","id":"a4","parentId":"a3","timestamp":"2026-11-29T10:00:04.000Z","targetId":"a2","label":"start"}
{"type":"model_change","id":"a5","parentId":"a4","timestamp":"2026-11-29T10:00:05.000Z","provider":"openai","modelId":"gpt-x"}
{"type":"mystery","id":"a6","parentId":"a5","timestamp":"2026-11-29T10:00:06.000Z"}
{"type":"usage","id":"a7","parentId":"a6","timestamp":"2026-11-29T10:00:07.000Z","kind":"cache_warm","provider":"anthropic","model":"m","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3}}
`
	s, err := Read(strings.NewReader(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []EntrySummary{
		{Kind: "user", Text: "Fix the bug"},
		{Kind: "assistant", Text: `Reading. → read({"path":"a.ts"})`, Tokens: 15, ToolCalls: 1},
		{Kind: "toolResult", Text: "read (error): export {}"},
		{Kind: "label", Text: `a2 → "start"`},
		{Kind: "model_change", Text: "openai/gpt-x"},
		{Kind: "mystery", Text: ""},
		{Kind: "usage", Text: "cache_warm · anthropic/m", Tokens: 3},
	}
	for i := range want {
		if got := DescribeEntry(&s.Entries[i]); got != want[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, got, want[i])
		}
	}
}

func TestParseEntryLine(t *testing.T) {
	e, err := ParseEntryLine([]byte(`{"type":"message","id":"b1","parentId":"a1","timestamp":"2026-11-29T10:00:00.000Z","message":{"role":"user","content":"hi"}}`), 7)
	if err != nil || e.ID != "b1" || e.Role != "user" || e.Line != 7 {
		t.Fatalf("got %+v, %v", e, err)
	}
	if got := DescribeEntry(e); got.Text != "hi" {
		t.Fatalf("summary %+v", got)
	}
	for _, bad := range []string{"", "   ", "{broken", "null", "0"} {
		if _, err := ParseEntryLine([]byte(bad), 1); !errors.Is(err, ErrNotEntry) {
			t.Errorf("%q: want ErrNotEntry, got %v", bad, err)
		}
	}
}
