package compile

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// SlotOutputLimit is the largest slot output pi-forge accepts, in UTF-16
// code units; a longer output is an error and renders as "".
const SlotOutputLimit = 16384

// BuiltinSlots lists pi-forge 0.5.8's built-in slot names in registry order.
var BuiltinSlots = []string{
	"chat-history", "tools", "tool-guidelines", "skills", "project-context",
	"append-system-prompt", "date", "cwd", "date-cwd", "active-model", "pi-docs",
}

// piDocsFallbackRoot is what pi-forge prints when the Pi package cannot be
// resolved; the engine has no module resolution, so it is the default root.
const piDocsFallbackRoot = "@earendil-works/pi-coding-agent"

// IsBuiltinSlot reports whether name is one of BuiltinSlots.
func IsBuiltinSlot(name string) bool {
	for _, s := range BuiltinSlots {
		if s == name {
			return true
		}
	}
	return false
}

// slotRenderer renders the built-in slots of one compilation.
type slotRenderer struct {
	stack      *preset.Stack
	runtime    *Runtime
	piDocsRoot string
	tools      []string
}

// optionValue reads item.options[key].
func optionValue(item *preset.Item, key string) (any, bool) {
	if item.Options == nil {
		return nil, false
	}
	return item.Options.Get(key)
}

// optionIsTrue is `item.options?.<key> === true`.
func optionIsTrue(item *preset.Item, key string) bool {
	v, ok := optionValue(item, key)
	b, isBool := v.(bool)
	return ok && isBool && b
}

// plainFormat is slotTextFormat(item) === "plain".
func plainFormat(item *preset.Item) bool {
	v, ok := optionValue(item, "format")
	return ok && v == "plain"
}

// render renders one slot item and enforces the output limit. A custom
// slot renders the value supplied for it (Runtime.CustomSlots); other
// unknown slots warn and render "".
func (r *slotRenderer) render(item *preset.Item, diags *[]Diagnostic) string {
	var text string
	switch item.Slot {
	case "chat-history":
		text = ""
	case "tools":
		text = r.renderTools(item)
	case "tool-guidelines":
		text = r.renderToolGuidelines(item)
	case "skills":
		text = r.renderSkills(item)
	case "project-context":
		text = r.renderProjectContext(item)
	case "append-system-prompt":
		if r.runtime.Options.AppendSystemPrompt != nil {
			text = *r.runtime.Options.AppendSystemPrompt
		}
	case "date":
		text = r.renderDate(item)
	case "cwd":
		text = r.renderCwd()
	case "date-cwd":
		text = r.renderDate(item) + "\n" + r.renderCwd()
	case "active-model":
		text = r.renderActiveModel()
	case "pi-docs":
		text = renderPiDocs(r.piDocsRoot)
	default:
		value, supplied := r.runtime.CustomSlots[item.Slot]
		if !supplied {
			*diags = append(*diags, newDiagnostic(levelWarning, "Unsupported slot: "+item.Slot, item.ID))
			return ""
		}
		text = value
	}
	if jsonv.UTF16Len(text) > SlotOutputLimit {
		*diags = append(*diags, newDiagnostic(levelError,
			fmt.Sprintf("Slot %q exceeds %d characters.", item.Slot, SlotOutputLimit), item.ID))
		return ""
	}
	return text
}

// plainContinuation prefixes every line after the first with indent.
func plainContinuation(value, indent string) string {
	return strings.ReplaceAll(value, "\n", "\n"+indent)
}

// plainBullet is "- label: value" with continuation lines indented.
func plainBullet(label, value string) string {
	return "- " + label + ": " + plainContinuation(value, "  ")
}

