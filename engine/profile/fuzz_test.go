package profile

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

func FuzzParseProfile(f *testing.F) {
	for _, seed := range []string{
		profileJSON("a", "global:x", true),
		profileJSON("b", "", false),
		`{"id":" x ","model":{"provider":" p ","id":"i","x":1},"thinkingLevel":"max","promptStack":" s "}`,
		`[]`, `null`, `{"a":`, `{"id":"\ud800","name":"😀","promptStack":7}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, diags := Parse(raw, "fuzz.json", preset.ScopeProject)
		if p == nil {
			t.Fatal("nil profile")
		}
		out := Serialize(p)
		again, againDiags := Parse(out, "fuzz.json", preset.ScopeProject)
		if !bytes.Equal(Serialize(again), out) {
			t.Fatalf("re-parse changed the value:\n%s\n%s", out, Serialize(again))
		}
		if !diags.HasErrors() && againDiags.HasErrors() {
			t.Fatalf("clean file re-parses with errors %+v", againDiags)
		}
		e := &Entry{Scope: preset.ScopeGlobal, Path: "fuzz.json", Profile: p, Diagnostics: diags}
		_ = Preflight(e, Resources{Presets: PresetList{}})
		if _, ok := ParseProvenance(nil); ok {
			t.Fatal("null provenance accepted")
		}
	})
}

// BenchmarkParseProfile loads 500 profiles into a catalog and resolves
// each one's Preset.
func BenchmarkParseProfile(b *testing.B) {
	raws := make([][]byte, 500)
	var presets PresetList
	for i := range raws {
		raws[i] = []byte(profileJSON(fmt.Sprintf("prof-%03d", i), fmt.Sprintf("stack-%03d", i), i == 0))
		presets = append(presets, &PresetRef{Scope: preset.ScopeProject, Stack: &preset.Stack{ID: fmt.Sprintf("stack-%03d", i)}})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		entries := make([]*Entry, len(raws))
		for i, raw := range raws {
			entries[i] = Load(raw, "p.json", preset.ScopeProject)
		}
		cat := NewCatalog(entries...)
		for _, e := range cat.Entries {
			if ref, _ := ResolvePromptStack(e, presets); ref == nil {
				b.Fatal("unresolved")
			}
		}
	}
}
