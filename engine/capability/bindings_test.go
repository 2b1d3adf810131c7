package capability

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func stackWith(t *testing.T, scope preset.Scope, bindings string) *preset.Stack {
	t.Helper()
	src := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"owner","name":"Owner","capabilities":` + bindings + `,"items":[]}`
	stack, _ := preset.ParseWith([]byte(src), "owner.json", preset.ParseOptions{Scope: scope})
	if stack.ID != "owner" {
		t.Fatalf("stack did not parse: %+v", stack)
	}
	return stack
}

func TestBindingMessages(t *testing.T) {
	const bad = "Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."
	cases := []struct {
		name     string
		scope    preset.Scope
		bindings string
		wantErr  string
		wantIdx  int
	}{
		{"ok", preset.ScopeProject, `[{"ref":"p"},{"ref":"project:shadow","id":"s2","modelCallable":true}]`, "", -1},
		{"non-object", preset.ScopeProject, `[{"ref":"p"},"p"]`, "Capability binding must be an object.", 1},
		{"unsupported field", preset.ScopeProject, `[{"ref":"p","scope":"x"}]`, "Unsupported binding field: scope", 0},
		{"ref required", preset.ScopeProject, `[{"id":"x"}]`, "Binding ref is required.", 0},
		{"ref empty", preset.ScopeProject, `[{"ref":"  "}]`, "Binding ref must be a non-empty string.", 0},
		{"ref type", preset.ScopeProject, `[{"ref":5}]`, "Binding ref must be a non-empty string.", 0},
		{"ref scope", preset.ScopeProject, `[{"ref":"team:p"}]`, `Unknown scope prefix: team. Expected "project" or "global".`, 0},
		{"ref id", preset.ScopeProject, `[{"ref":"project:-p"}]`, "Invalid resource id: -p. " + bad, 0},
		{"global binds project", preset.ScopeGlobal, `[{"ref":"project:p"}]`, "Global binding cannot reference project capability: project:p.", 0},
		{"binding id", preset.ScopeProject, `[{"ref":"p","id":"a b"}]`, "Binding id must be a valid resource id.", 0},
		{"binding id type", preset.ScopeProject, `[{"ref":"p","id":3}]`, "Binding id must be a valid resource id.", 0},
		{"modelCallable", preset.ScopeProject, `[{"ref":"p","modelCallable":"yes"}]`, "modelCallable must be a boolean when provided.", 0},
		{"overrides type", preset.ScopeProject, `[{"ref":"p","overrides":[]}]`, "overrides must be an object.", 0},
		{"override field", preset.ScopeProject, `[{"ref":"p","overrides":{"name":"x"}}]`, "Unsupported override field: name", 0},
		{"both contents", preset.ScopeProject, `[{"ref":"p","overrides":{"content":"a","appendContent":"b"}}]`, "Cannot specify both content and appendContent in overrides.", 0},
		{"override content type", preset.ScopeProject, `[{"ref":"p","overrides":{"content":1}}]`, "overrides.content must be a string.", 0},
		{"override append long", preset.ScopeProject, `[{"ref":"p","overrides":{"appendContent":"` + strings.Repeat("a", 100001) + `"}}]`, "overrides.appendContent exceeds maximum length of 100000 characters.", 0},
		{"override tools type", preset.ScopeProject, `[{"ref":"p","overrides":{"tools":"x"}}]`, "overrides.tools must be an object.", 0},
		{"override tools field", preset.ScopeProject, `[{"ref":"p","overrides":{"tools":{"only":[]}}}]`, "Unsupported tools field in overrides: only", 0},
		{"override tools list", preset.ScopeProject, `[{"ref":"p","overrides":{"tools":{"add":"bash"}}}]`, "overrides.tools.add must be an array of tool names.", 0},
		{"override tool name", preset.ScopeProject, `[{"ref":"p","overrides":{"tools":{"remove":["a*"]}}}]`, `Tool name at index 0 ("a*") cannot contain wildcard characters (* or ?).`, 0},
		{"duplicate implicit", preset.ScopeProject, `[{"ref":"p"},{"ref":"project:p"}]`, `Duplicate binding id "p" at index 1.`, 1},
		{"duplicate explicit", preset.ScopeProject, `[{"ref":"p","id":"x"},{"ref":"shadow","id":"x"}]`, `Duplicate binding id "x" at index 1.`, 1},
		{"validation before duplicates", preset.ScopeProject, `[{"ref":"p"},{"ref":"p"},{"ref":5}]`, "Binding ref must be a non-empty string.", 2},
		{"duplicates before resolution", preset.ScopeProject, `[{"ref":"missing"},{"ref":"p"},{"ref":"p"}]`, `Duplicate binding id "p" at index 2.`, 2},
		{"not found", preset.ScopeProject, `[{"ref":"p"},{"ref":"missing"}]`, `Capability capability "project:missing" not found.`, 1},
		{"bare ref is preset scope not fallback", preset.ScopeProject, `[{"ref":"g-only"}]`, `Capability capability "project:g-only" not found.`, 0},
		{"global bare ref", preset.ScopeGlobal, `[{"ref":"g-only"},{"ref":"p"}]`, `Capability capability "global:p" not found.`, 1},
		{"has errors", preset.ScopeProject, `[{"ref":"broken-shadow"}]`, `Capability capability "project:broken-shadow" has errors: content must be a string.`, 0},
		{"ambiguous", preset.ScopeProject, `[{"ref":"dup-shadow"}]`, `Ambiguous capability "project:dup-shadow": multiple definitions found.`, 0},
		{"override failure", preset.ScopeProject, `[{"ref":"p","id":"pp","overrides":{"content":" ","tools":{"add":[]}}}]`,
			`Failed to apply overrides to "pp": Capability capability must have non-empty content or at least one tool effect (add or remove).`, 0},
	}
	cat := testCatalog()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := ResolveBindings(stackWith(t, c.scope, c.bindings), c.scope, cat)
			if res.Error != c.wantErr || res.ErrorIndex != c.wantIdx {
				t.Errorf("got (%q, %d), want (%q, %d)", res.Error, res.ErrorIndex, c.wantErr, c.wantIdx)
			}
			if c.wantIdx >= 0 && res.Bindings[c.wantIdx].Error != c.wantErr {
				t.Errorf("binding error %q", res.Bindings[c.wantIdx].Error)
			}
		})
	}
}

func TestBindingLimit(t *testing.T) {
	parts := make([]string, 257)
	for i := range parts {
		parts[i] = `{"ref":"p","id":"b` + itoa(i) + `"}`
	}
	res := ResolveBindings(stackWith(t, preset.ScopeProject, "["+strings.Join(parts, ",")+"]"), preset.ScopeProject, testCatalog())
	if res.Error != "Exceeded maximum bindings limit of 256 (got 257)." || res.ErrorIndex != -1 {
		t.Errorf("got %q %d", res.Error, res.ErrorIndex)
	}
	// Each binding is still resolved on its own for display.
	if len(res.Bindings) != 257 || !res.Bindings[256].Usable() {
		t.Errorf("bindings %d", len(res.Bindings))
	}
}

func TestBindingResolvedValues(t *testing.T) {
	cat := testCatalog()
	res := ResolveBindings(stackWith(t, preset.ScopeProject, `[
		{"ref":"p","modelCallable":true},
		{"ref":"global:shadow","id":"gs","overrides":{"appendContent":"more","tools":{"add":["read"],"remove":["bash"]}}},
		{"ref":"shadow","id":"ps","overrides":{"content":"replaced","tools":{"add":[]}}}
	]`), preset.ScopeProject, cat)
	if res.Error != "" {
		t.Fatalf("error %q", res.Error)
	}
	b0, b1, b2 := res.Bindings[0], res.Bindings[1], res.Bindings[2]
	if b0.ID != "p" || b0.Ref != (Key{preset.ScopeProject, "p"}) || b0.Preset != (Key{preset.ScopeProject, "owner"}) || !b0.ModelCallable {
		t.Errorf("b0 %+v", b0)
	}
	if b0.Effective.Content != "project" || strings.Join(b0.Effective.Tools.Add, ",") != "bash" {
		t.Errorf("b0 effective %+v", b0.Effective)
	}
	if b1.ModelCallable || b1.Source.Scope != preset.ScopeGlobal || b1.Source.Capability.Content != "global shadow" {
		t.Errorf("b1 source %+v", b1.Source)
	}
	if b1.Effective.Content != "global shadow\n\nmore" || strings.Join(b1.Effective.Tools.Add, ",") != "read" || strings.Join(b1.Effective.Tools.Remove, ",") != "bash" {
		t.Errorf("b1 effective %+v", b1.Effective)
	}
	if b2.Effective.Content != "replaced" || len(b2.Effective.Tools.Add) != 0 || b2.Effective.Tools.Add == nil {
		t.Errorf("b2 effective %+v", b2.Effective)
	}
	// The source capability is never modified by overrides.
	if e, _ := Resolve(cat, "global:shadow"); e.Capability.Content != "global shadow" || len(e.Capability.Tools.Add) != 0 {
		t.Errorf("source modified: %+v", e.Capability)
	}
	if b1.SnapshotFingerprint() == b1.Source.SnapshotFingerprint() || b1.SnapshotFingerprint() == "" {
		t.Error("binding fingerprint should differ from the unbound source")
	}
}

func TestApplyOverrides(t *testing.T) {
	str := func(s string) *string { return &s }
	base := &Capability{ID: "c", Content: "base", Tools: ToolPatch{Add: []string{"a"}, Remove: []string{"r"}}}
	empty := &Capability{ID: "c", Content: "", Tools: ToolPatch{Add: []string{"a"}, Remove: []string{}}}
	cases := []struct {
		name     string
		base     *Capability
		ov       *preset.BindingOverrides
		content  string
		add, rem string
		err      string
	}{
		{"none", base, nil, "base", "a", "r", ""},
		{"empty overrides", base, &preset.BindingOverrides{}, "base", "a", "r", ""},
		{"content", base, &preset.BindingOverrides{Content: str("new")}, "new", "a", "r", ""},
		{"content empty keeps tools", base, &preset.BindingOverrides{Content: str("")}, "", "a", "r", ""},
		{"append", base, &preset.BindingOverrides{AppendContent: str("x")}, "base\n\nx", "a", "r", ""},
		{"append empty", base, &preset.BindingOverrides{AppendContent: str("")}, "base", "a", "r", ""},
		{"append to empty base", empty, &preset.BindingOverrides{AppendContent: str("x")}, "x", "a", "", ""},
		{"tools replace", base, &preset.BindingOverrides{ToolsAdd: []string{"b", "c"}}, "base", "b,c", "r", ""},
		{"tools clear", base, &preset.BindingOverrides{ToolsAdd: []string{}, ToolsRemove: []string{}}, "base", "", "", ""},
		{"both", base, &preset.BindingOverrides{Content: str("a"), AppendContent: str("b")}, "", "", "", "Cannot specify both content and appendContent in overrides."},
		{"content too long", base, &preset.BindingOverrides{Content: str(strings.Repeat("x", 100001))}, "", "", "", "overrides.content exceeds maximum length of 100000 characters."},
		{"combined too long", base, &preset.BindingOverrides{AppendContent: str(strings.Repeat("x", 99999))}, "", "", "", "content exceeds maximum length of 100000 characters."},
		{"bad tool", base, &preset.BindingOverrides{ToolsRemove: []string{"x y"}}, "", "", "", `Tool name at index 0 ("x y") cannot contain whitespace.`},
		{"blank result", empty, &preset.BindingOverrides{ToolsAdd: []string{}}, "", "", "", msgNoEffect},
		{"invalid base", &Capability{ID: "c"}, nil, "", "", "", msgNoEffect},
	}
	for _, c := range cases {
		got, diags := ApplyOverrides(c.base, c.ov)
		if c.err != "" {
			if got != nil || diags.FirstError() != c.err {
				t.Errorf("%s: got %+v %q", c.name, got, diags.FirstError())
			}
			continue
		}
		if diags.HasErrors() || got.Content != c.content || strings.Join(got.Tools.Add, ",") != c.add || strings.Join(got.Tools.Remove, ",") != c.rem {
			t.Errorf("%s: got %+v %+v", c.name, got, diags)
		}
	}
	if base.Content != "base" || base.Tools.Add[0] != "a" {
		t.Error("base modified")
	}
}

// TestPresetValidationWording pins the validation-side binding messages
// that engine/preset reports while parsing a Preset (the resolution side
// uses other words for the same faults).
func TestPresetValidationWording(t *testing.T) {
	parts := make([]string, 257)
	for i := range parts {
		parts[i] = `{"ref":"p","id":"b` + itoa(i) + `"}`
	}
	parts[1] = `{"ref":"p","id":"b0"}`
	src := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"owner","name":"Owner","capabilities":[` + strings.Join(parts, ",") + `],"items":[]}`
	_, diags := preset.ParseWith([]byte(src), "owner.json", preset.ParseOptions{Scope: preset.ScopeProject})
	want := map[string]bool{"Preset capabilities cannot exceed 256 bindings (got 257).": false, "Duplicate capability binding id: b0": false}
	for _, d := range diags {
		if _, ok := want[d.Message]; ok && d.Level == preset.LevelError {
			want[d.Message] = true
		}
	}
	for m, seen := range want {
		if !seen {
			t.Errorf("missing %q in %+v", m, diags)
		}
	}
}
