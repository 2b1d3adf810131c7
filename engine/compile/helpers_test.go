package compile

import (
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// testNow is 2026-11-29 23:05:09.123 at UTC+01:00 (22:05:09.123Z).
var testNow = time.Date(2026, 11, 29, 23, 5, 9, 123_000_000, time.FixedZone("", 3600))

func strPtr(s string) *string { return &s }

// testRuntime is a Pi 1.6.0 default runtime with one context file, one
// visible and one hidden skill, and a model.
func testRuntime() Runtime {
	return DefaultRuntime(DefaultRuntimeInput{
		Cwd:          `C:\work\demo`,
		ContextFiles: []ContextFile{{Path: "/work/demo/AGENTS.md", Content: "# Demo\nRun <tests> & \"lint\"."}},
		Skills: []Skill{
			{Name: "pdf", Description: "Read & write PDFs", FilePath: "/skills/pdf/SKILL.md"},
			{Name: "hidden", Description: "never shown", FilePath: "/skills/hidden/SKILL.md", DisableModelInvocation: true},
		},
		AppendSystemPrompt: strPtr("Appended <text>."),
		Model:              &Model{Provider: "anthropic", ID: "claude-sonnet-4-5", API: "anthropic-messages"},
		LatestUserMessage:  strPtr("latest question"),
		Now:                testNow,
	})
}

// mustStack parses a Preset through the codec and fails on error diagnostics.
func mustStack(t testing.TB, src string) *preset.Stack {
	t.Helper()
	stack, diags := preset.Parse([]byte(src), "test.json")
	if diags.HasErrors() {
		t.Fatalf("stack has errors: %+v", diags)
	}
	return stack
}

// stackWithItems wraps item JSON into a v2 Preset.
func stackWithItems(extra string, items ...string) string {
	if extra != "" {
		extra += ","
	}
	return `{"schemaVersion":2,"id":"t",` + extra + `"items":[` + strings.Join(items, ",") + `]}`
}

// systemSlot is a system-role slot item.
func systemSlot(id, slot, options string) string {
	if options == "" {
		options = "{}"
	}
	return `{"kind":"slot","id":"` + id + `","role":"system","slot":"` + slot + `","options":` + options + `}`
}

// systemBlock is a system-role block item.
func systemBlock(id, content string) string {
	return `{"kind":"block","id":"` + id + `","role":"system","content":` + jsonv.Quote(content) + `}`
}

// parseMessages parses a JSON array of agent messages.
func parseMessages(t testing.TB, src string) []any {
	t.Helper()
	v, err := jsonv.Parse([]byte(src))
	if err != nil {
		t.Fatalf("messages: %v", err)
	}
	arr, ok := v.([]any)
	if !ok {
		t.Fatalf("messages: not an array")
	}
	return arr
}

// diagText renders diagnostics compactly for comparisons.
func diagText(diags []Diagnostic) string {
	return jsonv.Stringify(DiagnosticsJSON(diags))
}

// parseMessagesLoose parses any JSON; a non-array yields no messages.
func parseMessagesLoose(src string) ([]any, bool) {
	v, err := jsonv.Parse([]byte(src))
	if err != nil {
		return nil, false
	}
	arr, ok := v.([]any)
	return arr, ok
}
