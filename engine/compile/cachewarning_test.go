package compile

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/preset"
)

// TestPromptCacheWarningIsPiForges holds the notice to pi-forge's own
// expectations (tests/prompt-cache-warning.test.ts, 0.5.4): identical
// prompts say nothing, a shared prefix is counted in code points and
// ceil(chars/4) tokens with the last request's cache read, a prompt that
// shares nothing is replaced whole.
func TestPromptCacheWarningIsPiForges(t *testing.T) {
	if got := PromptCacheWarning("unchanged", "unchanged", nil); got != "" {
		t.Errorf("identical prompts: %q", got)
	}
	got := PromptCacheWarning("abcdefghijklmnopqrst", "abcdefghijDIFFERENT", &CacheUsage{Reported: true, CacheRead: 42})
	want := "Switching will change the system prompt. Common prefix with current prompt: ~3 tokens (50%). The remaining ~2 tokens of history will be re-processed. Last request read ~42 tokens from cache."
	if got != want {
		t.Errorf("partial prefix:\n got %q\nwant %q", got, want)
	}
	if got, want := PromptCacheWarning("abcdefgh", "xyz", nil), "Switching replaces the system prompt entirely; the full prompt prefix (~2 tokens) will be re-processed."; got != want {
		t.Errorf("full replacement:\n got %q\nwant %q", got, want)
	}
	// A cache read the model never reported is left out; characters are
	// code points, not bytes or UTF-16 units.
	got = PromptCacheWarning("ééééX", "ééééY", &CacheUsage{Reported: false, CacheRead: 9})
	if want := "Switching will change the system prompt. Common prefix with current prompt: ~1 tokens (80%). The remaining ~1 tokens of history will be re-processed."; got != want {
		t.Errorf("code points, unreported usage:\n got %q\nwant %q", got, want)
	}
	if got := PromptCacheWarning("", "new prompt", nil); !strings.Contains(got, "(~0 tokens)") {
		t.Errorf("empty current prompt: %q", got)
	}
}

// TestStackSwitchCacheWarning: the same key says nothing, no compiled
// request (or no current Preset) says the estimate is unavailable, and a
// switch compiles both Presets against the same runtime and base; turning
// Presets off compares with the base prompt.
func TestStackSwitchCacheWarning(t *testing.T) {
	block := func(text string) *preset.Stack {
		return &preset.Stack{SchemaVersion: 1, Items: []preset.Item{{ID: "a", Kind: preset.KindBlock, Role: preset.RoleSystem, Content: text}}}
	}
	a, b := block("You are careful. Read first."), block("You are careful. Write tests.")
	if got := StackSwitchCacheWarning(StackSwitch{CurrentKey: "project:a", NextKey: "project:a", Current: a, Next: a, Compiled: true}); got != "" {
		t.Errorf("same key: %q", got)
	}
	for _, sw := range []StackSwitch{
		{CurrentKey: "project:a", NextKey: "project:b", Current: a, Next: b},
		{NextKey: "project:b", Next: b, Compiled: true},
	} {
		if got := StackSwitchCacheWarning(sw); got != CacheEstimateUnavailable {
			t.Errorf("%+v: %q", sw, got)
		}
	}
	got := StackSwitchCacheWarning(StackSwitch{CurrentKey: "project:a", NextKey: "project:b", Current: a, Next: b, Compiled: true, Base: "BASE"})
	if want := PromptCacheWarning("You are careful. Read first.", "You are careful. Write tests.", nil); got != want || !strings.Contains(got, "Common prefix") {
		t.Errorf("switch: %q, want %q", got, want)
	}
	got = StackSwitchCacheWarning(StackSwitch{CurrentKey: "project:a", Current: a, Compiled: true, Base: "Pi's own prompt"})
	if want := PromptCacheWarning("You are careful. Read first.", "Pi's own prompt", nil); got != want {
		t.Errorf("off: %q, want %q", got, want)
	}
}
