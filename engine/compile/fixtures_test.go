package compile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/fixtures"
)

// sharedExample parses a pi-forge example Preset of the shared fixtures.
func sharedExample(t testing.TB, name string) *preset.Stack {
	t.Helper()
	raw := fixtures.Read(t, "pi-forge/examples/"+name)
	stack, _ := preset.Parse(raw, filepath.Base(name))
	return stack
}

func TestDefaultMirrorPreset(t *testing.T) {
	stack := sharedExample(t, "default-prompt-stack.json")
	rt := testRuntime()
	res := Compile(stack, rt, "BASE", parseMessages(t, sampleHistory), nil)
	for _, d := range append(res.System.Diagnostics, res.Messages.Diagnostics...) {
		if d.Level != preset.LevelInfo {
			t.Errorf("unexpected diagnostic %+v", d)
		}
	}
	want := strings.Join([]string{
		"You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.",
		"Available tools:\n- read: Read file contents\n- bash: Execute bash commands (ls, grep, find, etc.)\n- edit: Make precise file edits with exact text replacement, including multiple disjoint edits in one call\n- write: Create or overwrite files",
		"In addition to the tools above, you may have access to other custom tools depending on the project.",
		"Guidelines:\n- Use bash for file operations like ls, rg, find\n- Use read to examine files instead of cat or sed.\n- You can inspect PI_* environment variables for current model and session details.\n- Use edit for targeted changes. Batch changes to one file in a single call.\n- Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.\n- Use write only for new files or complete rewrites.\n- Be concise in your responses\n- Show file paths clearly when working with files",
		renderPiDocs(""),
		"Appended <text>.",
		"<project_context>\n\nProject-specific instructions and guidelines:\n\n<project_instructions path=\"/work/demo/AGENTS.md\">\n# Demo\nRun <tests> & \"lint\".\n</project_instructions>\n\n</project_context>",
		"The following skills provide specialized instructions for specific tasks.\nUse the read tool to load a skill's file when the task matches its description.\nWhen a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n<available_skills>\n  <skill>\n    <name>pdf</name>\n    <description>Read &amp; write PDFs</description>\n    <location>/skills/pdf/SKILL.md</location>\n  </skill>\n</available_skills>",
		"Current date: 2026-11-29\nCurrent working directory: C:/work/demo",
	}, "\n\n")
	if res.System.SystemPrompt != want {
		t.Errorf("system prompt\n got %q\nwant %q", res.System.SystemPrompt, want)
	}
	if len(res.Messages.Messages) != 9 || res.Messages.MessageSources[0].Kind != SourceChatHistory {
		t.Errorf("history not passed through: %d messages", len(res.Messages.Messages))
	}
	if len(res.System.Diagnostics)+len(res.Messages.Diagnostics) != 0 {
		t.Errorf("diagnostics: %s %s", diagText(res.System.Diagnostics), diagText(res.Messages.Diagnostics))
	}
}

