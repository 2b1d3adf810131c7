package compile

import (
	"os"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/engine/preset"
)

// FuzzCompile feeds arbitrary stack JSON and message JSON through the codec
// and the compiler; nothing may panic and the preview must stay faithful.
func FuzzCompile(f *testing.F) {
	mirror, err := os.ReadFile("testdata/default-mirror.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(mirror), sampleHistory)
	f.Add(`{"id":"x","mode":"append","context":{"mergeConsecutiveRoles":true,"mergeSeparator":5},"items":[{"kind":"block","id":"a","role":"user","content":"{{ x }}"},{"kind":"block","id":"b","role":"user","content":"b"},{"kind":"slot","id":"h","slot":"chat-history","options":{"roles":["user"],"toolMode":"drop","maxChars":4,"maxMessages":2,"stripAssistantThinking":true,"includeSummaries":false,"includeLastUserMessage":false}}]}`, sampleHistory)
	f.Add(`{"items":[{"kind":"slot","slot":"tools","role":"system","options":{"format":"plain"}},{"kind":"slot","slot":"nope","role":"custom"}],"regex":{"rules":[{"id":"r","stage":"history","pattern":"(a+)+$","replace":"$1$<x>"}]}}`, `[{"role":"user","content":null},null,5,"x",{"role":["user"]},{"role":"assistant","content":[null,{"type":"toolCall"},{"type":"thinking","thinking":1}]}]`)
	f.Add(`[]`, `{}`)
	// Catastrophic fuzzed patterns would otherwise stall each exec for the
	// full regex match timeout.
	jsregex.MatchTimeout = 20 * time.Millisecond
	f.Fuzz(func(t *testing.T, stackJSON, messagesJSON string) {
		stack, _ := preset.Parse([]byte(stackJSON), "fuzz.json")
		messages, _ := parseMessagesLoose(messagesJSON)
		p := Preview(stack, testRuntime(), "BASE", messages, map[string]string{"m": "macro"})
		if len(p.Result.Messages.Messages) != len(p.Result.Messages.MessageSources) {
			t.Fatalf("%d messages but %d sources", len(p.Result.Messages.Messages), len(p.Result.Messages.MessageSources))
		}
		if got := concatParts(p.System); got != p.Result.System.SystemPrompt {
			t.Fatalf("preview parts do not rebuild the prompt")
		}
		_ = ResultJSON(p.Result)
		for _, first := range []bool{true, false} {
			out := PrepareRequest(RequestInput{Stack: stack, Runtime: testRuntime(), Messages: messages, FallbackBase: "FB", FirstOfTurn: first})
			if len(out.Projected) == 0 || !isSystemMessage(out.Projected[0]) && len(messages) > 0 && isSystemMessage(messages[0]) {
				t.Fatalf("projection lost the leading System message")
			}
		}
		_, _ = CompileRequestJSON([]byte(`{"stack":` + stackJSON + `,"runtime":{"options":{"cwd":"/"},"now":"2026-01-01T00:00:00Z"},"base":"","messages":` + messagesJSON + `}`))
	})
}
