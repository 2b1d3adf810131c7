package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// nestedSession has tool results with pi-forge's forgeNestedUsage reports:
// a complete one, one without cache figures, a malformed one, one without
// Pi usage, and one on another branch.
var nestedSession = filepath.Join("..", "session", "stats", "testdata", "nested.jsonl")

// session stats shows the runs inside tool calls apart from the session
// model's requests, in the text and in --json's new "streams" key.
func TestSessionStatsShowsNestedRunsApart(t *testing.T) {
	env := []string{"--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", t.TempDir(), "session", "stats"}
	code, out, errOut := runCLI(t, in(env, nestedSession, "--leaf", "n10")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "\nmain and nested requests (nested: runs inside tool calls, from pi-forge's forgeNestedUsage)\n" +
		"  main     3 request(s) · in 150 · out 110 · cache read 3,700 · cache write 60 · $0.0160\n" +
		"  nested   2 call(s), 5 request(s) · in 1,700 · out 720 · cache read 7,200 · cache write 100 · $0.0200 (1 call(s) without a known cost)\n" +
		"           1 call(s) reported no cache figures (not counted)\n" +
		"           1 malformed report(s) ignored\n"
	if !strings.Contains(out, want) {
		t.Fatalf("branch stats lack the main/nested lines %q:\n%s", want, out)
	}
	code, out, errOut = runCLI(t, in(env, nestedSession, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v struct {
		Cost    map[string]float64            `json:"cost"`
		Streams map[string]map[string]float64 `json:"streams"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	main, nested := v.Streams["main"], v.Streams["nested"]
	if main["requests"] != 3 || main["cacheRead"] != 3700 || main["cost"] != 0.016 || main["unpriced"] != 0 {
		t.Errorf("streams.main = %v", main)
	}
	if nested["calls"] != 3 || nested["requests"] != 6 || nested["input"] != 1705 || nested["output"] != 726 ||
		nested["cacheRead"] != 7207 || nested["cacheWrite"] != 108 || nested["cost"] != 0.021 || nested["unpriced"] != 1 ||
		nested["cacheUnknownCalls"] != 1 || nested["invalidCalls"] != 1 {
		t.Errorf("streams.nested (whole file) = %v", nested)
	}
	if v.Cost["total"] != 0.037 {
		t.Errorf("cost.total %v, want Pi's 0.037 unchanged", v.Cost["total"])
	}
}

// A session whose tool calls reported no nested usage prints what it
// printed before; --json still has "streams", with no nested call.
func TestSessionStatsWithoutNestedRuns(t *testing.T) {
	env := []string{"--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", t.TempDir(), "session", "stats", td("session.jsonl")}
	code, out, _ := runCLI(t, env...)
	if code != exitOK || strings.Contains(out, "nested") {
		t.Fatalf("exit %d, a section for no nested runs:\n%s", code, out)
	}
	code, out, _ = runCLI(t, in(env, "--json")...)
	var v struct {
		Streams map[string]map[string]float64 `json:"streams"`
	}
	if err := json.Unmarshal([]byte(out), &v); code != exitOK || err != nil {
		t.Fatalf("exit %d %v", code, err)
	}
	if v.Streams["nested"]["calls"] != 0 || v.Streams["main"]["requests"] == 0 {
		t.Errorf("streams = %v", v.Streams)
	}
}
