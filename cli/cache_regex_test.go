package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// houseStyle is a compiled-stage regex rule over the system prompt.
const houseStyle = `{"id":"house-style","name":"House style","enabled":true,"stage":"compiled","targets":["system"],"pattern":"careful","flags":"g","replace":"meticulous"}`

// testStack is a global Preset: a role block, then (with clock) the date
// slot with includeTime, which shows the time to the minute, then the
// conversation; rules are its regex rules (none when empty).
func testStack(id string, clock bool, rules ...string) string {
	regex := ""
	if len(rules) > 0 {
		regex = `"regex":{"schemaVersion":1,"rules":[` + strings.Join(rules, ",") + `]},`
	}
	items := `{"kind":"block","id":"role","name":"Role","enabled":true,"role":"system","content":"You are careful."},`
	if clock {
		items += `{"kind":"slot","id":"clock","name":"Clock","enabled":true,"role":"system","slot":"date","options":{"includeTime":true}},`
	}
	items += `{"kind":"slot","id":"chat-history","name":"Conversation","enabled":true,"slot":"chat-history"}`
	return `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"` + id + `","name":"` + id + `","mode":"replace",` + regex + `
"items":[` + items + `]}`
}

// regexSession is a generated session of two requests 58 s apart (09:00:01,
// 09:01:00: another minute in every time zone) under the global Preset
// first; with second set, a switch to that Preset lies between them.
func regexSession(first, second string) string {
	state := func(id, entry, parent string) string {
		return `{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"global:` + id + `"},"id":"` + entry + `","parentId":"` + parent + `","timestamp":"2026-11-20T09:00:00.003Z"}`
	}
	lines := []string{
		`{"type":"session","version":3,"id":"01a30000-0000-7000-8000-0000000000rx","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/tmp/gen"}`,
		`{"type":"model_change","id":"mc","parentId":null,"timestamp":"2026-11-20T09:00:00.001Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}`,
		`{"type":"message","id":"sys1","parentId":"mc","timestamp":"2026-11-20T09:00:00.002Z","message":{"role":"system","content":"","sections":{"preamble":"You are careful."},"timestamp":1795000000002}}`,
		state(first, "ps", "sys1"),
		`{"type":"message","id":"u1","parentId":"ps","timestamp":"2026-11-20T09:00:00.100Z","message":{"role":"user","content":"hello","timestamp":1795000000100}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.0225,"total":0.0226}},"stopReason":"stop","timestamp":1795000001000}}`,
	}
	parent := "a1"
	if second != "" {
		lines = append(lines, strings.Replace(state(second, "ps2", "a1"), "09:00:00.003Z", "09:00:02.000Z", 1))
		parent = "ps2"
	}
	return strings.Join(append(lines,
		`{"type":"message","id":"u2","parentId":"`+parent+`","timestamp":"2026-11-20T09:00:02.100Z","message":{"role":"user","content":"more","timestamp":1795000002100}}`,
		`{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-11-20T09:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6500,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.024375,"total":0.02448}},"stopReason":"stop","timestamp":1795000060000}}`,
	), "\n") + "\n"
}

// TestCacheReportRegexCause pins the cause the report gives when a regex
// rule rewrote the system prompt. When the prompt before the rules changed
// (the clock item moved a minute), the first changed item decides, as
// without the rule, and regex is listed; when only the rules changed (a
// switch to a Preset with the same items and other rules), the rule that
// rewrote the prompt differently decides, named by <preset>/regex/<id>,
// and the switch is listed. The report's causes go through
// cachemiss.Explain with the CLI's Forge hook.
func TestCacheReportRegexCause(t *testing.T) {
	polish := `{"id":"polish","name":"Polish","stage":"compiled","pattern":"careful","replace":"thorough"}`
	quiet := `{"id":"quiet","stage":"compiled","pattern":"nowhere to be found","replace":"x"}`
	cases := []struct {
		name          string
		stacks        map[string]string
		first, second string
		kind, detail  string
		ref           any
	}{
		{"an item changed under a regex rule", map[string]string{"clock": testStack("clock", true, houseStyle)}, "clock", "",
			"system", "preset item Clock; also regex", "global:clock/clock"},
		{"without the rule the item decides", map[string]string{"clock": testStack("clock", true)}, "clock", "",
			"system", "preset item Clock", "global:clock/clock"},
		{"a switch to other rules", map[string]string{"a": testStack("a", false, houseStyle), "b": testStack("b", false, quiet, polish)}, "a", "b",
			"regex", "regex rule Polish rewrote the system prompt differently; also preset", "global:b/regex/polish"},
		{"a switch to no rules", map[string]string{"a": testStack("a", false, houseStyle), "c": testStack("c", false, quiet)}, "a", "c",
			"regex", "regex rule House style no longer rewrites the system prompt; also preset", "global:a/regex/house-style"},
		{"a switch to other items stays a switch", map[string]string{"a": testStack("a", false, houseStyle), "d": testStack("d", true, houseStyle)}, "a", "d",
			"preset", "preset global:d became active", "global:d"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forge := t.TempDir()
			if err := os.MkdirAll(filepath.Join(forge, "prompt-stacks"), 0o700); err != nil {
				t.Fatal(err)
			}
			for id, stack := range c.stacks {
				if err := os.WriteFile(filepath.Join(forge, "prompt-stacks", id+".json"), []byte(stack), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(t.TempDir(), "rx.jsonl")
			if err := os.WriteFile(path, []byte(regexSession(c.first, c.second)), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", forge, "cache", "report", "--json", path)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var doc struct {
				Breaks []struct {
					EntryID  string         `json:"entryId"`
					Previous string         `json:"previousEntryId"`
					Cause    map[string]any `json:"cause"`
				} `json:"breaks"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Breaks) != 1 || doc.Breaks[0].EntryID != "a2" {
				t.Fatalf("breaks %+v", doc.Breaks)
			}
			got := doc.Breaks[0].Cause
			if got["kind"] != c.kind || got["ref"] != c.ref || got["detail"] != c.detail {
				t.Fatalf("cause %v, want kind %s detail %q ref %v", got, c.kind, c.detail, c.ref)
			}
			// payload diff on the same two requests names the same cause
			// (replay.ExplainDiff decides for both).
			code, out, errOut = runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", forge, "payload", "diff",
				"session:"+path+"#"+doc.Breaks[0].Previous, "session:"+path+"#a2", "--json")
			if code != exitOK {
				t.Fatalf("payload diff: exit %d: %s", code, errOut)
			}
			var diff struct {
				Cause struct {
					Kind string `json:"kind"`
				} `json:"cause"`
			}
			if err := json.Unmarshal([]byte(out), &diff); err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"system": "preset-item", "regex": "regex", "preset": "preset"}[c.kind]; diff.Cause.Kind != want {
				t.Errorf("payload diff names %q, the report %s", diff.Cause.Kind, c.kind)
			}
		})
	}
}