func TestOtherExamples(t *testing.T) {
	info := func(msg string) string { return `{"level":"info","message":"` + msg + `","itemId":"chat-history"}` }
	tests := []struct {
		file        string
		macros      map[string]string
		system      string // "" = do not check the prompt
		systemDiags string
		msgDiags    string
		roles       string
	}{
		{file: "fake-assistant-direct-output-prompt-stack.json",
			system:      "You are a concise assistant. Answer the user's latest request directly and include only the requested result.",
			systemDiags: `[]`, msgDiags: `[]`,
			roles: "system user assistant toolResult compactionSummary custom assistant bashExecution user assistant"},
		{file: "image-reader-prompt-stack.json", systemDiags: `[]`,
			msgDiags: `[` + info("Dropped tool history from chat-history: removed 1 tool call(s), dropped 1 tool result message(s).") + `,` +
				info("Stripped 2 assistant thinking block(s) from 2 chat-history message(s) and dropped 1 empty assistant message(s).") + `]`,
			roles: "system user user assistant compactionSummary custom bashExecution user user"},
		{file: "minimal-prompt-stack.json", system: "You are a helpful software engineer assistant.", systemDiags: `[]`,
			msgDiags: `[` + info("Filtered 1 chat-history message(s) by summary.") + `]`,
			roles:    "system user assistant toolResult custom assistant bashExecution user"},
		{file: "read-first-worker-prompt-stack.json", systemDiags: `[]`,
			msgDiags: `[` + info("Filtered 1 chat-history message(s) by summary.") + `]`,
			roles:    "system user assistant toolResult custom assistant bashExecution user"},
		{file: "reviewer-prompt-stack.json", systemDiags: `[]`,
			msgDiags: `[` + info("Stripped 2 assistant thinking block(s) from 2 chat-history message(s) and dropped 1 empty assistant message(s).") + `]`,
			roles:    "system user user assistant toolResult compactionSummary custom bashExecution user user"},
		{file: "validation-issues-prompt-stack.json", system: "This block is valid, but its id is duplicated below.", systemDiags: `[]`,
			msgDiags: `[{"level":"warning","message":"Unsupported slot: not-a-real-slot","itemId":"unsupported-slot"}]`,
			roles:    "system user user assistant toolResult compactionSummary custom assistant bashExecution user"},
		{file: "custom-system-status-extension/prompt-stack.json", system: "BASE",
			systemDiags: `[{"level":"error","message":"forge-v1 render error: Undefined forge-v1 path: {{extensions.cpuLoad}}","itemId":"cpu-load-macro"},` +
				`{"level":"warning","message":"Unsupported slot: machine-status","itemId":"machine-status"},` +
				`{"level":"warning","message":"Compiled system prompt failed; preserving base system prompt."}]`,
			msgDiags: `[]`, roles: "system user assistant toolResult compactionSummary custom assistant bashExecution user"},
		{file: "custom-system-status-extension/prompt-stack.json", macros: map[string]string{"cpuLoad": "0.42"},
			system:      "BASE\n\nCurrent rough CPU load: 0.42",
			systemDiags: `[{"level":"warning","message":"Unsupported slot: machine-status","itemId":"machine-status"}]`,
			msgDiags:    `[]`, roles: "system user assistant toolResult compactionSummary custom assistant bashExecution user"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			res := Compile(sharedExample(t, tc.file), testRuntime(), "BASE", parseMessages(t, sampleHistory), tc.macros)
			if tc.system != "" && res.System.SystemPrompt != tc.system {
				t.Errorf("system prompt %q", res.System.SystemPrompt)
			}
			if d := diagText(res.System.Diagnostics); d != tc.systemDiags {
				t.Errorf("system diagnostics\n got %s\nwant %s", d, tc.systemDiags)
			}
			if d := diagText(res.Messages.Diagnostics); d != tc.msgDiags {
				t.Errorf("message diagnostics\n got %s\nwant %s", d, tc.msgDiags)
			}
			roles := make([]string, len(res.Messages.Messages))
			for i, m := range res.Messages.Messages {
				roles[i] = messageRole(m)
			}
			if got := strings.Join(roles, " "); got != tc.roles {
				t.Errorf("roles\n got %s\nwant %s", got, tc.roles)
			}
		})
	}
}

// TestBuiltinToolTableMatchesPi16Session checks the tool snippets and
// guidelines against the `tools` and `rules` sections Pi 1.6.0 persisted in
// a real session's first System message.
func TestBuiltinToolTableMatchesPi16Session(t *testing.T) {
	raw := fixtures.Read(t, "pi-sessions/generated-pi-1.6.0/agent/sessions/--home-dev-projects-demo-app--/2026-11-29T22-47-39-368Z_01a2297e-1867-72d0-99d9-f9f8b12b74b4.jsonl")
	var sections *jsonv.Object
	for _, line := range strings.Split(string(raw), "\n") {
		entry, err := jsonv.Parse([]byte(line))
		if err != nil {
			continue
		}
		message, _ := field(entry, "message")
		if isSystemMessage(message) {
			v, _ := field(message, "sections")
			sections, _ = v.(*jsonv.Object)
			break
		}
	}
	if sections == nil {
		t.Fatal("no System message with sections in the fixture session")
	}
	rt := DefaultRuntime(DefaultRuntimeInput{Cwd: "/home/dev/projects/demo-app", Now: testNow})
	var tools, rules []string
	for _, name := range rt.Options.SelectedTools {
		tools = append(tools, "- "+name+": "+rt.Options.ToolSnippets[name])
	}
	rules = append(rules, "- Use bash for file operations like ls, rg, find")
	for _, g := range rt.Options.PromptGuidelines {
		rules = append(rules, "- "+g)
	}
	rules = append(rules, "- Be concise in your responses", "- Show file paths clearly when working with files")
	wantTools := "<tools>\n" + strings.Join(tools, "\n") + "\n\nAdditional tools may be available.\n</tools>"
	wantRules := "<rules>\n" + strings.Join(rules, "\n") + "\n</rules>"
	if v, _ := sections.Get("tools"); v != wantTools {
		t.Errorf("tools section\n got %q\nwant %q", v, wantTools)
	}
	if v, _ := sections.Get("rules"); v != wantRules {
		t.Errorf("rules section\n got %q\nwant %q", v, wantRules)
	}
}
