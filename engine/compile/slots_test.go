package compile

import (
	"strings"
	"testing"
)

func compileSystemOnly(t *testing.T, runtime Runtime, stackJSON string) SystemResult {
	t.Helper()
	return Compile(mustStack(t, stackJSON), runtime, "BASE", nil, nil).System
}

func TestSlotOutputs(t *testing.T) {
	noTools := testRuntime()
	noTools.Options.SelectedTools = []string{}
	custom := testRuntime()
	custom.Options.SelectedTools = []string{"read", "my<tool>", "grep"}
	custom.Options.ToolSnippets["my<tool>"] = "Does \"x\"\nand y"
	custom.Options.PromptGuidelines = []string{"  Multi\nline  ", "Use read to examine files instead of cat or sed.", " "}
	noModel := testRuntime()
	noModel.Model = nil
	noReadTool := testRuntime()
	noReadTool.Options.SelectedTools = []string{"bash"}
	noAppend := testRuntime()
	noAppend.Options.AppendSystemPrompt = nil
	noFiles := testRuntime()
	noFiles.Options.ContextFiles = nil
	twoFiles := testRuntime()
	twoFiles.Options.ContextFiles = append(twoFiles.Options.ContextFiles, ContextFile{Path: "/b", Content: "B1\n\nB3\n"})
	docsRoot := testRuntime()
	docsRoot.PiDocsRoot = "/opt/pi"
	unknownSnippet := testRuntime()
	unknownSnippet.Options.SelectedTools = []string{"mystery", "empty"}
	unknownSnippet.Options.ToolSnippets["empty"] = ""

	tests := []struct {
		name    string
		runtime Runtime
		slot    string
		options string
		extra   string
		want    string
	}{
		{"tools xml", testRuntime(), "tools", "", "", "<available_tools>\n" +
			"  <tool name=\"read\">Read file contents</tool>\n" +
			"  <tool name=\"bash\">Execute bash commands (ls, grep, find, etc.)</tool>\n" +
			"  <tool name=\"edit\">Make precise file edits with exact text replacement, including multiple disjoint edits in one call</tool>\n" +
			"  <tool name=\"write\">Create or overwrite files</tool>\n" +
			"</available_tools>"},
		{"tools xml escaped", custom, "tools", `{"format":"json"}`, "", "<available_tools>\n" +
			"  <tool name=\"read\">Read file contents</tool>\n" +
			"  <tool name=\"my&lt;tool&gt;\">Does &quot;x&quot;\nand y</tool>\n" +
			"  <tool name=\"grep\">Search file contents for patterns (respects .gitignore)</tool>\n" +
			"</available_tools>"},
		{"tools plain", custom, "tools", `{"format":"plain"}`, "", "Available tools:\n- read: Read file contents\n- my<tool>: Does \"x\"\n  and y\n- grep: Search file contents for patterns (respects .gitignore)"},
		{"tools xml none", noTools, "tools", "", "", "<available_tools>\n  (none)\n</available_tools>"},
		{"tools plain none", noTools, "tools", `{"format":"plain"}`, "", "Available tools:\n- (none)"},
		{"tools plain none only snippets", noTools, "tools", `{"format":"plain","onlyWithSnippets":true}`, "", "Available tools:\n(none)"},
		{"tools fallback snippet", unknownSnippet, "tools", `{"format":"plain"}`, "", "Available tools:\n- mystery: No prompt snippet provided.\n- empty:"},
		{"tools only with snippets", unknownSnippet, "tools", `{"format":"plain","onlyWithSnippets":true}`, "", "Available tools:\n(none)"},
		{"tools policy deny", testRuntime(), "tools", `{"format":"plain"}`, `"tools":{"deny":["b*","e?it","edit"]}`, "Available tools:\n- read: Read file contents\n- write: Create or overwrite files"},
		{"guidelines xml", testRuntime(), "tool-guidelines", "", "", "<tool_guidelines>\n" +
			"- Use bash for file operations like ls, rg, find.\n" +
			"- Use read to examine files instead of cat or sed.\n" +
			"- You can inspect PI_* environment variables for current model and session details.\n" +
			"- Use edit for targeted changes. Batch changes to one file in a single call.\n" +
			"- Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.\n" +
			"- Use write only for new files or complete rewrites.\n" +
			"</tool_guidelines>"},
		{"guidelines plain pi style defaults", custom, "tool-guidelines", `{"format":"plain","piStyle":true,"includePiDefaultGuidelines":true}`, "",
			"Tool guidelines:\n- Multi\n  line\n- Use read to examine files instead of cat or sed.\n- Be concise in your responses\n- Show file paths clearly when working with files"},
		{"guidelines plain heading trimmed", noReadTool, "tool-guidelines", `{"format":"plain","heading":"  Rules:  ","piStyle":true}`, "",
			"Rules:\n- Use bash for file operations like ls, rg, find\n- Use read to examine files instead of cat or sed.\n- You can inspect PI_* environment variables for current model and session details.\n- Use edit for targeted changes. Batch changes to one file in a single call.\n- Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.\n- Use write only for new files or complete rewrites."},
		{"guidelines plain empty heading", custom, "tool-guidelines", `{"format":"plain","heading":"   "}`, "",
			"- Multi\n  line\n- Use read to examine files instead of cat or sed."},
		{"skills xml", testRuntime(), "skills", "", "", "The following skills provide specialized instructions for specific tasks.\n" +
			"Use the read tool to load a skill's file when the task matches its description.\n" +
			"When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n" +
			"\n<available_skills>\n  <skill>\n    <name>pdf</name>\n    <description>Read &amp; write PDFs</description>\n    <location>/skills/pdf/SKILL.md</location>\n  </skill>\n</available_skills>"},
		{"skills plain", testRuntime(), "skills", `{"format":"plain"}`, "", "The following skills provide specialized instructions for specific tasks.\n" +
			"Use the read tool to load a skill's file when the task matches its description.\n" +
			"When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.\n" +
			"\nAvailable skills:\n- pdf: Read & write PDFs\n  Location: /skills/pdf/SKILL.md"},
		{"skills require read", noReadTool, "skills", `{"requireReadTool":true}`, "", ""},
		{"skills policy", testRuntime(), "skills", "", `"skills":{"allow":["x*"]}`, ""},
		{"project context xml", testRuntime(), "project-context", "", "", "<project_context>\n\nProject-specific instructions and guidelines:\n\n" +
			"<project_instructions path=\"/work/demo/AGENTS.md\">\n# Demo\nRun <tests> & \"lint\".\n</project_instructions>\n\n</project_context>"},
		{"project context plain", twoFiles, "project-context", `{"format":"plain"}`, "", "Project context:\n\nProject-specific instructions and guidelines:\n\n" +
			"Path: /work/demo/AGENTS.md\n  # Demo\n  Run <tests> & \"lint\".\n\nPath: /b\n  B1\n  \n  B3"},
		{"project context none", noFiles, "project-context", "", "", ""},
		{"append", testRuntime(), "append-system-prompt", "", "", "Appended <text>."},
		{"append absent", noAppend, "append-system-prompt", "", "", ""},
		{"date", testRuntime(), "date", "", "", "Current date: 2026-11-29"},
		{"date with time", testRuntime(), "date", `{"includeTime":true}`, "", "Current date: 2026-11-29\nCurrent time: 23:05:09"},
		{"cwd", testRuntime(), "cwd", "", "", "Current working directory: C:/work/demo"},
		{"date-cwd", testRuntime(), "date-cwd", `{"includeTime":true}`, "", "Current date: 2026-11-29\nCurrent time: 23:05:09\nCurrent working directory: C:/work/demo"},
		{"active model", testRuntime(), "active-model", "", "", "Current model: anthropic/claude-sonnet-4-5"},
		{"active model none", noModel, "active-model", "", "", "Current model: (none)"},
		{"pi docs root", docsRoot, "pi-docs", "", "", "Pi documentation (read only when the user asks about pi itself, its SDK, extensions, themes, skills, or TUI):\n" +
			"- Main documentation: /opt/pi/README.md\n- Additional docs: /opt/pi/docs\n- Examples: /opt/pi/examples (extensions, custom tools, SDK)\n" +
			"- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory\n" +
			"- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), pi packages (docs/packages.md), environment variables (docs/environment-variables.md), MCP servers (docs/mcp.md), codemode scripts and non-LLM models such as classifiers and image models (docs/codemode.md)\n" +
			"- When working on pi topics, read the docs and examples, and follow .md cross-references before implementing\n" +
			"- Always read pi .md files completely and follow links to related docs (e.g., tui.md for TUI API details)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stack := stackWithItems(tc.extra, systemSlot("s", tc.slot, tc.options), systemBlock("keep", "K"))
			got := compileSystemOnly(t, tc.runtime, stack)
			want := "K"
			if tc.want != "" {
				want = tc.want + "\n\nK"
			}
			if got.SystemPrompt != want {
				t.Errorf("system prompt\n got %q\nwant %q", got.SystemPrompt, want)
			}
		})
	}
}

