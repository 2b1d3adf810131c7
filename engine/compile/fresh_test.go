package compile

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
)

// TestFreshSessionToolsMatchPiForge compares the tool selection and the
// compiled system prompt of a fresh session with what pi-forge 0.5.1
// computed for the same stacks (testdata/pi-forge-0.5.1/README.md), with
// the one change 0.5.5 made there: forge_capability (which 0.5.1 lacked and
// the generator's fake host registered without a snippet) shows its
// description, the fallback 0.5.5's previewOptions gives a selected tool
// without a snippet.
func TestFreshSessionToolsMatchPiForge(t *testing.T) {
	data, err := os.ReadFile("testdata/pi-forge-0.5.1/fresh-session.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name          string          `json:"name"`
		Stack         json.RawMessage `json:"stack"`
		SelectedTools []string        `json:"selectedTools"`
		SystemPrompt  string          `json:"systemPrompt"`
	}
	if err := json.Unmarshal(data, &cases); err != nil || len(cases) < 5 {
		t.Fatalf("%v (%d cases)", err, len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			stack, diags := preset.Parse(c.Stack, c.Name+".json")
			if diags.Count(preset.LevelError) > 0 {
				t.Fatalf("stack: %v", diags)
			}
			sel := FreshSessionTools(stack.Tools)
			if !slices.Equal(sel.Tools, c.SelectedTools) {
				t.Fatalf("tools %v, pi-forge %v", sel.Tools, c.SelectedTools)
			}
			rt := DefaultRuntime(DefaultRuntimeInput{Cwd: "/srv", SelectedTools: sel.Tools, Now: time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)})
			got := Compile(stack, rt, "BASE", nil, nil).System.SystemPrompt
			want := strings.ReplaceAll(c.SystemPrompt, `<tool name="forge_capability">No prompt snippet provided.</tool>`,
				`<tool name="forge_capability">`+capability.AgentToolDescription+`</tool>`)
			if got != want {
				t.Fatalf("system prompt\n%q\npi-forge\n%q", got, want)
			}
		})
	}
}

// TestFreshSessionToolsInitial covers tools.initial (§5.4, §9.10), which
// pi-forge 0.5.1 predates: initial selects the defaults (registered names
// only, order kept) whatever the allow list, [] selects none.
func TestFreshSessionToolsInitial(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy *preset.ResourcePolicy
		want   []string
		source string
	}{
		{"issue 14", &preset.ResourcePolicy{Allow: []string{"read", "ls", "bash", "edit"}, Initial: []string{"read", "ls"}}, []string{"read", "ls"}, ToolsFromInitial},
		{"guarded-worker", &preset.ResourcePolicy{Allow: []string{"read", "grep", "find", "ls", "forge_capability", "edit", "write", "bash"},
			Initial: []string{"read", "grep", "ls", "forge_capability"}}, []string{"read", "grep", "ls", "forge_capability"}, ToolsFromInitial},
		{"zero defaults", &preset.ResourcePolicy{Initial: []string{}}, []string{}, ToolsFromInitial},
		{"unregistered initial dropped", &preset.ResourcePolicy{Initial: []string{"web", "ls"}}, []string{"ls"}, ToolsFromInitial},
		{"selective allow", &preset.ResourcePolicy{Allow: []string{"ls", "read"}}, []string{"read", "ls"}, ToolsFromAllow},
		{"deny", &preset.ResourcePolicy{Deny: []string{"bash"}}, []string{"read", "edit", "write", "forge_capability"}, ToolsFromDeny},
		{"none", nil, []string{"read", "bash", "edit", "write", "forge_capability"}, ToolsFromDefaults},
	} {
		sel := FreshSessionTools(tc.policy)
		if !slices.Equal(sel.Tools, tc.want) || sel.Source != tc.source {
			t.Errorf("%s: %v from %q, want %v from %q", tc.name, sel.Tools, sel.Source, tc.want, tc.source)
		}
	}
	// The block: the runtime sees exactly the initial tools.
	stack, _ := preset.Parse([]byte(`{"schemaVersion":2,"id":"p","tools":{"allow":["read","ls","bash","edit"],"initial":["read","ls"]},
		"items":[{"kind":"block","id":"b","role":"system","content":"{{ runtime.selectedToolsText }} | {% if runtime.tool.bash %}yes{% endif %}"}]}`), "p.json")
	rt := DefaultRuntime(DefaultRuntimeInput{Cwd: "/srv", SelectedTools: FreshSessionTools(stack.Tools).Tools})
	if got := Compile(stack, rt, "", nil, nil).System.SystemPrompt; got != "read, ls |" {
		t.Fatalf("compiled %q, want %q", got, "read, ls |")
	}
}

func TestUnmatchedAllowPatterns(t *testing.T) {
	p := &preset.ResourcePolicy{Allow: []string{"read", "*", "web_*", "f*", "nope"}}
	got := UnmatchedAllowPatterns(p, RegisteredTools())
	if !slices.Equal(got, []string{"web_*", "nope"}) {
		t.Fatalf("unmatched %v", got)
	}
	if UnmatchedAllowPatterns(nil, RegisteredTools()) != nil {
		t.Fatal("no policy has no unmatched pattern")
	}
}

// TestFreshSessionToolPromptOptions: pi-forge ≥ 0.5.5 hands the compiler
// its own tool prompt options (previewOptions in
// src/runtime/tool-policy-runtime.ts, used for the preview and, with a
// Preset active, for every request): a selected tool without a prompt
// snippet gets its description (forge_capability has none), and the
// guidelines are those of the selected tools in the registry's order, not
// in the order tools.initial names them.
func TestFreshSessionToolPromptOptions(t *testing.T) {
	stack, _ := preset.Parse([]byte(`{"schemaVersion":2,"id":"p","mode":"replace",
		"tools":{"allow":["read","ls","edit","forge_capability"],"initial":["edit","ls","read","forge_capability"]},
		"items":[{"kind":"slot","id":"t","role":"system","slot":"tools","options":{"format":"plain"}},
		         {"kind":"slot","id":"g","role":"system","slot":"tool-guidelines","options":{"format":"plain"}}]}`), "p.json")
	rt := DefaultRuntime(DefaultRuntimeInput{Cwd: "/srv", SelectedTools: FreshSessionTools(stack.Tools).Tools})
	got := Compile(stack, rt, "", nil, nil).System.SystemPrompt
	want := "Available tools:\n" +
		"- edit: Make precise file edits with exact text replacement, including multiple disjoint edits in one call\n" +
		"- ls: List directory contents\n" +
		"- read: Read file contents\n" +
		"- forge_capability: " + capability.AgentToolDescription + "\n\n" +
		"Tool guidelines:\n" +
		"- Use read to examine files instead of cat or sed.\n" +
		"- Use edit for targeted changes. Batch changes to one file in a single call.\n" +
		"- Each edits[].oldText must exactly and uniquely match the original file. Keep matches short and non-overlapping; merge nearby changes without including large unchanged regions."
	if got != want {
		t.Fatalf("compiled\n%s\nwant\n%s", got, want)
	}
}
