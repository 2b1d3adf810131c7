package preset

import (
	"reflect"
	"testing"
)

func TestEffectiveTools(t *testing.T) {
	registered := []string{"read", "ls", "bash", "edit", "write", "grep", "forge_capability"}
	baseline := []string{"read", "bash", "edit", "write", "ghost"}
	worker := &ResourcePolicy{Allow: []string{"read", "ls", "forge_capability", "bash", "edit"}, Initial: []string{"read", "ls", "forge_capability"}}
	cases := []struct {
		name    string
		policy  *ResourcePolicy
		patches []ToolPatch
		want    []string
	}{
		{"read-first defaults", worker, nil, []string{"read", "ls", "forge_capability"}},
		{"write-tools bound", worker, []ToolPatch{{Add: []string{"bash", "edit"}}}, []string{"read", "ls", "forge_capability", "bash", "edit"}},
		{"ceiling blocks add", worker, []ToolPatch{{Add: []string{"write", "nope"}}}, []string{"read", "ls", "forge_capability"}},
		{"removal wins", worker, []ToolPatch{{Add: []string{"bash"}}, {Remove: []string{"bash", "read"}}}, []string{"ls", "forge_capability"}},
		{"no policy keeps baseline", nil, nil, []string{"read", "bash", "edit", "write"}},
		{"selective allow activates registered", &ResourcePolicy{Allow: []string{"g*", "ls"}}, nil, []string{"ls", "grep"}},
		{"allow with star keeps the baseline", &ResourcePolicy{Allow: []string{"*", "r*"}}, nil, []string{"read", "bash", "edit", "write"}},
		{"deny filters baseline", &ResourcePolicy{Deny: []string{"write"}}, nil, []string{"read", "bash", "edit"}},
		{"empty initial", &ResourcePolicy{Initial: []string{}}, []ToolPatch{{Add: []string{"grep"}}}, []string{"grep"}},
	}
	for _, c := range cases {
		if got := EffectiveTools(c.policy, registered, baseline, c.patches); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: EffectiveTools = %v, want %v", c.name, got, c.want)
		}
	}
	if got := EffectiveTools(nil, nil, baseline, nil); !reflect.DeepEqual(got, baseline) {
		t.Errorf("unknown catalog must not filter: %v", got)
	}
}

func TestToolBlockReasonAndReconcile(t *testing.T) {
	policy := &ResourcePolicy{Deny: []string{"bash"}}
	if got := ToolBlockReason("p", policy, nil, "bash"); got != `Tool "bash" is blocked by prompt stack "p".` {
		t.Errorf("policy block = %q", got)
	}
	if got := ToolBlockReason("p", policy, []ToolPatch{{Remove: []string{"edit"}}}, "edit"); got != `Tool "edit" is blocked by active capability.` {
		t.Errorf("capability block = %q", got)
	}
	if got := ToolBlockReason("p", policy, nil, "read"); got != "" {
		t.Errorf("allowed tool blocked: %q", got)
	}
	got := ReconcileToolBaseline([]string{"read", "bash", "edit"}, []string{"read", "bash"}, []string{"read", "mcp", "ext"})
	if want := []string{"read", "edit", "mcp", "ext"}; !reflect.DeepEqual(got, want) {
		t.Errorf("reconcile = %v, want %v", got, want)
	}
}
