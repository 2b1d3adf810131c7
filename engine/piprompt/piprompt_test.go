package piprompt

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
)

var piTools = []Tool{
	{Name: "read", Snippet: "Read file contents", Guidelines: []string{"Use read to examine files instead of cat or sed."}},
	{Name: "bash", Snippet: "Execute bash commands (ls, grep, find, etc.)", Guidelines: []string{"You can inspect PI_* environment variables for current model and session details."}},
	{Name: "edit", Snippet: "Make precise file edits with exact text replacement, including multiple disjoint edits in one call", Guidelines: []string{
		"Use edit for targeted changes. Batch changes to one file in a single call.",
		"Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions.",
	}},
	{Name: "write", Snippet: "Create or overwrite files", Guidelines: []string{"Use write only for new files or complete rewrites."}},
}

// TestMatchesPi160Session compares the sections with the first system
// message Pi 1.6.0 itself wrote into the generated fixture session.
func TestMatchesPi160Session(t *testing.T) {
	matches := fixtures.Glob(t, "pi-sessions/generated-pi-1.6.0/agent/sessions/*/2026-11-29T22-47-39-368Z_*.jsonl")
	if len(matches) != 1 {
		t.Fatalf("want one generated Pi 1.6.0 main session, found %v", matches)
	}
	raw, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var want map[string]string
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Role     string          `json:"role"`
				Sections json.RawMessage `json:"sections"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Message.Role != "system" {
			continue
		}
		if err := json.Unmarshal(e.Message.Sections, &want); err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(e.Message.Sections))
		dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			names = append(names, k.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
		break
	}
	if want == nil {
		t.Fatal("no system message in the fixture session")
	}
	ctx := want["project_context"]
	const open = `<project_instructions path="/home/dev/projects/demo-app/AGENTS.md">` + "\n"
	content := ctx[strings.Index(ctx, open)+len(open) : strings.LastIndex(ctx, "\n</project_instructions>")]
	got := Sections(Input{
		Tools:        piTools,
		DocsRoot:     "/usr/lib/node_modules/@earendil-works/pi-coding-agent",
		ContextFiles: []ContextFile{{Path: "/home/dev/projects/demo-app/AGENTS.md", Content: content}},
		Cwd:          "/home/dev/projects/demo-app",
	})
	var gotNames []string
	for _, s := range got {
		gotNames = append(gotNames, s.Name)
		if s.Value != want[s.Name] {
			t.Errorf("section %s:\n got %q\nwant %q", s.Name, s.Value, want[s.Name])
		}
	}
	if strings.Join(gotNames, ",") != strings.Join(names, ",") {
		t.Errorf("section order %v, want %v", gotNames, names)
	}
}

func TestCustomPromptOmitsToolsRulesDocs(t *testing.T) {
	custom := "You review invoices."
	got := Build(Input{CustomPrompt: &custom, Tools: piTools, Cwd: `C:\work\app`})
	want := "You review invoices.\n\n<cwd>\nC:/work/app\n</cwd>"
	if got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestRulesAndSkills(t *testing.T) {
	tools := []Tool{
		{Name: "bash", Snippet: "Run", Guidelines: []string{" Be concise in your responses "}},
		{Name: "ls", Snippet: ""},
	}
	secs := Sections(Input{
		Tools: tools, ExtraGuidelines: []string{"Prefer small diffs", "Prefer small diffs"},
		Skills: []Skill{
			{Name: "pdf", Description: "Read <PDF> & more", FilePath: "/s/pdf/SKILL.md"},
			{Name: "hidden", Description: "x", FilePath: "/s/h/SKILL.md", DisableModelInvocation: true},
		},
		Addendum: "Always add tests.", Cwd: "/w",
	})
	byName := map[string]string{}
	for _, s := range secs {
		byName[s.Name] = s.Value
	}
	if got, want := byName["tools"], "<tools>\n- bash: Run\n\nAdditional tools may be available.\n</tools>"; got != want {
		t.Errorf("tools = %q, want %q", got, want)
	}
	if got, want := byName["rules"], "<rules>\n- Be concise in your responses\n- Prefer small diffs\n- Show file paths clearly when working with files\n</rules>"; got != want {
		t.Errorf("rules (ls present: no bash rule; trimmed de-duplication) = %q, want %q", got, want)
	}
	if got := byName["skills"]; !strings.Contains(got, "<description>Read &lt;PDF&gt; &amp; more</description>") || strings.Contains(got, "hidden") {
		t.Errorf("skills must be XML-escaped and skip disable-model-invocation: %q", got)
	}
	if byName["addendum"] != "<addendum>\nAlways add tests.\n</addendum>" {
		t.Errorf("addendum = %q", byName["addendum"])
	}
	if s := Sections(Input{Skills: []Skill{{Name: "a"}}, Cwd: "/w"}); len(s) != 5 {
		t.Errorf("without read or bash the skills section is omitted; got %d sections", len(s))
	}
}
