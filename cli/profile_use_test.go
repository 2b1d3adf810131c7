package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/resources/demo"
)

// currencySession is the demo's "Currency formatting" session: Haiku at
// low thinking, the Preset switched off, no profile applied.
func currencySession(t *testing.T, layout demo.Layout) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(layout.SessionDir, "2026-11-27T16-02-41-907Z_*.jsonl"))
	if err != nil || len(m) != 1 {
		t.Fatalf("currency demo session: %v %v", m, err)
	}
	return m[0]
}

// tailEntries decodes the last n lines of a session file.
func tailEntries(t *testing.T, file string, n int) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var all []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		all = append(all, e)
	}
	if len(all) < n {
		t.Fatalf("%d entries, want at least %d", len(all), n)
	}
	return all[len(all)-n:]
}

func writeProfile(t *testing.T, layout demo.Layout, id, body string) {
	t.Helper()
	path := filepath.Join(layout.ProjectDir, ".pi", "forge", "agent-profiles", id+".json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestProfileUseAppliesTheProfileOffline: the entries /profile use leaves
// (Pi's model and thinking changes, the Preset selection, the provenance)
// through the guarded append; the dry run writes nothing; status then
// shows the profile applied without drift.
func TestProfileUseAppliesTheProfileOffline(t *testing.T) {
	args, layout := demoArgs(t)
	file := currencySession(t, layout)
	size := fileSize(t, file)
	code, out, errOut := runCLI(t, in(args, "profile", "use", "deep-review", "--session", file, "--dry-run")...)
	if code != exitOK || fileSize(t, file) != size {
		t.Fatalf("dry run: exit %d, size %d→%d: %s%s", code, size, fileSize(t, file), out, errOut)
	}
	for _, want := range []string{
		`{"type":"model_change","provider":"openai","modelId":"gpt-5.4"}`,
		`{"type":"thinking_level_change","thinkingLevel":"medium"}`, // Pi's setModel re-applies settings' defaultThinkingLevel
		`{"type":"thinking_level_change","thinkingLevel":"high"}`,
		`{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"global:quick-review"}}`,
		`"customType":"pi-forge-agent-profile-state","data":{"provenance":{"profileId":"deep-review","scope":"project"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %s:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, in(args, "profile", "use", "deep-review", "--session", file)...)
	if code != exitOK || strings.TrimSpace(out) != "pi-forge: applied profile deep-review once; later manual changes will be preserved." {
		t.Fatalf("use: exit %d: %s%s", code, out, errOut)
	}
	checkLoaderRules(t, file)
	got := tailEntries(t, file, 6)
	types := []string{}
	for _, e := range got {
		typ := e["type"].(string)
		if c, ok := e["customType"].(string); ok {
			typ = c
		}
		types = append(types, typ)
	}
	if strings.Join(types, " ") != "model_change thinking_level_change thinking_level_change pi-forge-prompt-stack-state pi-forge-capability-tools pi-forge-agent-profile-state" {
		t.Fatalf("appended %v", types)
	}
	prov := got[5]["data"].(map[string]any)["provenance"].(map[string]any)
	snap := prov["snapshot"].(map[string]any)
	if prov["sourcePath"] != filepath.Join(layout.ProjectDir, ".pi", "forge", "agent-profiles", "deep-review.json") ||
		!strings.HasPrefix(prov["sourceFingerprint"].(string), `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"deep-review"`) ||
		snap["thinkingLevel"] != "high" || snap["promptStack"] != "global:quick-review" {
		t.Fatalf("provenance %v", prov)
	}
	_, out, _ = runCLI(t, in(args, "profile", "status", "--session", file, "--json")...)
	var st struct {
		Current struct {
			Model, ThinkingLevel, PromptStack string
		}
		LastApplied struct {
			Profile, SourceState string
			Drift                map[string]struct{ Changed bool }
		}
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Current.Model != "openai/gpt-5.4" || st.Current.ThinkingLevel != "high" || st.Current.PromptStack != "global:quick-review" ||
		st.LastApplied.Profile != "project:deep-review" || st.LastApplied.SourceState != "unchanged" ||
		st.LastApplied.Drift["model"].Changed || st.LastApplied.Drift["thinkingLevel"].Changed || st.LastApplied.Drift["promptStack"].Changed {
		t.Fatalf("status after use: %s", out)
	}
	// Applying it again changes no runtime field but records the
	// application again, as pi-forge does.
	code, _, errOut = runCLI(t, in(args, "profile", "use", "deep-review", "--session", file, "--force")...)
	if code != exitOK {
		t.Fatalf("again: %s", errOut)
	}
	if last := tailEntries(t, file, 1)[0]; last["customType"] != "pi-forge-agent-profile-state" {
		t.Fatalf("again appended %v", last)
	}
	if e := tailEntries(t, file, 2)[0]; e["customType"] != "pi-forge-agent-profile-state" {
		t.Fatalf("again appended more than the provenance: %v", e)
	}
}

// TestProfileUsePreflightErrorWritesNothing: every finding of the
// transactional preflight is printed and nothing is appended (exit 1).
func TestProfileUsePreflightErrorWritesNothing(t *testing.T) {
	args, layout := demoArgs(t)
	t.Setenv("GEMINI_API_KEY", "")
	t.Setenv("GOOGLE_API_KEY", "")
	writeProfile(t, layout, "probe", `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"probe","model":{"provider":"google","id":"gemini-2.5-pro"},"thinkingLevel":"xhigh","promptStack":"broken-on-purpose"}`)
	writeProfile(t, layout, "ghost", `{"schemaVersion":1,"type":"pi-forge.agent-profile","id":"ghost","model":{"provider":"anthropic","id":"no-such-model"},"thinkingLevel":"low","promptStack":null}`)
	file := currencySession(t, layout)
	before, _ := os.ReadFile(file)
	code, out, errOut := runCLI(t, in(args, "profile", "use", "probe", "--session", file)...)
	for _, want := range []string{
		"pi-forge: profile probe failed preflight; runtime state was not changed.",
		"Model google/gemini-2.5-pro has no configured authentication.",
		"Model google/gemini-2.5-pro does not support thinking level xhigh; Pi would clamp it to high.",
		"Prompt stack broken-on-purpose: Duplicate item id: intro",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("missing %q in:\n%s", want, errOut)
		}
	}
	if code != exitFailed || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	code, _, errOut = runCLI(t, in(args, "profile", "use", "ghost", "--session", file)...)
	if code != exitFailed || !strings.Contains(errOut, "Unknown model: anthropic/no-such-model") {
		t.Fatalf("unknown model: %d %s", code, errOut)
	}
	code, _, errOut = runCLI(t, in(args, "profile", "use", "nobody", "--session", file)...)
	if code != exitUsage || !strings.Contains(errOut, "Unknown agent profile: nobody") {
		t.Fatalf("unknown profile: %d %s", code, errOut)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Fatal("a refused profile application wrote to the session")
	}
}

// TestProfileUseAndForgetRefusedWhereAppendsAre: an untrusted session
// project and a --leaf that is not the file's end write nothing.
func TestProfileUseAndForgetRefusedWhereAppendsAre(t *testing.T) {
	_, layout := demoArgs(t)
	_, fileB := otherProject(t, layout, true)
	before, _ := os.ReadFile(fileB)
	for _, argv := range [][]string{
		{"profile", "use", "deep-review", "--session", fileB},
		{"profile", "forget", "--session", fileB},
	} {
		code, out, errOut := runCLI(t, in(globalsOnly(layout), argv...)...)
		if code != exitRefused || !strings.Contains(strings.ToLower(errOut), "not trusted") {
			t.Errorf("%v: exit %d: %s%s", argv, code, out, errOut)
		}
	}
	if after, _ := os.ReadFile(fileB); !bytes.Equal(before, after) {
		t.Fatal("an untrusted project's session was written")
	}
	file := currencySession(t, layout)
	if code, _, _ := runCLI(t, in(globalsOnly(layout), "profile", "use", "deep-review", "--session", file, "--leaf", "00000000")...); code != exitConflict {
		t.Fatalf("stale --leaf: exit %d", code)
	}
}

// TestProfileForgetAppendsNullProvenance: forget appends {provenance:
// null} once; with nothing to forget it says so and writes nothing.
func TestProfileForgetAppendsNullProvenance(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	code, out, errOut := runCLI(t, in(args, "profile", "forget", "--session", file)...)
	if code != exitOK || strings.TrimSpace(out) != "pi-forge: forgot last-applied profile provenance; model, thinking level, and preset were not changed." {
		t.Fatalf("forget: %d %s%s", code, out, errOut)
	}
	last := tailEntries(t, file, 1)[0]
	if last["customType"] != "pi-forge-agent-profile-state" || last["data"].(map[string]any)["provenance"] != nil {
		t.Fatalf("appended %v", last)
	}
	if _, ok := last["data"].(map[string]any)["provenance"]; !ok {
		t.Fatal("provenance key missing")
	}
	size := fileSize(t, file)
	code, out, _ = runCLI(t, in(args, "profile", "forget", "--session", file, "--force")...)
	if code != exitOK || strings.TrimSpace(out) != "pi-forge: there is no last-applied profile provenance to forget." || fileSize(t, file) != size {
		t.Fatalf("second forget: %d %s", code, out)
	}
}

// TestProfileUseShowsPiForgesCacheNotice: profile use follows pi-forge's
// message with the prompt-cache notice /profile use shows when the
// profile switches the Preset (pi-forge 0.5.4, profile-command.ts: the
// active Preset against the profile's, as /preset use), on standard error
// and as cacheWarning in --json. The demo's main session has requests
// after Guarded Worker was chosen, so Deep Review's switch to Quick
// Review is estimated; TDD Worker keeps Guarded Worker and changes only
// the model, which says nothing; the currency session has no Preset
// active, so nothing compiled with one can be compared.
func TestProfileUseShowsPiForgesCacheNotice(t *testing.T) {
	args, layout := demoArgs(t)
	file := mainSession(t, layout)
	size := fileSize(t, file)
	code, out, errOut := runCLI(t, in(args, "profile", "use", "deep-review", "--session", file, "--dry-run")...)
	// The demo's dates follow the day it is unpacked, so the counts may
	// vary by a token; the wording and the last request's cache read do not.
	want := regexp.MustCompile(`(^|\n)pi-forge: Switching (will change|replaces) the system prompt[^\n]* Last request read ~\d+ tokens from cache\.\n$`)
	if code != exitOK || !want.MatchString(errOut) || strings.Contains(errOut, compile.CacheEstimateUnavailable) ||
		!strings.HasPrefix(out, "pi-forge: applied profile deep-review once; later manual changes will be preserved.\n") {
		t.Fatalf("dry run: %d\n%s\n%s", code, out, errOut)
	}
	notice := strings.TrimPrefix(want.FindString(errOut), "\n")
	code, out, _ = runCLI(t, in(args, "profile", "use", "deep-review", "--session", file, "--dry-run", "--json")...)
	var js struct {
		Message, CacheWarning string
		Written               bool
		Entries               []any
	}
	if err := json.Unmarshal([]byte(out), &js); code != exitOK || err != nil {
		t.Fatalf("json: %d %v %s", code, err, out)
	}
	if "pi-forge: "+js.CacheWarning+"\n" != notice || js.Written || len(js.Entries) == 0 ||
		!strings.HasPrefix(out, `{"message":"pi-forge: applied profile deep-review once; later manual changes will be preserved.","cacheWarning":"Switching `) {
		t.Fatalf("json: cacheWarning %q, want %q:\n%s", js.CacheWarning, notice, out)
	}
	if fileSize(t, file) != size {
		t.Fatal("a dry run wrote")
	}
	// A model change alone, the Preset kept: no notice, no key.
	code, out, errOut = runCLI(t, in(args, "profile", "use", "tdd-worker", "--session", file, "--dry-run", "--json")...)
	if code != exitOK || strings.Contains(out, "cacheWarning") || !strings.Contains(out, `"type":"model_change"`) || errOut != "" {
		t.Fatalf("tdd-worker: %d %s%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, in(args, "profile", "use", "tdd-worker", "--session", file, "--dry-run")...)
	if code != exitOK || strings.Contains(errOut, "Switching") {
		t.Fatalf("tdd-worker: %d %s", code, errOut)
	}
	// Applied: the notice follows; applied again, the Preset is in force.
	if code, _, errOut := runCLI(t, in(args, "profile", "use", "deep-review", "--session", file)...); code != exitOK || !strings.HasSuffix(errOut, notice) {
		t.Fatalf("use: %d %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, in(args, "profile", "use", "deep-review", "--session", file, "--force")...); code != exitOK || strings.Contains(errOut, "Switching") {
		t.Fatalf("again: %d %s", code, errOut)
	}
	code, _, errOut = runCLI(t, in(args, "profile", "use", "deep-review", "--session", currencySession(t, layout), "--dry-run")...)
	if code != exitOK || !strings.HasSuffix(errOut, "pi-forge: "+compile.CacheEstimateUnavailable+"\n") {
		t.Fatalf("currency: %d %s", code, errOut)
	}
}