// indentPlainBlock prefixes every line with indent.
func indentPlainBlock(value, indent string) string {
	return indent + strings.ReplaceAll(value, "\n", "\n"+indent)
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func (r *slotRenderer) snippet(name string) (string, bool) {
	s, ok := r.runtime.Options.ToolSnippets[name]
	return s, ok
}

func (r *slotRenderer) renderTools(item *preset.Item) string {
	onlyWithSnippets := optionIsTrue(item, "onlyWithSnippets")
	tools := r.tools
	if onlyWithSnippets {
		tools = nil
		for _, name := range r.tools {
			if s, ok := r.snippet(name); ok && s != "" {
				tools = append(tools, name)
			}
		}
	}
	snippetOf := func(name string) string {
		if s, ok := r.snippet(name); ok {
			return s
		}
		return "No prompt snippet provided."
	}
	lines := make([]string, 0, len(tools)+2)
	if plainFormat(item) {
		lines = append(lines, "Available tools:")
		if len(tools) == 0 {
			if onlyWithSnippets {
				lines = append(lines, "(none)")
			} else {
				lines = append(lines, "- (none)")
			}
		}
		for _, name := range tools {
			lines = append(lines, plainBullet(name, snippetOf(name)))
		}
		return strings.Join(lines, "\n")
	}
	lines = append(lines, "<available_tools>")
	if len(tools) == 0 {
		lines = append(lines, "  (none)")
	}
	for _, name := range tools {
		lines = append(lines, "  <tool name=\""+jsonv.EscapeXML(name)+"\">"+jsonv.EscapeXML(snippetOf(name))+"</tool>")
	}
	lines = append(lines, "</available_tools>")
	return strings.Join(lines, "\n")
}

func (r *slotRenderer) renderToolGuidelines(item *preset.Item) string {
	var guidelines []string
	seen := map[string]bool{}
	add := func(line string) {
		normalized := jsonv.TrimJS(line)
		if normalized == "" || seen[normalized] {
			return
		}
		seen[normalized] = true
		guidelines = append(guidelines, normalized)
	}
	if containsString(r.tools, "bash") && !containsString(r.tools, "grep") &&
		!containsString(r.tools, "find") && !containsString(r.tools, "ls") {
		if optionIsTrue(item, "piStyle") {
			add("Use bash for file operations like ls, rg, find")
		} else {
			add("Use bash for file operations like ls, rg, find.")
		}
	}
	for _, g := range r.runtime.Options.PromptGuidelines {
		add(g)
	}
	if optionIsTrue(item, "includePiDefaultGuidelines") {
		add("Be concise in your responses")
		add("Show file paths clearly when working with files")
	}
	if len(guidelines) == 0 {
		return ""
	}
	lines := make([]string, 0, len(guidelines)+2)
	if plainFormat(item) {
		heading := "Tool guidelines:"
		if v, ok := optionValue(item, "heading"); ok {
			if s, isString := v.(string); isString {
				heading = jsonv.TrimJS(s)
			}
		}
		if heading != "" {
			lines = append(lines, heading)
		}
		for _, g := range guidelines {
			lines = append(lines, "- "+plainContinuation(g, "  "))
		}
		return strings.Join(lines, "\n")
	}
	lines = append(lines, "<tool_guidelines>")
	for _, g := range guidelines {
		lines = append(lines, "- "+g)
	}
	lines = append(lines, "</tool_guidelines>")
	return strings.Join(lines, "\n")
}

func (r *slotRenderer) renderSkills(item *preset.Item) string {
	if optionIsTrue(item, "requireReadTool") && !containsString(r.tools, "read") {
		return ""
	}
	var skills []Skill
	for _, skill := range r.runtime.Options.Skills {
		if skill.DisableModelInvocation {
			continue
		}
		if len(preset.ApplyResourcePolicy([]string{skill.Name}, r.stack.Skills)) == 0 {
			continue
		}
		skills = append(skills, skill)
	}
	if len(skills) == 0 {
		return ""
	}
	lines := []string{
		"The following skills provide specialized instructions for specific tasks.",
		"Use the read tool to load a skill's file when the task matches its description.",
		"When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.",
		"",
	}
	if plainFormat(item) {
		lines = append(lines, "Available skills:")
		for _, skill := range skills {
			lines = append(lines, plainBullet(skill.Name, skill.Description),
				"  Location: "+plainContinuation(skill.FilePath, "  "))
		}
		return strings.Join(lines, "\n")
	}
	lines = append(lines, "<available_skills>")
	for _, skill := range skills {
		lines = append(lines,
			"  <skill>",
			"    <name>"+jsonv.EscapeXML(skill.Name)+"</name>",
			"    <description>"+jsonv.EscapeXML(skill.Description)+"</description>",
			"    <location>"+jsonv.EscapeXML(skill.FilePath)+"</location>",
			"  </skill>")
	}
	lines = append(lines, "</available_skills>")
	return strings.Join(lines, "\n")
}

func (r *slotRenderer) renderProjectContext(item *preset.Item) string {
	files := r.runtime.Options.ContextFiles
	if len(files) == 0 {
		return ""
	}
	if plainFormat(item) {
		lines := []string{"Project context:", "", "Project-specific instructions and guidelines:", ""}
		for _, file := range files {
			lines = append(lines, "Path: "+file.Path, indentPlainBlock(file.Content, "  "), "")
		}
		return strings.TrimRightFunc(strings.Join(lines, "\n"), jsonv.IsJSSpace)
	}
	lines := []string{"<project_context>", "", "Project-specific instructions and guidelines:", ""}
	for _, file := range files {
		lines = append(lines, "<project_instructions path=\""+jsonv.EscapeXML(file.Path)+"\">", file.Content, "</project_instructions>", "")
	}
	lines = append(lines, "</project_context>")
	return strings.Join(lines, "\n")
}

func (r *slotRenderer) renderDate(item *preset.Item) string {
	text := "Current date: " + localDate(r.runtime.Now)
	if optionIsTrue(item, "includeTime") {
		text += "\nCurrent time: " + localTime(r.runtime.Now)
	}
	return text
}

func (r *slotRenderer) renderCwd() string {
	return "Current working directory: " + strings.ReplaceAll(r.runtime.Options.Cwd, "\\", "/")
}

func (r *slotRenderer) renderActiveModel() string {
	if r.runtime.Model == nil {
		return "Current model: (none)"
	}
	return "Current model: " + r.runtime.Model.Provider + "/" + r.runtime.Model.ID
}

// renderPiDocs is the 0.5.8 `pi-docs` text for the given package root.
func renderPiDocs(root string) string {
	if root == "" {
		root = piDocsFallbackRoot
	}
	return strings.Join([]string{
		"Pi documentation (read only when the user asks about pi itself, its SDK, extensions, themes, skills, or TUI):",
		"- Main documentation: " + root + "/README.md",
		"- Additional docs: " + root + "/docs",
		"- Examples: " + root + "/examples (extensions, custom tools, SDK)",
		"- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory",
		"- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), pi packages (docs/packages.md), environment variables (docs/environment-variables.md), MCP servers (docs/mcp.md), codemode scripts and non-LLM models such as classifiers and image models (docs/codemode.md)",
		"- When working on pi topics, read the docs and examples, and follow .md cross-references before implementing",
		"- Always read pi .md files completely and follow links to related docs (e.g., tui.md for TUI API details)",
	}, "\n")
}
