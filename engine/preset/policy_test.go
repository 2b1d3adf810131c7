package preset

import (
	"reflect"
	"strings"
	"testing"
)

var policyCases = []struct {
	name, fields string
	want         Diagnostics
}{
	{"tools not object", `"tools":["read"]`, Diagnostics{d(LevelError, "tools policy must be an object when provided.", "")}},
	{"skills not object", `"skills":null`, Diagnostics{d(LevelError, "skills policy must be an object when provided.", "")}},
	{"allow not array", `"tools":{"allow":"read"}`, Diagnostics{d(LevelError, "tools.allow must be an array of strings when provided.", "")}},
	{"deny entries", `"tools":{"deny":["ok"," ",3]}`, Diagnostics{
		d(LevelError, "tools.deny[1] must be a non-empty string.", ""),
		d(LevelError, "tools.deny[2] must be a non-empty string.", ""),
	}},
	{"both", `"skills":{"allow":["a"],"deny":["b"]}`, Diagnostics{
		d(LevelError, "skills policy must use either allow or deny, not both.", ""),
		d(LevelInfo, "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does not disable explicit skill invocation and is not a security boundary.", ""),
	}},
	{"empty both is fine", `"tools":{"allow":[],"deny":[]}`, nil},
	{"duplicate pattern", `"tools":{"allow":["read"," read"]}`, Diagnostics{d(LevelWarning, "Duplicate tools.allow pattern: read.", "")}},
	{"skills in append mode", `"mode":"append","skills":{"deny":["x"]}`, Diagnostics{
		d(LevelInfo, "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does not disable explicit skill invocation and is not a security boundary.", ""),
		d(LevelWarning, `skills policy only filters pi-forge skills slots. Use mode "replace" if you need the base Pi prompt to omit filtered skills.`, ""),
	}},
	{"star allow is no skill policy", `"skills":{"allow":["*"]}`, nil},
	{"initial not array", `"tools":{"initial":"read"}`, Diagnostics{d(LevelError, "tools.initial must be an array of concrete tool names when provided.", "")}},
	{"initial entries", `"tools":{"initial":["read","re*d",""," read ",5,"a b"]}`, Diagnostics{
		d(LevelError, "tools.initial[1] must be a valid concrete tool name (wildcards are not allowed).", ""),
		d(LevelError, "tools.initial[2] must be a valid concrete tool name (wildcards are not allowed).", ""),
		d(LevelWarning, "Duplicate tools.initial tool name: read.", ""),
		d(LevelError, "tools.initial[4] must be a valid concrete tool name (wildcards are not allowed).", ""),
		d(LevelError, "tools.initial[5] must be a valid concrete tool name (wildcards are not allowed).", ""),
	}},
	{"initial blocked", `"tools":{"allow":["re*"],"initial":["read","bash"]}`, Diagnostics{
		d(LevelError, `tools.initial tool "bash" is blocked by the allow/deny policy.`, ""),
	}},
	{"initial blocked by deny", `"tools":{"deny":["bash"],"initial":["bash"]}`, Diagnostics{
		d(LevelError, `tools.initial tool "bash" is blocked by the allow/deny policy.`, ""),
	}},
	{"skills initial ignored", `"skills":{"initial":5}`, nil},
}

func TestPolicyDiagnostics(t *testing.T) {
	for _, c := range policyCases {
		_, got := Parse([]byte(`{"id":"a",`+c.fields+`,"items":[`+chatItem+`]}`), "a.json")
		checkDiags(t, c.name, got, c.want)
	}
}

func TestPolicyNormalization(t *testing.T) {
	s, _ := Parse([]byte(`{"id":"a","tools":{"allow":[" read "],"deny":["x"],"initial":[]},"skills":{"allow":[]},"items":[]}`), "a.json")
	if !reflect.DeepEqual(s.Tools, &ResourcePolicy{Allow: []string{"read"}, Initial: []string{}}) {
		t.Errorf("tools = %#v", s.Tools)
	}
	if s.Skills == nil || s.Skills.Allow != nil || s.Skills.Deny != nil {
		t.Errorf("skills = %#v", s.Skills)
	}
	out := string(Serialize(s))
	if !strings.Contains(out, "\"tools\": {\n    \"allow\": [\n      \"read\"\n    ],\n    \"initial\": []\n  },\n  \"skills\": {},") {
		t.Errorf("serialized policy:\n%s", out)
	}
}

