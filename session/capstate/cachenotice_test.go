package capstate

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
)

// TestCacheNoticeOfAPresetSwitch: pi-forge's prompt-cache notice for
// /preset use, read from the branch. After a request compiled with the
// current Preset (Pi recorded the runtime) the switch is estimated, with
// the last request's cache read once the model reported one; with the
// selection after the last request, no request yet, or the same Preset,
// pi-forge has nothing compiled to compare ("cannot be estimated") or
// nothing to say.
func TestCacheNoticeOfAPresetSwitch(t *testing.T) {
	plain := `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"plain","items":[{"id":"a","kind":"block","role":"system","content":"Be plain."}]}`
	ws := workspace(t, true, []string{reviewJSON, writeToolsJSON}, []string{workerJSON, plain})
	plan := func(b *builder, arg string) string {
		t.Helper()
		s := b.session(t)
		p, err := PlanAt(s, inputs(ws), Operation{Kind: OpUsePreset, Arg: arg}, seq())
		if err != nil || p.Refusal != nil {
			t.Fatal(err, p.Refusal)
		}
		return CacheNotice(s, p, inputs(ws))
	}
	b := newBuilder()
	b.custom(capability.PresetStateEntryType, mustObj(`{"activeStackId":"project:read-first-worker"}`))
	b.message("system", systemMessage("read", "bash", "edit", "write"))
	b.message("user", `"content":"hi","timestamp":1`)
	if got := plan(b, "plain"); got != compile.CacheEstimateUnavailable {
		t.Errorf("no request yet: %q", got)
	}
	b.message("assistant", strings.Replace(assistant("anthropic", "claude-opus-4-8"), `"cacheRead":0,"cacheWrite":0`, `"cacheRead":1200,"cacheWrite":30`, 1))
	got := plan(b, "plain")
	if !strings.HasPrefix(got, "Switching ") || got == compile.CacheEstimateUnavailable || !strings.HasSuffix(got, " Last request read ~1200 tokens from cache.") {
		t.Errorf("after a request: %q", got)
	}
	if got := plan(b, "read-first-worker"); got != "" {
		t.Errorf("same Preset: %q", got)
	}
	// read-first-worker has no items: it compiles to Pi's base prompt, so
	// switching Presets off changes nothing pi-forge would warn about.
	if got := plan(b, "none"); got != "" {
		t.Errorf("off, same prompt: %q", got)
	}
	b.custom(capability.PresetStateEntryType, mustObj(`{"activeStackId":"project:plain"}`))
	if got := plan(b, "read-first-worker"); got != compile.CacheEstimateUnavailable {
		t.Errorf("selected after the last request: %q", got)
	}
	b.message("assistant", assistant("anthropic", "claude-opus-4-8"))
	if got := plan(b, "none"); !strings.HasPrefix(got, "Switching ") || got == compile.CacheEstimateUnavailable || !strings.HasSuffix(got, " Last request read ~0 tokens from cache.") {
		t.Errorf("off after a request with plain (the model reported cache earlier): %q", got)
	}
}
