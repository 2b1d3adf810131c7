package compile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// historyRun compiles a stack whose only item is a chat-history slot with
// the given options and returns "role:text" summaries and diagnostics.
func historyRun(t *testing.T, options, history string) (string, string, []any) {
	t.Helper()
	stack := `{"id":"h","items":[{"kind":"slot","id":"hist","slot":"chat-history","options":` + options + `}]}`
	// Invalid options are validation errors but still compile (fail-open here).
	parsed, _ := preset.Parse([]byte(stack), "h.json")
	res := Compile(parsed, testRuntime(), "", parseMessages(t, history), nil).Messages
	summary := make([]string, len(res.Messages))
	for i, m := range res.Messages {
		summary[i] = messageRole(m) + ":" + strings.ReplaceAll(PreviewText(m), "\n", "⏎")
		if src := res.MessageSources[i]; src.HistoryIndex != i+1 || src.HistoryCount != len(res.Messages) || src.Kind != SourceChatHistory {
			t.Errorf("source %d = %+v", i, src)
		}
	}
	return strings.Join(summary, " | "), diagText(res.Diagnostics), res.Messages
}

func TestChatHistoryOptions(t *testing.T) {
	const (
		sys      = "system:"
		user1    = "user:first"
		asst1    = "assistant:<thinking>⏎hmm⏎</thinking>⏎answer⏎[toolCall: read]"
		result   = "toolResult:file body"
		summary  = "compactionSummary:earlier"
		delivery = "custom:cap"
		asst2    = "assistant:<thinking>⏎only thinking⏎</thinking>"
		bash     = "bashExecution:Ran ls⏎a b"
		user2    = "user:second"
	)
	join := func(parts ...string) string { return strings.Join(parts, " | ") }
	info := func(msg string) string { return `{"level":"info","message":"` + msg + `","itemId":"hist"}` }
	tests := []struct {
		name, options, want, diags string
	}{
		{"defaults", `{}`, join(sys, user1, asst1, result, summary, delivery, asst2, bash, user2), `[]`},
		{"explicit keep", `{"includeLastUserMessage":true,"includeSummaries":true,"toolMode":"keep","stripAssistantThinking":false}`,
			join(sys, user1, asst1, result, summary, delivery, asst2, bash, user2), `[]`},
		{"drop last user", `{"includeLastUserMessage":false}`, join(sys, user1, asst1, result, summary, delivery, asst2, bash), `[]`},
		{"no summaries", `{"includeSummaries":false}`, join(sys, user1, asst1, result, delivery, asst2, bash, user2),
			`[` + info("Filtered 1 chat-history message(s) by summary.") + `]`},
		{"roles with repair", `{"roles":["user","toolResult"]}`, join(sys, user1, delivery, user2),
			`[` + info("Filtered 4 chat-history message(s) by role.") + `,` +
				info("Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), dropped 1 dangling tool result message(s).") + `]`},
		{"roles strip dangling call", `{"roles":["assistant"]}`, join(sys, "assistant:<thinking>⏎hmm⏎</thinking>⏎answer", delivery, asst2),
			`[` + info("Filtered 5 chat-history message(s) by role.") + `,` +
				info("Repaired tool history after chat-history filtering: removed 1 dangling tool call(s), dropped 0 dangling tool result message(s).") + `]`},
		{"empty roles ignored", `{"roles":[]}`, join(sys, user1, asst1, result, summary, delivery, asst2, bash, user2), `[]`},
		{"drop tools and strip thinking", `{"toolMode":"drop","stripAssistantThinking":true}`, join(sys, user1, "assistant:answer", summary, delivery, bash, user2),
			`[` + info("Dropped tool history from chat-history: removed 1 tool call(s), dropped 1 tool result message(s).") + `,` +
				info("Stripped 2 assistant thinking block(s) from 2 chat-history message(s) and dropped 1 empty assistant message(s).") + `]`},
		{"unsupported tool mode", `{"toolMode":"weird"}`, join(sys, user1, asst1, result, summary, delivery, asst2, bash, user2),
			`[{"level":"warning","message":"Unsupported chat-history toolMode: weird.","itemId":"hist"}]`},
		{"max messages", `{"maxMessages":2}`, join(sys, delivery, bash, user2),
			`[` + info("Trimmed chat history from 9 to 4 message(s) by maxMessages.") + `]`},
		{"max messages repairs", `{"maxMessages":5}`, join(sys, summary, delivery, asst2, bash, user2),
			`[` + info("Trimmed chat history from 9 to 7 message(s) by maxMessages.") + `,` +
				info("Repaired tool history after chat-history filtering: removed 0 dangling tool call(s), dropped 1 dangling tool result message(s).") + `]`},
		{"max chars exact", `{"maxChars":16}`, join(sys, delivery, bash, user2),
			`[` + info("Trimmed chat history from 9 to 4 message(s) by maxChars.") + `]`},
		{"max chars keeps newest", `{"maxChars":3}`, join(sys, delivery, user2),
			`[` + info("Trimmed chat history from 9 to 3 message(s) by maxChars.") + `]`},
		{"max chars stops at first overflow", `{"maxChars":30}`, join(sys, delivery, bash, user2),
			`[` + info("Trimmed chat history from 9 to 4 message(s) by maxChars.") + `]`},
		{"non-integer limits ignored", `{"maxMessages":1.5,"maxChars":-3}`, join(sys, user1, asst1, result, summary, delivery, asst2, bash, user2), `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, diags, _ := historyRun(t, tc.options, sampleHistory)
			if got != tc.want {
				t.Errorf("messages\n got %s\nwant %s", got, tc.want)
			}
			if diags != tc.diags {
				t.Errorf("diagnostics\n got %s\nwant %s", diags, tc.diags)
			}
		})
	}
}

func TestChatHistoryCopiesKeepFields(t *testing.T) {
	_, _, messages := historyRun(t, `{"stripAssistantThinking":true}`, sampleHistory)
	got := jsonv.Stringify(messages[2])
	want := `{"role":"assistant","content":[{"type":"text","text":"answer"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}}],"api":"x","provider":"p","model":"m","usage":{},"stopReason":"toolUse","timestamp":3,"extra":{"kept":true}}`
	if got != want {
		t.Errorf("stripped copy\n got %s\nwant %s", got, want)
	}
	// The caller's message is not modified.
	original := parseMessages(t, sampleHistory)
	Compile(mustStack(t, `{"id":"h","items":[{"kind":"slot","id":"x","slot":"chat-history","options":{"stripAssistantThinking":true,"toolMode":"drop"}}]}`), testRuntime(), "", original, nil)
	if s := jsonv.Stringify(original); s != jsonv.Stringify(parseMessages(t, sampleHistory)) {
		t.Errorf("input messages were mutated")
	}
}

func TestToolDropEmptiesAndAlternateIDs(t *testing.T) {
	history := `[{"role":"user","content":"q","timestamp":1},
		{"role":"assistant","content":[{"type":"toolCall","toolCallId":"k1","name":"ls"}],"timestamp":2},
		{"role":"toolResult","callId":"k1","content":[],"timestamp":3},
		{"role":"assistant","content":[{"type":"toolCall","callId":"k2","name":"ls"}],"timestamp":4},
		{"role":"user","content":"tail","timestamp":5}]`
	got, diags, _ := historyRun(t, `{"toolMode":"drop"}`, history)
	if got != "user:q | user:tail" {
		t.Errorf("messages %s", got)
	}
	want := `[{"level":"info","message":"Dropped tool history from chat-history: removed 2 tool call(s), dropped 1 tool result message(s), and dropped 2 empty message(s).","itemId":"hist"}]`
	if diags != want {
		t.Errorf("diagnostics %s", diags)
	}
	// Repair pairs calls and results through toolCallId / callId too: k1 stays,
	// k2 has no result and its message empties.
	got, diags, _ = historyRun(t, `{"maxMessages":4}`, history)
	if got != "assistant:[toolCall: ls] | toolResult: | user:tail" {
		t.Errorf("repair messages %s", got)
	}
	want = `[{"level":"info","message":"Trimmed chat history from 5 to 4 message(s) by maxMessages.","itemId":"hist"},` +
		`{"level":"info","message":"Repaired tool history after chat-history filtering: removed 1 dangling tool call(s), dropped 0 dangling tool result message(s), and dropped 1 empty message(s).","itemId":"hist"}]`
	if diags != want {
		t.Errorf("repair diagnostics %s", diags)
	}
}

func TestLatestUserMessage(t *testing.T) {
	messages := parseMessages(t, `[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"","mimeType":"image/png"}]},{"role":"user","content":"   "},{"role":"assistant","content":"x"}]`)
	text, ok := LatestUserMessage(messages)
	if !ok || text != "a\n[image]" {
		t.Errorf("got %q %v", text, ok)
	}
	if _, ok := LatestUserMessage(nil); ok {
		t.Errorf("empty history has no latest user message")
	}
}
