package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/compile"
)

// TestPresetUseShowsPiForgesCacheNotice: preset use follows pi-forge's
// message with its prompt-cache notice (src/prompt-cache-warning.ts,
// pi-forge 0.5.4), on standard error and as cacheWarning in --json; the
// demo's main session has requests after its Preset was chosen, so the
// switch is estimated. Switching to the Preset in force says nothing.
func TestPresetUseShowsPiForgesCacheNotice(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	code, out, errOut := runCLI(t, in(args, "preset", "use", "pi-mirror", "--session", file, "--dry-run")...)
	// The demo's dates follow the day it is unpacked, so the counts vary
	// by a token; the wording and the last request's cache read do not.
	want := regexp.MustCompile(`(^|\n)pi-forge: Switching will change the system prompt\. Common prefix with current prompt: ~3 tokens \(1%\)\. The remaining ~\d+ tokens of history will be re-processed\. Last request read ~4600 tokens from cache\.\n$`)
	if code != exitOK || !want.MatchString(errOut) || strings.Contains(errOut, compile.CacheEstimateUnavailable) ||
		!strings.HasPrefix(out, "pi-forge: active prompt stack pi-mirror\n") {
		t.Fatalf("dry run: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCLI(t, in(args, "preset", "use", "pi-mirror", "--session", file, "--dry-run", "--json")...)
	if code != exitOK || !strings.Contains(out, `"cacheWarning":"Switching will change the system prompt.`) {
		t.Fatalf("json: %d %s", code, out)
	}
	if code, _, errOut := runCLI(t, in(args, "preset", "use", "pi-mirror", "--session", file)...); code != exitOK || !strings.Contains(errOut, "pi-forge: Switching ") {
		t.Fatalf("use: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, in(args, "preset", "use", "pi-mirror", "--session", file, "--force")...); code != exitOK || strings.Contains(errOut, "Switching") {
		t.Fatalf("the Preset in force again: %d %s", code, errOut)
	}
}
