package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clockStack is a global Preset whose system prompt shows the time to the
// minute (the date slot with includeTime); with rule set, a compiled-stage
// regex rule rewrites a word of the system prompt.
func clockStack(rule bool) string {
	regex := ""
	if rule {
		regex = `"regex":{"schemaVersion":1,"rules":[{"id":"house-style","name":"House style","enabled":true,"stage":"compiled","targets":["system"],"pattern":"careful","flags":"g","replace":"meticulous"}]},`
	}
	return `{"schemaVersion":2,"type":"pi-forge.prompt-stack","id":"clock","name":"Clock","mode":"replace",` + regex + `
"items":[{"kind":"block","id":"role","name":"Role","enabled":true,"role":"system","content":"You are careful."},
{"kind":"slot","id":"clock","name":"Clock","enabled":true,"role":"system","slot":"date","options":{"includeTime":true}},
{"kind":"slot","id":"chat-history","name":"Conversation","enabled":true,"slot":"chat-history"}]}`
}

// TestCacheReportRegexCause pins the cause the report gives when a regex
// rule rewrote the system prompt: a generated session under a global
// Preset whose clock slot moves a minute between two requests (09:00:01,
// 09:01:00: another minute in every time zone). With the rule, the whole
// compiled prompt is the rule's text, so the first changed character is
// the regex rules'; without it, the clock item is named. The report's
// causes go through cachemiss.Explain with the CLI's Forge hook.
func TestCacheReportRegexCause(t *testing.T) {
	cases := []struct {
		name         string
		rule         bool
		kind, detail string
		ref          any
	}{
		{"system prompt rewritten by a regex rule", true, "regex", "regex rules rewrote the system prompt", nil},
		{"without the rule the item decides", false, "system", "", "global:clock/clock"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forge := t.TempDir()
			if err := os.MkdirAll(filepath.Join(forge, "prompt-stacks"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(forge, "prompt-stacks", "clock.json"), []byte(clockStack(c.rule)), 0o600); err != nil {
				t.Fatal(err)
			}
			lines := []string{
				`{"type":"session","version":3,"id":"01a30000-0000-7000-8000-0000000000rx","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/tmp/gen"}`,
				`{"type":"model_change","id":"mc","parentId":null,"timestamp":"2026-11-20T09:00:00.001Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}`,
				`{"type":"message","id":"sys1","parentId":"mc","timestamp":"2026-11-20T09:00:00.002Z","message":{"role":"system","content":"","sections":{"preamble":"You are careful."},"timestamp":1795000000002}}`,
				`{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"global:clock"},"id":"ps","parentId":"sys1","timestamp":"2026-11-20T09:00:00.003Z"}`,
				`{"type":"message","id":"u1","parentId":"ps","timestamp":"2026-11-20T09:00:00.100Z","message":{"role":"user","content":"hello","timestamp":1795000000100}}`,
				`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.0225,"total":0.0226}},"stopReason":"stop","timestamp":1795000001000}}`,
				`{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-11-20T09:00:02.100Z","message":{"role":"user","content":"more","timestamp":1795000002100}}`,
				`{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-11-20T09:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6500,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.024375,"total":0.02448}},"stopReason":"stop","timestamp":1795000060000}}`,
			}
			path := filepath.Join(t.TempDir(), "rx.jsonl")
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, errOut := runCLI(t, "--cwd", t.TempDir(), "--agent-dir", t.TempDir(), "--forge-dir", forge, "cache", "report", "--json", path)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var doc struct {
				Breaks []struct {
					EntryID string         `json:"entryId"`
					Cause   map[string]any `json:"cause"`
				} `json:"breaks"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Breaks) != 1 || doc.Breaks[0].EntryID != "a2" {
				t.Fatalf("breaks %+v", doc.Breaks)
			}
			got := doc.Breaks[0].Cause
			if got["kind"] != c.kind || got["ref"] != c.ref || (c.detail != "" && got["detail"] != c.detail) {
				t.Fatalf("cause %v, want kind %s detail %q ref %v", got, c.kind, c.detail, c.ref)
			}
		})
	}
}