func TestApplyResourcePolicy(t *testing.T) {
	names := []string{"read", "bash", "edit", "mcp_fs_read", "mcp_web"}
	cases := []struct {
		policy *ResourcePolicy
		want   []string
	}{
		{nil, names},
		{&ResourcePolicy{Allow: []string{"*"}}, names},
		{&ResourcePolicy{Allow: []string{"read", "mcp_*"}}, []string{"read", "mcp_fs_read", "mcp_web"}},
		{&ResourcePolicy{Allow: []string{"*", "read"}}, names},
		{&ResourcePolicy{Deny: []string{"*_read", "bash"}}, []string{"read", "edit", "mcp_web"}},
		{&ResourcePolicy{Allow: []string{"m*b"}}, []string{"mcp_web"}},
		{&ResourcePolicy{Initial: []string{}}, names},
	}
	for _, c := range cases {
		if got := ApplyResourcePolicy(names, c.policy); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ApplyResourcePolicy(%+v) = %v, want %v", c.policy, got, c.want)
		}
	}
	if HasResourcePolicy(&ResourcePolicy{Allow: []string{"*"}}) || !HasResourcePolicy(&ResourcePolicy{Deny: []string{"x"}}) {
		t.Error("HasResourcePolicy")
	}
	if !HasToolSelectionPolicy(&ResourcePolicy{Initial: []string{}}) || HasToolSelectionPolicy(&ResourcePolicy{}) || HasToolSelectionPolicy(nil) {
		t.Error("HasToolSelectionPolicy")
	}
}

func TestPatternMatches(t *testing.T) {
	cases := []struct {
		name, pattern string
		want          bool
	}{
		{"read", "read", true},
		{"read", "rea", false},
		{"a.b", "a.b", true},
		{"axb", "a.b", false},
		{"a+b", "a+*", true},
		{"anything\nat all", "*", true},
		{"a\nb", "a*b", false},
		{"abcabc", "*abc", true},
		{"ab", "a**b", true},
		{"xyz", "x*y", false},
		{"日本語", "日*", true},
	}
	for _, c := range cases {
		if got := PatternMatches(c.name, c.pattern); got != c.want {
			t.Errorf("PatternMatches(%q, %q) = %v", c.name, c.pattern, got)
		}
	}
}

func TestIdentity(t *testing.T) {
	for id, want := range map[string]bool{"a": true, "A1._-": true, "1": true, "": false, "-a": false, ".a": false, "a:b": false, "a b": false, "é": false} {
		if IsValidResourceID(id) != want {
			t.Errorf("IsValidResourceID(%q) != %v", id, want)
		}
	}
	selectors := []struct{ in, scope, id, err string }{
		{"  review ", "", "review", ""},
		{"project:review", "project", "review", ""},
		{"global:r.1", "global", "r.1", ""},
		{"  ", "", "", "Resource selector must not be empty."},
		{"team:x", "", "", `Unknown scope prefix: team. Expected "project" or "global".`},
		{"project:", "", "", "Invalid resource id: . Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."},
		{"project:a:b", "", "", "Invalid resource id: a:b. Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."},
		{"_x", "", "", "Invalid resource id: _x. Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."},
	}
	for _, c := range selectors {
		sel, err := ParseSelector(c.in)
		if err != c.err || string(sel.Scope) != c.scope || sel.ID != c.id {
			t.Errorf("ParseSelector(%q) = %+v, %q", c.in, sel, err)
		}
	}
	if (Selector{Scope: ScopeGlobal, ID: "x"}).String() != "global:x" || (Selector{ID: "x"}).String() != "x" {
		t.Error("Selector.String")
	}
	long := strings.Repeat("a", 128)
	for name, want := range map[string]bool{"read": true, long: true, long + "a": false, "": false, "a b": false, "a\u00a0b": false, "a\x01": false, "a\x7f": false, "a*": false, "a?": false, "😀": true} {
		if IsValidToolName(name) != want {
			t.Errorf("IsValidToolName(%q) != %v", name, want)
		}
	}
	if IsValidToolName(strings.Repeat("😀", 64) + "a") {
		t.Error("tool name length must count UTF-16 units")
	}
}
