package forms

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/internal/fixtures"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestFormsOnUpstreamExamples opens every form on every upstream example
// Preset: views fit at both sizes and the draft is never changed.
func TestFormsOnUpstreamExamples(t *testing.T) {
	names := []string{"default-prompt-stack.json", "fake-assistant-direct-output-prompt-stack.json",
		"image-reader-prompt-stack.json", "minimal-prompt-stack.json", "read-first-worker-prompt-stack.json",
		"reviewer-prompt-stack.json", "validation-issues-prompt-stack.json", "custom-system-status-extension/prompt-stack.json"}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			ctx := policyContext(t, string(fixtures.Read(t, "pi-forge/examples/"+name)))
			before := jsonv.Stringify(ctx.Draft)
			forms := []Form{NewParameters(ctx), NewPolicy(ctx, "tools"), NewPolicy(ctx, "skills"), NewRegex(ctx),
				NewContextOptions(ctx), NewBindings(ctx)}
			items, _ := valueAt(ctx.Draft, Path{"items"}).([]any)
			slots := 0
			for i, it := range items {
				if o, ok := it.(*jsonv.Object); ok {
					if k, _ := o.Get("kind"); k == "slot" {
						forms = append(forms, NewSlotOptions(ctx, i))
						slots++
					}
				}
			}
			if name == "default-prompt-stack.json" && slots == 0 {
				t.Fatal("the default mirror has slots; none were found")
			}
			for _, f := range forms {
				for _, size := range [][2]int{{80, 24}, {160, 48}} {
					uitest.AssertFits(t, sizedView(f, size[0], size[1]), size[0], size[1])
				}
			}
			if jsonv.Stringify(ctx.Draft) != before {
				t.Fatal("a form mutated the draft")
			}
		})
	}
}

// TestReadFirstWorkerBinding resolves the read-first worker's binding
// against the upstream write-tools capability in a project library.
func TestReadFirstWorkerBinding(t *testing.T) {
	root := t.TempDir()
	ws := resources.Workspace{Cwd: filepath.Join(root, "p"), AgentDir: filepath.Join(root, "a"),
		ForgeDir: filepath.Join(root, "f"), Trust: resources.Trust{Trusted: true, Source: "test"}}
	capDir := filepath.Join(ws.Cwd, ".pi", "forge", "capabilities")
	for _, d := range []string{capDir, ws.AgentDir, ws.ForgeDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []string{"write-tools.json", "review.json"} {
		if err := os.WriteFile(filepath.Join(capDir, c), fixtures.Read(t, "pi-forge/examples/capabilities/"+c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := resources.LoadLibrary(ws)
	if err != nil {
		t.Fatal(err)
	}
	ctx := policyContext(t, string(fixtures.Read(t, "pi-forge/examples/read-first-worker-prompt-stack.json")))
	ctx.Library, ctx.Scope = lib, preset.ScopeProject
	v := sizedView(NewBindings(ctx), 160, 48)
	for _, want := range [][]string{
		{"✓ write-tools → project:write-tools", "[model-callable]"},
		{"SOURCE project:write-tools", "EFFECTIVE"},
		{"tools.add", "bash, edit", "bash, edit"},
		{"content", "Use bash and edit only as needed"},
	} {
		if lineWith(v, want...) == "" {
			t.Errorf("no line with %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "≠") {
		t.Errorf("a binding without overrides shows differences:\n%s", v)
	}
	// the policy form: initial defaults are allowed by the allow list.
	p := sizedView(NewPolicy(ctx, "tools"), 160, 48)
	if strings.Contains(p, "blocked by the allow/deny policy") || lineWith(p, "initial", "set: 3 default tool(s)") == "" {
		t.Errorf("read-first worker policy view wrong:\n%s", p)
	}
}
