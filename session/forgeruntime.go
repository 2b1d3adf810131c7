package session

import (
	"html"
	"regexp"
	"strings"

	"github.com/forgebench/forgebench/engine/compile"
)

// PromptState is the system prompt in force at an entry, as far as the
// runtime derivation needs it: the sections by name and the names of the
// tool declarations, in order.
type PromptState struct {
	Sections  map[string]string
	ToolNames []string
}

// RuntimeOptionsFromPrompt derives pi-forge's runtime options from the
// sections Pi 1.6.0 wrote (spec §12.2): the selected tools are the tool
// declarations in force, snippets come from the `tools` section lines,
// guidelines from the `rules` bullets without Pi's own fixed rules,
// appendSystemPrompt from `addendum`, context files from `project_context`
// and skills from `skills`. Reading the guidelines back out of `rules` is
// inferred: Pi does not record which bullet came from which tool.
func RuntimeOptionsFromPrompt(p PromptState, cwd string) compile.Options {
	opts := compile.Options{
		Cwd:              cwd,
		SelectedTools:    append([]string{}, p.ToolNames...),
		ToolSnippets:     map[string]string{},
		PromptGuidelines: []string{},
		ContextFiles:     []compile.ContextFile{},
		Skills:           []compile.Skill{},
	}
	for _, line := range strings.Split(sectionBody(p.Sections["tools"], "tools"), "\n") {
		name, snippet, ok := strings.Cut(strings.TrimPrefix(line, "- "), ": ")
		if ok && strings.HasPrefix(line, "- ") {
			opts.ToolSnippets[name] = snippet
		}
	}
	for _, line := range strings.Split(sectionBody(p.Sections["rules"], "rules"), "\n") {
		rule, ok := strings.CutPrefix(line, "- ")
		if ok && !piFixedRules[rule] {
			opts.PromptGuidelines = append(opts.PromptGuidelines, rule)
		}
	}
	if add, ok := p.Sections["addendum"]; ok {
		text := sectionBody(add, "addendum")
		opts.AppendSystemPrompt = &text
	}
	for _, m := range projectInstructions.FindAllStringSubmatch(sectionBody(p.Sections["project_context"], "project_context"), -1) {
		opts.ContextFiles = append(opts.ContextFiles, compile.ContextFile{Path: m[1], Content: m[2]})
	}
	for _, m := range skillEntry.FindAllStringSubmatch(sectionBody(p.Sections["skills"], "skills"), -1) {
		opts.Skills = append(opts.Skills, compile.Skill{
			Name: html.UnescapeString(m[1]), Description: html.UnescapeString(m[2]), FilePath: html.UnescapeString(m[3]),
		})
	}
	return opts
}

// piFixedRules are the bullets Pi adds itself rather than from tools or
// extensions.
var piFixedRules = map[string]bool{
	"Use bash for file operations like ls, rg, find":                       true,
	"Use PowerShell for file operations like Get-ChildItem, Select-String": true,
	"Be concise in your responses":                                         true,
	"Show file paths clearly when working with files":                      true,
}

var (
	projectInstructions = regexp.MustCompile(`(?s)<project_instructions path="([^"]*)">\n(.*?)\n</project_instructions>`)
	skillEntry          = regexp.MustCompile(`(?s)<skill>\s*<name>(.*?)</name>\s*<description>(.*?)</description>\s*<location>(.*?)</location>\s*</skill>`)
)

// sectionBody removes the `<name>\n … \n</name>` wrapper Pi puts around
// every section except the preamble.
func sectionBody(value, name string) string {
	body, ok := strings.CutPrefix(value, "<"+name+">\n")
	if !ok {
		return value
	}
	body, _ = strings.CutSuffix(body, "\n</"+name+">")
	return body
}
