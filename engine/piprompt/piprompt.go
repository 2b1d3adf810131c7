// Package piprompt builds the system prompt Pi 1.6.0 assembles by default
// (core/system-prompt.ts): named, ordered, tag-wrapped sections rendered as
// one text. forgebench uses it as the base prompt a preset starts from when
// no session supplies the prompt that was actually in force.
package piprompt

import (
	"strings"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// DefaultPreamble is Pi 1.6.0's preamble when no SYSTEM.md is configured.
const DefaultPreamble = "You are a coding assistant running inside pi, a coding agent harness. Help users inspect files, run commands, and modify code."

// DefaultDocsRoot is printed in the docs section when the caller does not
// know where the Pi package is installed.
const DefaultDocsRoot = "@earendil-works/pi-coding-agent"

// Tool is a selected tool with its prompt snippet and guidelines.
type Tool struct {
	Name       string
	Snippet    string
	Guidelines []string
}

// ContextFile is a project-instructions file (AGENTS.md, CLAUDE.md …).
type ContextFile struct {
	Path    string
	Content string
}

// Skill is a skill listed in the skills section.
type Skill struct {
	Name, Description, FilePath string
	DisableModelInvocation      bool
}

// Input is everything the default prompt depends on.
type Input struct {
	// CustomPrompt is SYSTEM.md's content; when set it replaces the
	// preamble and the tools, rules and docs sections are omitted.
	CustomPrompt *string
	// Tools are the selected tools in selection order.
	Tools []Tool
	// ExtraGuidelines are extension prompt guidelines.
	ExtraGuidelines []string
	// DocsRoot is the Pi package directory ("" = DefaultDocsRoot).
	DocsRoot string
	// Addendum is APPEND_SYSTEM.md plus extension appends, already joined.
	Addendum     string
	ContextFiles []ContextFile
	Skills       []Skill
	Cwd          string
}

// Section is one named part of the prompt.
type Section struct {
	Name  string
	Value string
}

// Sections returns the sections in Pi's key order: preamble, tools, rules,
// docs, addendum, project_context, skills, cwd. Empty optional sections are
// left out.
func Sections(in Input) []Section {
	var out []Section
	add := func(name, body string) {
		out = append(out, Section{name, "<" + name + ">\n" + body + "\n</" + name + ">"})
	}
	if in.CustomPrompt != nil {
		out = append(out, Section{"preamble", *in.CustomPrompt})
	} else {
		out = append(out, Section{"preamble", DefaultPreamble})
		add("tools", toolsBody(in.Tools))
		add("rules", rulesBody(in.Tools, in.ExtraGuidelines))
		add("docs", docsBody(in.DocsRoot))
	}
	if in.Addendum != "" {
		add("addendum", in.Addendum)
	}
	if len(in.ContextFiles) > 0 {
		var b strings.Builder
		b.WriteString("Project-specific instructions and guidelines:")
		for _, f := range in.ContextFiles {
			b.WriteString("\n\n<project_instructions path=\"" + f.Path + "\">\n" + f.Content + "\n</project_instructions>")
		}
		add("project_context", b.String())
	}
	if body := skillsBody(in.Tools, in.Skills); body != "" {
		add("skills", body)
	}
	add("cwd", strings.ReplaceAll(in.Cwd, `\`, "/"))
	return out
}

// Render joins section values with a blank line, dropping empty ones, as
// Pi renders a system message with empty content.
func Render(sections []Section) string {
	parts := make([]string, 0, len(sections))
	for _, s := range sections {
		if s.Value != "" {
			parts = append(parts, s.Value)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Build is Render(Sections(in)).
func Build(in Input) string { return Render(Sections(in)) }

func toolsBody(tools []Tool) string {
	var lines []string
	for _, t := range tools {
		if t.Snippet != "" {
			lines = append(lines, "- "+t.Name+": "+t.Snippet)
		}
	}
	if len(lines) == 0 {
		lines = []string{"(none)"}
	}
	return strings.Join(lines, "\n") + "\n\nAdditional tools may be available."
}

func rulesBody(tools []Tool, extra []string) string {
	has := map[string]bool{}
	for _, t := range tools {
		has[t.Name] = true
	}
	var rules []string
	if !has["grep"] && !has["find"] && !has["ls"] {
		switch {
		case has["bash"]:
			rules = append(rules, "Use bash for file operations like ls, rg, find")
		case has["powershell"]:
			rules = append(rules, "Use PowerShell for file operations like Get-ChildItem, Select-String")
		}
	}
	for _, t := range tools {
		rules = append(rules, t.Guidelines...)
	}
	rules = append(rules, extra...)
	rules = append(rules, "Be concise in your responses", "Show file paths clearly when working with files")
	seen := map[string]bool{}
	var b strings.Builder
	for _, r := range rules {
		r = strings.TrimSpace(r)
		if r == "" || seen[r] {
			continue
		}
		seen[r] = true
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("- " + r)
	}
	return b.String()
}

func docsBody(root string) string {
	if root == "" {
		root = DefaultDocsRoot
	}
	return strings.Join([]string{
		"Pi documentation (read only when the user asks about the harness itself, its SDK, extensions, themes, skills, or TUI):",
		"- Main documentation: " + root + "/README.md",
		"- Additional docs: " + root + "/docs",
		"- Examples: " + root + "/examples (extensions, custom tools, SDK)",
		"- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory",
		"- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), packages (docs/packages.md), environment variables (docs/environment-variables.md), MCP servers (docs/mcp.md), codemode scripts and non-LLM models such as classifiers and image models (docs/codemode.md)",
		"- Before implementing harness changes, read the relevant docs and examples in full, following related cross-references.",
	}, "\n")
}

// skillsBody lists the model-invocable skills when read or bash is
// available. The element layout follows the Agent Skills XML convention Pi
// uses (inferred: no 1.6.0 session with skills is in the fixtures).
func skillsBody(tools []Tool, skills []Skill) string {
	canRead := false
	for _, t := range tools {
		canRead = canRead || t.Name == "read" || t.Name == "bash"
	}
	var visible []Skill
	for _, s := range skills {
		if !s.DisableModelInvocation {
			visible = append(visible, s)
		}
	}
	if !canRead || len(visible) == 0 {
		return ""
	}
	lines := []string{
		"The following skills provide specialized instructions for specific tasks.",
		"Use the read tool to load a skill's file when the task matches its description.",
		"Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
		"",
		"<available_skills>",
	}
	for _, s := range visible {
		lines = append(lines,
			"  <skill>",
			"    <name>"+jsonv.EscapeXML(s.Name)+"</name>",
			"    <description>"+jsonv.EscapeXML(s.Description)+"</description>",
			"    <location>"+jsonv.EscapeXML(s.FilePath)+"</location>",
			"  </skill>")
	}
	lines = append(lines, "</available_skills>")
	return strings.Join(lines, "\n")
}
