package session

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
)

func openTestdata(t *testing.T, name string) *Session {
	t.Helper()
	s, err := Open("testdata/" + name)
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	return s
}

// decodeAll turns jsonv output into plain Go values for comparisons.
func decodeAll(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := json.Unmarshal([]byte(jsonv.Stringify(v)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func roles(t *testing.T, msgs []any) []string {
	t.Helper()
	var out []string
	for _, m := range msgs {
		r, _ := m.(*jsonv.Object).Get("role")
		out = append(out, r.(string))
	}
	return out
}

func TestContextAllEntryTypes(t *testing.T) {
	s := openTestdata(t, "v3-all-types.jsonl")
	if len(s.Entries) != 24 || s.Migrated {
		t.Fatalf("entries=%d migrated=%v", len(s.Entries), s.Migrated)
	}
	c, err := s.Context(s.LeafIndex())
	if err != nil {
		t.Fatal(err)
	}
	if tl, _ := c.ThinkingLevel.Str(); tl != "low" {
		t.Errorf("thinkingLevel = %q", tl)
	}
	if p, _ := c.Model.Provider.Str(); p != "anthropic" {
		t.Errorf("provider = %q", p)
	}
	if m, _ := c.Model.ModelID.Str(); m != "claude-y" {
		t.Errorf("model = %q (assistant after model_change must win)", m)
	}
	agent := c.AgentMessages()
	wantAgent := []string{"system", "user", "assistant", "toolResult", "bashExecution", "bashExecution",
		"bashExecution", "user", "martian", "branchSummary"}
	if got := roles(t, agent); !reflect.DeepEqual(got, wantAgent) {
		t.Fatalf("agent roles = %v\nwant %v", got, wantAgent)
	}
	plain := decodeAll(t, agent).([]any)
	if got := plain[0].(map[string]any)["content"]; got != "" {
		t.Errorf("null system content = %#v, want \"\"", got)
	}
	if got := plain[1].(map[string]any)["content"]; got != "edited hello" {
		t.Errorf("edited user content = %#v", got)
	}
	wantTool := []any{map[string]any{"type": "text", "text": "[omitted]"}}
	if got := plain[3].(map[string]any)["content"]; !reflect.DeepEqual(got, wantTool) {
		t.Errorf("edited toolResult content = %#v", got)
	}
	user := plain[7].(map[string]any)
	if !reflect.DeepEqual(user["content"], []any{}) || user["extra"] != "kept" {
		t.Errorf("null user content not normalised: %#v", user)
	}
	bs := plain[9].(map[string]any)
	if bs["fromId"] != "root" || bs["summary"] != "went elsewhere" || bs["timestamp"] != float64(1768039222000) {
		t.Errorf("branch summary = %#v", bs)
	}

	llm := decodeAll(t, c.LLMMessages()).([]any)
	wantLLM := []string{"system", "user", "assistant", "toolResult", "user", "user", "user", "user"}
	var gotLLM []string
	for _, m := range llm {
		gotLLM = append(gotLLM, m.(map[string]any)["role"].(string))
	}
	if !reflect.DeepEqual(gotLLM, wantLLM) {
		t.Fatalf("llm roles = %v, want %v", gotLLM, wantLLM)
	}
	text := func(i int) string {
		return llm[i].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	}
	if got, want := text(4), "Ran `make`\n(no output)\n\nCommand exited with code 2\n\n[Output truncated. Full output: /tmp/out.txt]"; got != want {
		t.Errorf("bash text = %q, want %q", got, want)
	}
	if got, want := text(5), "Ran `sleep 9`\n```\npartial\n```\n\n(command cancelled)"; got != want {
		t.Errorf("cancelled bash text = %q, want %q", got, want)
	}
	if got, want := text(7), branchSummaryPrefix+"went elsewhere"+branchSummarySuffix; got != want {
		t.Errorf("branch summary text = %q", got)
	}
}

func TestContextCustomMessageAndLabels(t *testing.T) {
	s := openTestdata(t, "v3-all-types.jsonl")
	// Before the context_edit that removes it, the custom_message is projected.
	leaf, ok := s.IndexOf("a0000017")
	if !ok {
		t.Fatal("a0000017 missing")
	}
	c, err := s.Context(leaf)
	if err != nil {
		t.Fatal(err)
	}
	plain := decodeAll(t, c.AgentMessages()).([]any)
	var custom map[string]any
	for _, m := range plain {
		if mm := m.(map[string]any); mm["role"] == "custom" {
			custom = mm
		}
	}
	want := map[string]any{"role": "custom", "customType": "ext/note", "content": "note text", "display": false,
		"timestamp": float64(1768039211000)}
	if !reflect.DeepEqual(custom, want) {
		t.Errorf("custom message = %#v\nwant %#v", custom, want)
	}
	llm := decodeAll(t, c.LLMMessages()).([]any)
	found := false
	for _, m := range llm {
		mm := m.(map[string]any)
		if c, ok := mm["content"].([]any); ok && len(c) == 1 && c[0].(map[string]any)["text"] == "note text" {
			found = mm["role"] == "user"
		}
	}
	if !found {
		t.Error("custom message not converted to a user text message")
	}

	if got := s.Labels(); len(got) != 1 || got[0].TargetID != "a0000004" || got[0].Label != "renamed" ||
		got[0].Timestamp != "2026-01-10T10:00:24.000Z" {
		t.Errorf("labels = %+v", got)
	}
	if name, ok := s.Name(); !ok || name != "My session" {
		t.Errorf("name = %q, %v", name, ok)
	}
}

func TestCompactionTrimming(t *testing.T) {
	const file = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"u1","timestamp":1}}
{"type":"message","id":"m2","parentId":"m1","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"system","content":"sys","timestamp":2}}
{"type":"message","id":"m3","parentId":"m2","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"u3","timestamp":3}}
{"type":"compaction","id":"c1","parentId":"m3","timestamp":"2026-01-01T00:00:04.000Z","summary":"old","firstKeptEntryId":"m1","tokensBefore":10}
{"type":"message","id":"m5","parentId":"c1","timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"user","content":"u5","timestamp":5}}
{"type":"compaction","id":"c2","parentId":"m5","timestamp":"2026-01-01T00:00:06.000Z","summary":"new","firstKeptEntryId":"m2","tokensBefore":20,"systemMessage":{"role":"system","content":"replayed","timestamp":6}}
{"type":"message","id":"m7","parentId":"c2","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"user","content":"u7","timestamp":7}}
{"type":"compaction","id":"c3","parentId":"m3","timestamp":"2026-01-01T00:00:08.000Z","summary":"none kept","firstKeptEntryId":"c3","tokensBefore":30}
{"type":"message","id":"m9","parentId":"c3","timestamp":"2026-01-01T00:00:09.000Z","message":{"role":"user","content":"u9","timestamp":9}}
`
	s := mustRead(t, file)
	ctxIDs := func(leaf string) ([]string, []string) {
		i, ok := s.IndexOf(leaf)
		if !ok {
			t.Fatalf("no %s", leaf)
		}
		c, err := s.Context(i)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range c.Entries {
			ids = append(ids, s.Entries[p.Index].ID)
		}
		return ids, roles(t, c.AgentMessages())
	}
	// Latest compaction c2 keeps from m2 but drops the system message m2; the
	// older compaction c1 inside the kept range contributes nothing.
	ids, rs := ctxIDs("m7")
	if want := []string{"c2", "m3", "c1", "m5", "m7"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("context entries = %v, want %v", ids, want)
	}
	if want := []string{"system", "compactionSummary", "user", "user", "user"}; !reflect.DeepEqual(rs, want) {
		t.Errorf("roles = %v, want %v", rs, want)
	}
	// Retain-none compaction: firstKeptEntryId is its own id.
	ids, rs = ctxIDs("m9")
	if want := []string{"c3", "m9"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("retain-none context entries = %v, want %v", ids, want)
	}
	if want := []string{"compactionSummary", "user"}; !reflect.DeepEqual(rs, want) {
		t.Errorf("retain-none roles = %v", rs)
	}
	llm := decodeAll(t, ConvertToLLM(mustContext(t, s, "m9").AgentMessages())).([]any)
	got := llm[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
	if want := compactionSummaryPrefix + "none kept" + compactionSummarySuffix; got != want {
		t.Errorf("compaction text = %q", got)
	}
}

func mustContext(t *testing.T, s *Session, leaf string) *Context {
	t.Helper()
	i, ok := s.IndexOf(leaf)
	if !ok {
		t.Fatalf("no %s", leaf)
	}
	c, err := s.Context(i)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestContextEditLatestWinsOnActivePath(t *testing.T) {
	const file = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"orig"}],"provider":"p","model":"m","timestamp":1}}
{"type":"context_edit","id":"e1","parentId":"m1","timestamp":"2026-01-01T00:00:02.000Z","targetId":"m1","replacement":{"content":"first edit"}}
{"type":"context_edit","id":"e2","parentId":"e1","timestamp":"2026-01-01T00:00:03.000Z","targetId":"m1","replacement":{"content":[{"type":"text","text":"second edit"}]}}
{"type":"context_edit","id":"e3","parentId":"m1","timestamp":"2026-01-01T00:00:04.000Z","targetId":"m1","replacement":null}
`
	s := mustRead(t, file)
	text := func(leaf string) any {
		msgs := decodeAll(t, mustContext(t, s, leaf).AgentMessages()).([]any)
		if len(msgs) == 0 {
			return nil
		}
		return msgs[0].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
	}
	if got := text("e1"); got != "first edit" {
		t.Errorf("string replacement for assistant = %v", got)
	}
	if got := text("e2"); got != "second edit" {
		t.Errorf("latest edit must win: %v", got)
	}
	if got := text("e3"); got != nil {
		t.Errorf("null replacement must remove the message, got %v", got)
	}
}

func TestContextJSONShape(t *testing.T) {
	s := openTestdata(t, "v3-all-types.jsonl")
	out, err := ContextJSON(s, "a0000005")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got["leafId"] != "a0000005" || got["thinkingLevel"] != "low" {
		t.Errorf("leafId/thinkingLevel = %v/%v", got["leafId"], got["thinkingLevel"])
	}
	wantModel := map[string]any{"provider": "anthropic", "modelId": "claude-y"}
	if !reflect.DeepEqual(got["model"], wantModel) {
		t.Errorf("model = %v", got["model"])
	}
	pe := got["projectedEntries"].([]any)
	if len(pe) != 5 || !reflect.DeepEqual(pe[0], map[string]any{"sourceEntryId": "a0000001", "type": "model_change", "roles": []any{}}) {
		t.Errorf("projectedEntries = %v", pe)
	}
	if _, err := ContextJSON(s, "nope"); err == nil {
		t.Error("unknown leaf id must be an error")
	}
}

func TestSummaryJSON(t *testing.T) {
	s := openTestdata(t, "v3-all-types.jsonl")
	out, err := SummaryJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"entries": float64(24), "skippedLines": float64(0), "leafId": "a0000024", "pathLength": float64(24),
		"contextMessages": float64(10), "name": "My session", "labels": map[string]any{"a0000004": "renamed"},
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
	h := got["header"].(map[string]any)
	if h["id"] != "sess-all" || !reflect.DeepEqual(h["futureHeaderField"], map[string]any{"x": float64(1)}) {
		t.Errorf("header = %v (unknown fields must be preserved)", h)
	}
}

// Pi reads edit.replacement.content without checking the replacement's
// type: a replacement that is a string, number, boolean or array has no
// content property, so the edited message ends up with content undefined
// (the key disappears from JSON) — only null removes the message.
func TestContextEditNonObjectReplacement(t *testing.T) {
	for _, repl := range []string{`"text"`, `42`, `true`, `[{"type":"text","text":"x"}]`, `{}`} {
		file := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}
{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"orig","timestamp":1}}
{"type":"context_edit","id":"e1","parentId":"m1","timestamp":"2026-01-01T00:00:02.000Z","targetId":"m1","replacement":` + repl + `}
`
		s := mustRead(t, file)
		msgs := decodeAll(t, mustContext(t, s, "e1").AgentMessages()).([]any)
		if len(msgs) != 1 {
			t.Fatalf("replacement %s: %d messages, want 1", repl, len(msgs))
		}
		m := msgs[0].(map[string]any)
		if c, has := m["content"]; has {
			t.Errorf("replacement %s: content = %v, want it absent", repl, c)
		}
		if m["role"] != "user" || m["timestamp"] != float64(1) {
			t.Errorf("replacement %s: other fields lost: %v", repl, m)
		}
	}
}
