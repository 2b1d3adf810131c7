package replay

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
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
	// A custom SYSTEM.md prompt omits the tools and rules sections, yet Pi
	// still knows its built-in tools' snippets and guidelines (they belong
	// to the tool definitions); fill them from the Pi 1.6.0 table then.
	_, hasTools := p.Sections["tools"]
	_, hasRules := p.Sections["rules"]
	for _, name := range p.ToolNames {
		for _, b := range compile.BuiltinTools {
			if b.Name != name {
				continue
			}
			if !hasTools {
				opts.ToolSnippets[name] = b.Snippet
			}
			if !hasRules {
				opts.PromptGuidelines = append(opts.PromptGuidelines, b.Guidelines...)
			}
		}
	}
	if add, ok := p.Sections["addendum"]; ok {
		text := sectionBody(add, "addendum")
		opts.AppendSystemPrompt = &text
	}
	opts.ContextFiles = append(opts.ContextFiles, contextFilesOf(sectionBody(p.Sections["project_context"], "project_context"))...)
	for _, m := range skillEntry().FindAllStringSubmatch(sectionBody(p.Sections["skills"], "skills"), -1) {
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

var skillEntry = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)<skill>\s*<name>(.*?)</name>\s*<description>(.*?)</description>\s*<location>(.*?)</location>\s*</skill>`)
})

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

// ForgeRuntime is everything a preset compiles against at one session
// entry: the runtime pi-forge would have seen, Pi's base prompt in force,
// and the agent messages of the context there.
type ForgeRuntime struct {
	Runtime  compile.Runtime
	Base     string
	Messages []any
	// FromSession is false when the session records no system prompt (Pi
	// before 0.86); Runtime and Base are then empty and the caller must
	// fall back to Pi's defaults. Messages are filled either way.
	FromSession bool
	// Source says where the runtime came from, for humans.
	Source string
}

// ForgeRuntimeAt derives the runtime at the entry with the given index:
// options from the prompt sections in force, the model selected there
// (its API from cat when known), the latest user message of the context,
// and the entry's own time as `now` in the location loc.
func ForgeRuntimeAt(s *session.Session, index int, cat *catalog.Catalog, loc *time.Location) (*ForgeRuntime, error) {
	if index < 0 || index >= len(s.Entries) {
		return nil, fmt.Errorf("runtime at entry %d of %d: %w", index, len(s.Entries), session.ErrUnknownEntry)
	}
	ctx, err := s.Context(index)
	if err != nil {
		return nil, err
	}
	return forgeRuntimeOf(s, ctx, index, cat, loc), nil
}

// forgeRuntimeOf is ForgeRuntimeAt on a context already built at index.
func forgeRuntimeOf(s *session.Session, ctx *session.Context, index int, cat *catalog.Catalog, loc *time.Location) *ForgeRuntime {
	sp := systemPromptOf(ctx, index)
	fr := &ForgeRuntime{Messages: ctx.AgentMessages()}
	id := "(empty session)"
	if index >= 0 && index < len(s.Entries) {
		id = s.Entries[index].ID
	}
	if sp.Source != SystemPromptFromSession {
		fr.Source = "Pi 1.6.0 defaults: " + sanitize.Clip(s.Path, 200) + " records no system prompt (written before Pi 0.86)"
		return fr
	}
	sections := make(map[string]string, len(sp.Sections))
	for _, sec := range sp.Sections {
		sections[sec.Name] = sec.Value
	}
	fr.FromSession = true
	fr.Base = sp.Text
	fr.Runtime.Options = RuntimeOptionsFromPrompt(PromptState{Sections: sections, ToolNames: sp.ToolNames()}, s.Header.Cwd)
	if sp.Provider != "" || sp.ModelID != "" {
		m := &compile.Model{Provider: sp.Provider, ID: sp.ModelID}
		if cat != nil {
			if known, ok := cat.Lookup(sp.Provider, sp.ModelID); ok {
				m.API = known.API
			}
		}
		fr.Runtime.Model = m
	}
	if text, ok := compile.LatestUserMessage(fr.Messages); ok {
		fr.Runtime.LatestUserMessage = &text
	}
	fr.Runtime.Now = time.Now().In(loc)
	if index >= 0 && index < len(s.Entries) {
		if ms := s.Entries[index].TimestampMs(); !math.IsNaN(ms) {
			fr.Runtime.Now = time.UnixMilli(int64(ms)).In(loc)
		}
	}
	fr.Source = "session " + sanitize.Clip(s.Header.ID, 60) + " at entry " + sanitize.Clip(id, 20) + " (system prompt recorded by Pi)"
	return fr
}

// contextFilesOf reads the files back out of a project_context body. Pi
// joins them as `\n\n<project_instructions path="…">\n<content>\n</project_instructions>`
// without escaping, so a file may itself contain the closing tag; each
// file's content therefore runs to the last closing tag before the next
// file's opening, which no ordinary file text reproduces.
func contextFilesOf(body string) []compile.ContextFile {
	const open, closeTag = "<project_instructions path=\"", "\n</project_instructions>"
	var files []compile.ContextFile
	chunks := strings.Split(body, "\n\n"+open)
	for _, chunk := range chunks[1:] {
		path, rest, ok := strings.Cut(chunk, "\">\n")
		end := strings.LastIndex(rest, closeTag)
		if !ok || end < 0 {
			continue
		}
		files = append(files, compile.ContextFile{Path: path, Content: rest[:end]})
	}
	return files
}
