package session

import (
	"reflect"
	"testing"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/piprompt"
)

// TestRuntimeOptionsRoundTrip builds sections the way Pi 1.6.0 does and
// checks the runtime derived from them gives back what went in.
func TestRuntimeOptionsRoundTrip(t *testing.T) {
	var tools []piprompt.Tool
	for _, b := range compile.BuiltinTools[:4] {
		tools = append(tools, piprompt.Tool{Name: b.Name, Snippet: b.Snippet, Guidelines: b.Guidelines})
	}
	in := piprompt.Input{
		Tools:           tools,
		ExtraGuidelines: []string{"Prefer small diffs"},
		Addendum:        "Always run the tests.\nTwice.",
		ContextFiles: []piprompt.ContextFile{
			{Path: "/home/ada/.pi/agent/AGENTS.md", Content: "Global rules."},
			{Path: "/srv/app/AGENTS.md", Content: "Use cents.\n\nNo floats."},
		},
		Skills: []piprompt.Skill{{Name: "pdf & docs", Description: "Read <PDF> files", FilePath: "/s/pdf/SKILL.md"}},
		Cwd:    "/srv/app",
	}
	sections := map[string]string{}
	for _, s := range piprompt.Sections(in) {
		sections[s.Name] = s.Value
	}
	got := RuntimeOptionsFromPrompt(PromptState{Sections: sections, ToolNames: []string{"read", "bash", "edit", "write"}}, "/srv/app")

	if !reflect.DeepEqual(got.SelectedTools, []string{"read", "bash", "edit", "write"}) {
		t.Errorf("selected tools %v", got.SelectedTools)
	}
	for _, tool := range tools {
		if got.ToolSnippets[tool.Name] != tool.Snippet {
			t.Errorf("snippet of %s = %q", tool.Name, got.ToolSnippets[tool.Name])
		}
	}
	var wantGuidelines []string
	for _, tool := range tools {
		wantGuidelines = append(wantGuidelines, tool.Guidelines...)
	}
	wantGuidelines = append(wantGuidelines, "Prefer small diffs")
	if !reflect.DeepEqual(got.PromptGuidelines, wantGuidelines) {
		t.Errorf("guidelines\n got %q\nwant %q", got.PromptGuidelines, wantGuidelines)
	}
	if got.AppendSystemPrompt == nil || *got.AppendSystemPrompt != in.Addendum {
		t.Errorf("appendSystemPrompt %v", got.AppendSystemPrompt)
	}
	wantFiles := []compile.ContextFile{{Path: in.ContextFiles[0].Path, Content: in.ContextFiles[0].Content}, {Path: in.ContextFiles[1].Path, Content: in.ContextFiles[1].Content}}
	if !reflect.DeepEqual(got.ContextFiles, wantFiles) {
		t.Errorf("context files %+v", got.ContextFiles)
	}
	if len(got.Skills) != 1 || got.Skills[0].Name != "pdf & docs" || got.Skills[0].Description != "Read <PDF> files" || got.Skills[0].FilePath != "/s/pdf/SKILL.md" {
		t.Errorf("skills %+v", got.Skills)
	}
}

func TestRuntimeOptionsWithoutSections(t *testing.T) {
	got := RuntimeOptionsFromPrompt(PromptState{}, "/w")
	if got.AppendSystemPrompt != nil || len(got.SelectedTools) != 0 || got.ToolSnippets == nil || got.ContextFiles == nil {
		t.Fatalf("an empty prompt gives empty (not nil) options: %+v", got)
	}
}
