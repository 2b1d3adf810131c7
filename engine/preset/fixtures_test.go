package preset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/forgebench/forgebench/internal/fixtures"
)

// readTestdata reads a file of this package's own testdata.
func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read fixture: %v", err)
	}
	return raw
}

// exampleExpectations lists every upstream example Preset with the
// diagnostics pi-forge reports for it and whether pi-forge's serializer
// reproduces the file byte for byte (files written by pi-forge's normalizer
// are canonical; hand-written ones keep "parameters" after "items").
var exampleExpectations = []struct {
	file       string
	extraSlots []string
	canonical  bool
	want       Diagnostics
}{
	{"default-prompt-stack.json", nil, false, nil},
	{"minimal-prompt-stack.json", nil, false, nil},
	{"reviewer-prompt-stack.json", nil, false, nil},
	{"image-reader-prompt-stack.json", nil, false, nil},
	{"fake-assistant-direct-output-prompt-stack.json", nil, false, nil},
	{"read-first-worker-prompt-stack.json", nil, true, nil},
	{"validation-issues-prompt-stack.json", nil, true, Diagnostics{
		d(LevelError, "Duplicate item id: duplicate-id", "duplicate-id"),
		d(LevelWarning, "Unsupported slot: not-a-real-slot", "unsupported-slot"),
		d(LevelWarning, "Enabled block has no role and will be ignored.", "missing-role"),
		d(LevelWarning, noChatHistory, ""),
	}},
	// The custom slot is registered by the example's extension module.
	{"custom-system-status-extension/prompt-stack.json", []string{"machine-status"}, false, nil},
	{"custom-system-status-extension/prompt-stack.json", nil, false, Diagnostics{
		d(LevelWarning, "Unsupported slot: machine-status", "machine-status"),
	}},
}

func TestUpstreamExamples(t *testing.T) {
	for _, ex := range exampleExpectations {
		raw := fixtures.Read(t, "pi-forge/examples/"+ex.file)
		base := filepath.Base(ex.file)
		stack, diags := ParseWith(raw, base, ParseOptions{ExtraSlots: ex.extraSlots})
		checkDiags(t, ex.file, diags, ex.want)
		out := Serialize(stack)
		if ex.canonical && !bytes.Equal(out, raw) {
			t.Errorf("%s: Serialize(Parse(x)) differs from the canonical file:\n%s", ex.file, out)
		}
		again, diags2 := ParseWith(out, base, ParseOptions{ExtraSlots: ex.extraSlots})
		if !bytes.Equal(Serialize(again), out) {
			t.Errorf("%s: serialization is not idempotent", ex.file)
		}
		checkDiags(t, ex.file+" (re-parsed)", diags2, ex.want)
	}
}

func TestUpstreamExampleShapes(t *testing.T) {
	s, _ := Parse(fixtures.Read(t, "pi-forge/examples/read-first-worker-prompt-stack.json"), "read-first-worker-prompt-stack.json")
	if s.ID != "read-first-worker" || s.SchemaVersion != 2 || len(s.Items) != 2 {
		t.Fatalf("read-first-worker = %+v", s)
	}
	if got := s.Tools.Initial; len(got) != 3 || got[0] != "read" || got[2] != "forge_capability" {
		t.Errorf("tools.initial = %v", got)
	}
	if b := s.CapabilityBindings(); len(b) != 1 || b[0].EffectiveID() != "write-tools" || !b[0].ModelCallable {
		t.Errorf("bindings = %+v", b)
	}
	s, _ = Parse(fixtures.Read(t, "pi-forge/examples/default-prompt-stack.json"), "default-prompt-stack.json")
	if s.AutoActivate == nil || !*s.AutoActivate || HasResourcePolicy(s.Tools) || s.Parameters == nil || s.Parameters.Len() != 0 {
		t.Errorf("default mirror = %+v", s)
	}
}

func TestOwnTestdata(t *testing.T) {
	raw := readTestdata(t, "testdata/full-canonical.json")
	s, diags := Parse(raw, "full-canonical.json")
	checkDiags(t, "full-canonical", diags, Diagnostics{
		d(LevelInfo, "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does not disable explicit skill invocation and is not a security boundary.", ""),
		d(LevelWarning, `skills policy only filters pi-forge skills slots. Use mode "replace" if you need the base Pi prompt to omit filtered skills.`, ""),
	})
	if out := Serialize(s); !bytes.Equal(out, raw) {
		t.Errorf("full-canonical round trip:\n%s", out)
	}
	if v := s.ContextView(); !v.AllowDuplicateChatHistory || !v.MergeConsecutiveRoles || v.MergeSeparator != "\n---\n" {
		t.Errorf("context view = %+v", v)
	}
	if v := s.DefaultsView(); !v.SyntheticMessagesVisible || v.UnresolvedMacroPolicy != "keep" {
		t.Errorf("defaults view = %+v", v)
	}
	if keys := s.TemplateParameters().Keys(); len(keys) != 5 || keys[0] != "2" || keys[1] != "10" || keys[2] != "zeta" {
		t.Errorf("parameter order = %v", keys)
	}

	messy := readTestdata(t, "testdata/messy.json")
	s, diags = Parse(messy, "messy.json")
	checkDiags(t, "messy", diags, Diagnostics{
		d(LevelError, `Preset mode must be "append", "prepend", or "replace" when provided.`, ""),
		d(LevelError, "Preset variable n must be a string.", ""),
		d(LevelError, "Item 2 id must be a non-empty string.", "item-2"),
		d(LevelError, "Item enabled must be a boolean when provided.", "history"),
		d(LevelError, "Item tags must be an array of strings when provided.", "history"),
		d(LevelError, `Item 4 kind must be "block" or "slot".`, "odd"),
		d(LevelError, "Invalid role: bot", "odd"),
		d(LevelError, "Item 1 must be an object.", "item-1"),
		d(LevelWarning, "Duplicate tools.initial tool name: read.", ""),
		d(LevelError, "tools.initial[2] must be a valid concrete tool name (wildcards are not allowed).", ""),
		d(LevelError, "tools policy must use either allow or deny, not both.", ""),
		d(LevelWarning, "Enabled block has no role and will be ignored.", "odd"),
	})
	if want := readTestdata(t, "testdata/messy.normalized.json"); !bytes.Equal(Serialize(s), want) {
		t.Errorf("messy normalized:\n%s", Serialize(s))
	}
}
