package capability

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func FuzzParseCapability(f *testing.F) {
	for _, seed := range []string{
		capJSON("a", "text", `"bash"`, `"edit"`),
		`{"schemaVersion":1,"type":"pi-forge.capability","id":"x","content":"","tools":{"add":["a b",1,"*"]}}`,
		`{"id":"bad id","name":null,"tools":[]}`,
		`[]`, `null`, `{"a":`, `{"content":"\ud800","id":"😀"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, diags := Parse(raw, "fuzz.json", preset.ScopeProject)
		if c == nil || c.Tools.Add == nil || c.Tools.Remove == nil {
			t.Fatalf("nil parts: %+v", c)
		}
		out := Serialize(c)
		again, againDiags := Parse(out, "fuzz.json", preset.ScopeProject)
		if !bytes.Equal(Serialize(again), out) {
			t.Fatalf("re-parse changed the value:\n%s\n%s", out, Serialize(again))
		}
		// Normalization only removes problems: a clean file stays clean.
		if !diags.HasErrors() && againDiags.HasErrors() {
			t.Fatalf("clean file re-parses with errors %+v", againDiags)
		}
	})
}

// BenchmarkParseCapability loads a workspace of 500 capabilities and 500
// Presets that bind them, and resolves every binding: the budget for the
// whole load is well under 150 ms.
func BenchmarkParseCapability(b *testing.B) {
	caps := make([][]byte, 500)
	stacks := make([][]byte, 500)
	for i := range caps {
		id := fmt.Sprintf("cap-%03d", i)
		caps[i] = Serialize(&Capability{ID: id, Name: ptr("Capability " + id),
			Content: fmt.Sprintf("Instruction text for %s. %s", id, bytes.Repeat([]byte("Keep changes small. "), 20)),
			Tools:   ToolPatch{Add: []string{"bash", "edit"}, Remove: []string{"write"}}})
		stacks[i] = []byte(fmt.Sprintf(`{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"stack-%03d","name":"Stack","tools":{"allow":["read","bash","edit"]},"capabilities":[{"ref":"project:%s","modelCallable":true},{"ref":"cap-%03d","id":"second","overrides":{"appendContent":"more"}}],"items":[{"kind":"block","id":"role","role":"system","content":"You are a careful engineer."},{"kind":"slot","id":"chat-history","slot":"chat-history"}]}`, i, fmt.Sprintf("cap-%03d", i), (i+1)%500))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		entries := make([]*Entry, len(caps))
		for i, raw := range caps {
			entries[i] = Load(raw, fmt.Sprintf("cap-%03d.json", i), preset.ScopeProject)
		}
		cat := NewCatalog(entries...)
		for i, raw := range stacks {
			stack, _ := preset.ParseWith(raw, fmt.Sprintf("stack-%03d.json", i), preset.ParseOptions{Scope: preset.ScopeProject})
			if res := ResolveBindings(stack, preset.ScopeProject, cat); res.Error != "" {
				b.Fatal(res.Error)
			}
		}
	}
}

func ptr(s string) *string { return &s }

func FuzzResolveBindings(f *testing.F) {
	for _, seed := range []string{
		`[{"ref":"p"},{"ref":"global:shadow","id":"x","overrides":{"appendContent":"a","tools":{"add":["b"]}}}]`,
		`[{"ref":"p"},{"ref":"p"}]`, `["x",{"ref":5},{"ref":"team:x"}]`, `[{"ref":"empty","overrides":{"content":"c"}}]`,
	} {
		f.Add(seed, false)
	}
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, bindings string, global bool) {
		scope := preset.ScopeProject
		if global {
			scope = preset.ScopeGlobal
		}
		src := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"owner","capabilities":` + bindings + `,"items":[]}`
		stack, _ := preset.ParseWith([]byte(src), "owner.json", preset.ParseOptions{Scope: scope})
		res := ResolveBindings(stack, scope, cat)
		if len(res.Bindings) != len(stack.Capabilities) {
			t.Fatalf("%d results for %d bindings", len(res.Bindings), len(stack.Capabilities))
		}
		usable := 0
		for _, b := range res.Bindings {
			if b.Usable() {
				usable++
				if d := Validate(b.Effective); d.HasErrors() {
					t.Fatalf("usable binding with invalid effective capability: %+v", d)
				}
			}
		}
		if res.Error == "" && usable != len(res.Bindings) {
			t.Fatalf("no error but %d of %d usable", usable, len(res.Bindings))
		}
		if res.Error != "" && res.ErrorIndex >= len(res.Bindings) {
			t.Fatalf("error index %d out of range", res.ErrorIndex)
		}
	})
}