func TestPiDocsFallbackRoot(t *testing.T) {
	got := compileSystemOnly(t, testRuntime(), stackWithItems("", systemSlot("d", "pi-docs", "")))
	if !strings.Contains(got.SystemPrompt, "- Main documentation: @earendil-works/pi-coding-agent/README.md\n- Additional docs: @earendil-works/pi-coding-agent/docs\n") {
		t.Errorf("fallback root missing: %q", got.SystemPrompt)
	}
}

func TestSlotDiagnostics(t *testing.T) {
	big := testRuntime()
	big.Options.AppendSystemPrompt = strPtr(strings.Repeat("é", SlotOutputLimit) + "x")
	exact := testRuntime()
	exact.Options.AppendSystemPrompt = strPtr(strings.Repeat("😀", SlotOutputLimit/2))

	got := compileSystemOnly(t, big, stackWithItems("", systemSlot("a", "append-system-prompt", ""), systemSlot("u", "variables", ""), systemBlock("b", "B")))
	if got.SystemPrompt != "B" {
		t.Errorf("prompt %q", got.SystemPrompt)
	}
	want := `[{"level":"error","message":"Slot \"append-system-prompt\" exceeds 16384 characters.","itemId":"a"},{"level":"warning","message":"Unsupported slot: variables","itemId":"u"}]`
	if d := diagText(got.Diagnostics); d != want {
		t.Errorf("diagnostics\n got %s\nwant %s", d, want)
	}
	got = compileSystemOnly(t, exact, stackWithItems("", systemSlot("a", "append-system-prompt", "")))
	if len(got.Diagnostics) != 0 || got.SystemPrompt != *exact.Options.AppendSystemPrompt {
		t.Errorf("a 16384-unit output must pass: %s", diagText(got.Diagnostics))
	}
}
