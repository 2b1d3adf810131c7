package replay

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/piprompt"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
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

func TestForgeRuntimeAtFixtureSession(t *testing.T) {
	matches := fixtures.Glob(t, "pi-sessions/generated-pi-1.6.0/agent/sessions/*/2026-11-29T22-47-39-368Z_*.jsonl")
	if len(matches) != 1 {
		t.Fatalf("want one generated Pi 1.6.0 main session, found %v", matches)
	}
	s, err := session.Open(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	fr, err := ForgeRuntimeAt(s, s.LeafIndex(), catalog.Default(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	rt := fr.Runtime
	if !fr.FromSession || rt.Options.Cwd != "/home/dev/projects/demo-app" {
		t.Fatalf("source %q cwd %q", fr.Source, rt.Options.Cwd)
	}
	if !reflect.DeepEqual(rt.Options.SelectedTools, []string{"read", "bash", "edit", "write"}) {
		t.Errorf("tools %v", rt.Options.SelectedTools)
	}
	if rt.Model == nil || rt.Model.Provider != "openai" || rt.Model.ID != "gpt-5.4" || rt.Model.API == "" {
		t.Errorf("model at the leaf %+v (API from the catalog)", rt.Model)
	}
	if rt.LatestUserMessage == nil || *rt.LatestUserMessage != "Now add tests." {
		t.Errorf("latest user message %v", rt.LatestUserMessage)
	}
	if len(rt.Options.ContextFiles) != 1 || rt.Options.ContextFiles[0].Path != "/home/dev/projects/demo-app/AGENTS.md" {
		t.Errorf("context files %+v", rt.Options.ContextFiles)
	}
	if want := s.Entries[s.LeafIndex()].TimestampMs(); float64(rt.Now.UnixMilli()) != want {
		t.Errorf("now = the entry's time, got %v", rt.Now)
	}
	sp, _ := SystemPromptAt(s, s.LeafIndex())
	if fr.Base != sp.Text || !strings.Contains(fr.Base, "<rules>") {
		t.Errorf("base must be the prompt in force")
	}
	if len(fr.Messages) == 0 {
		t.Error("messages of the context at the leaf are missing")
	}
}

func TestForgeRuntimeAtPre086SessionFallsBack(t *testing.T) {
	src := `{"type":"session","version":3,"id":"s","timestamp":"2026-11-29T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"a1","parentId":null,"timestamp":"2026-11-29T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}
`
	s, err := session.Read(strings.NewReader(src), session.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fr, err := ForgeRuntimeAt(s, 0, nil, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if fr.FromSession || !strings.Contains(fr.Source, "Pi 1.6.0 defaults") || len(fr.Messages) != 1 {
		t.Fatalf("%+v", fr)
	}
}

func TestRuntimeOptionsCustomPromptKeepsBuiltinToolText(t *testing.T) {
	got := RuntimeOptionsFromPrompt(PromptState{
		Sections:  map[string]string{"preamble": "You review invoices.", "cwd": "<cwd>\n/w\n</cwd>"},
		ToolNames: []string{"read", "spawn_agent"},
	}, "/w")
	if got.ToolSnippets["read"] != "Read file contents" || len(got.ToolSnippets) != 1 {
		t.Errorf("snippets %v", got.ToolSnippets)
	}
	if !reflect.DeepEqual(got.PromptGuidelines, []string{"Use read to examine files instead of cat or sed."}) {
		t.Errorf("guidelines %v", got.PromptGuidelines)
	}
}

func TestContextFilesMayQuoteTheClosingTag(t *testing.T) {
	tricky := "Docs example:\n</project_instructions>\nstill the same file."
	var sections = map[string]string{}
	for _, s := range piprompt.Sections(piprompt.Input{
		ContextFiles: []piprompt.ContextFile{{Path: "/a/AGENTS.md", Content: tricky}, {Path: "/a/b/AGENTS.md", Content: "second"}},
		Cwd:          "/a/b",
	}) {
		sections[s.Name] = s.Value
	}
	got := RuntimeOptionsFromPrompt(PromptState{Sections: sections}, "/a/b").ContextFiles
	want := []compile.ContextFile{{Path: "/a/AGENTS.md", Content: tricky}, {Path: "/a/b/AGENTS.md", Content: "second"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
}

func FuzzRuntimeOptionsFromPrompt(f *testing.F) {
	f.Add("<tools>\n- read: Read\n</tools>", "<rules>\n- a\n</rules>", "<project_context>\nx\n\n<project_instructions path=\"p\">\nc\n</project_instructions>\n</project_context>", "read")
	f.Add("", "", "<project_context>\n\n<project_instructions path=\"", "")
	f.Fuzz(func(t *testing.T, tools, rules, ctx, tool string) {
		got := RuntimeOptionsFromPrompt(PromptState{
			Sections:  map[string]string{"tools": tools, "rules": rules, "project_context": ctx, "skills": ctx},
			ToolNames: []string{tool},
		}, "/w")
		if got.ToolSnippets == nil || got.ContextFiles == nil || got.Skills == nil || got.PromptGuidelines == nil {
			t.Fatal("options must never be nil")
		}
	})
}
