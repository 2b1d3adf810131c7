package preset

import (
	"reflect"
	"testing"
)

func TestRenamedMCPToolName(t *testing.T) {
	for in, want := range map[string]string{
		"mcp__github-server__create_issue": "mcp__github_server__create_issue",
		"mcp__a-b-c__x-y":                  "mcp__a_b_c__x-y", // only the server part changes
		"mcp__github__create_issue":        "",                // nothing renamed
		"mcp__github-server__*":            "",                // a pattern, not an exact name
		"mcp__git?ub-x__t":                 "",
		"bash":                             "",
		"mcp__server-only":                 "",
		"mcp____tool":                      "",
	} {
		if got := RenamedMCPToolName(in); got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
}

func TestMCPRenameWarnings(t *testing.T) {
	stack := &Stack{ID: "s", Tools: &ResourcePolicy{Deny: []string{"bash", "mcp__web-search__query", "mcp__web-search__*"}}}
	got := MCPRenameWarnings(stack)
	want := Diagnostics{{Level: LevelWarning, Message: `Tool "mcp__web-search__query" in tools.deny uses the MCP name form Pi 0.99.2 renamed; Pi now registers it as "mcp__web_search__query", so this exact name matches no tool.`}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	if MCPRenameWarnings(&Stack{}) != nil {
		t.Fatal("no policy, no warning")
	}
}
