package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// benchHistory generates n messages cycling user → assistant (text,
// thinking, toolCall) → toolResult.
func benchHistory(n int) []any {
	messages := make([]any, 0, n)
	for i := 0; len(messages) < n; i++ {
		user := jsonv.NewObject()
		user.Set("role", "user")
		user.Set("content", textContent(fmt.Sprintf("Please look at file %d and fix the failing test there.", i)))
		user.Set("timestamp", float64(i*3))
		messages = append(messages, user)

		thinking := jsonv.NewObject()
		thinking.Set("type", "thinking")
		thinking.Set("thinking", "I should read the file first, then run the tests.")
		call := jsonv.NewObject()
		call.Set("type", "toolCall")
		call.Set("id", fmt.Sprintf("call-%d", i))
		call.Set("name", "read")
		args := jsonv.NewObject()
		args.Set("path", fmt.Sprintf("src/file%d.go", i))
		call.Set("arguments", args)
		assistant := jsonv.NewObject()
		assistant.Set("role", "assistant")
		assistant.Set("content", []any{thinking, textContent("Reading it now.")[0], call})
		assistant.Set("api", "anthropic-messages")
		assistant.Set("provider", "anthropic")
		assistant.Set("model", "claude-sonnet-4-5")
		assistant.Set("usage", zeroUsage())
		assistant.Set("stopReason", "toolUse")
		assistant.Set("timestamp", float64(i*3+1))
		messages = append(messages, assistant)

		result := jsonv.NewObject()
		result.Set("role", "toolResult")
		result.Set("toolCallId", fmt.Sprintf("call-%d", i))
		result.Set("toolName", "read")
		result.Set("content", textContent("package main\n\nfunc main() {}\n"))
		result.Set("isError", false)
		result.Set("timestamp", float64(i*3+2))
		messages = append(messages, result)
	}
	return messages[:n]
}

// benchStack is the shared default mirror preset, or this package's own
// equivalent when FORGEBENCH_SHARED is not set.
func benchStack(b *testing.B) *preset.Stack {
	path := filepath.Join("testdata", "default-mirror.json")
	if shared, ok := fixtures.Optional(b, "pi-forge/examples/default-prompt-stack.json"); ok {
		path = shared
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	stack, diags := preset.Parse(raw, filepath.Base(path))
	if diags.HasErrors() {
		b.Fatalf("bench preset has errors: %+v", diags)
	}
	return stack
}

func BenchmarkCompileDefaultStack(b *testing.B) {
	stack := benchStack(b)
	runtime := testRuntime()
	history := benchHistory(500)
	b.ReportAllocs()
	for b.Loop() {
		res := Compile(stack, runtime, "BASE", history, nil)
		if len(res.Messages.Messages) != 500 {
			b.Fatalf("got %d messages", len(res.Messages.Messages))
		}
	}
}

func BenchmarkCompileRequestJSON(b *testing.B) {
	raw, err := os.ReadFile("testdata/cli/mirror.request.json")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileRequestJSON(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileFilteredHistory exercises every history pass (role filter,
// thinking strip, limits and tool-pair repair) over the same history.
func BenchmarkCompileFilteredHistory(b *testing.B) {
	stack := mustStack(b, `{"id":"f","context":{"mergeConsecutiveRoles":true},"items":[
		{"kind":"block","id":"s","role":"system","content":"{{ runtime.cwd }} {% if runtime.tool.read %}{{ runtime.selectedToolsText }}{% endif %}"},
		{"kind":"block","id":"u","role":"user","content":"{{ runtime.lastUserMessage }}"},
		{"kind":"slot","id":"h","slot":"chat-history","options":{"roles":["user","assistant","toolResult"],"stripAssistantThinking":true,"maxMessages":400,"maxChars":20000,"includeLastUserMessage":false}}]}`)
	runtime := testRuntime()
	history := benchHistory(500)
	b.ReportAllocs()
	for b.Loop() {
		Compile(stack, runtime, "BASE", history, nil)
	}
}
