package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// genForgeSession writes a session of two requests to claude-sonnet-4-5 in
// the demo's project (the lines of before sit between the system prompt
// and the first user message): the first writes 6,000 tokens to the cache, the
// second, a minute later, reads none of them; the lines of between sit
// after the first answer (each a child of the one before; "PARENT" stands
// for the previous entry's id).
func genForgeSession(t *testing.T, name string, before []string, between ...string) string {
	t.Helper()
	lines := []string{
		`{"type":"session","version":3,"id":"01a30000-0000-7000-8000-0000000000` + name[:2] + `","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/tmp/gen"}`,
		`{"type":"model_change","id":"mc","parentId":null,"timestamp":"2026-11-20T09:00:00.001Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}`,
		`{"type":"message","id":"sys1","parentId":"mc","timestamp":"2026-11-20T09:00:00.002Z","message":{"role":"system","content":"","sections":{"preamble":"You are careful.","cwd":"<cwd>\n/tmp/gen\n</cwd>"},"toolsAdded":[{"name":"read","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}],"timestamp":1795000000002}}`,
	}
	first, userText := "sys1", "hello"
	for k, l := range before {
		if l == "KEY" {
			userText = "my key is sk-abcdefgh12345678"
			continue
		}
		id := "p" + string(rune('0'+k))
		l = strings.Replace(l, `"ID"`, `"`+id+`"`, 1)
		l = strings.Replace(l, `"PARENT"`, `"`+first+`"`, 1)
		lines = append(lines, l)
		first = id
	}
	lines = append(lines,
		`{"type":"message","id":"u1","parentId":"`+first+`","timestamp":"2026-11-20T09:00:00.100Z","message":{"role":"user","content":"`+userText+`","timestamp":1795000000100}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.0225,"total":0.0226}},"stopReason":"stop","timestamp":1795000001000}}`)
	parent := "a1"
	for k, l := range between {
		id := "b" + string(rune('0'+k))
		l = strings.Replace(l, `"ID"`, `"`+id+`"`, 1)
		l = strings.Replace(l, `"PARENT"`, `"`+parent+`"`, 1)
		lines = append(lines, l)
		parent = id
	}
	lines = append(lines,
		`{"type":"message","id":"u2","parentId":"`+parent+`","timestamp":"2026-11-20T09:00:02.100Z","message":{"role":"user","content":"more","timestamp":1795000002100}}`,
		`{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-11-20T09:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6500,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.024375,"total":0.02448}},"stopReason":"stop","timestamp":1795000060000}}`)
	path := filepath.Join(t.TempDir(), name+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const (
	presetState  = `{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:guarded-worker"},"id":"ID","parentId":"PARENT","timestamp":"2026-11-20T09:00:02.000Z"}`
	plainEnglish = `{"type":"custom","customType":"pi-forge-capability-event","data":{"schemaVersion":1,"eventId":"0f0e0d0c-0000-4000-8000-000000000001","op":"activate","actor":"user","createdAt":1795000002000,"snapshot":{"activationId":"0f0e0d0c-0000-4000-8000-000000000002","source":{"kind":"capability","key":{"scope":"global","id":"plain-english"}},"name":"Plain English","content":"Explain results in plain English first, then give the technical detail. Prefer short sentences and concrete numbers.","tools":{"add":[],"remove":[]},"fingerprint":"sha256:v1:093e65e2d5d6275b914e7ed2feb145d50cc13707be6500e95189c90394e95c60"}},"id":"ID","parentId":"PARENT","timestamp":"2026-11-20T09:00:02.000Z"}`
	delivered    = `{"type":"custom","customType":"pi-forge-capability-delivery","data":{"schemaVersion":1,"throughEventId":"0f0e0d0c-0000-4000-8000-000000000001"},"id":"ID","parentId":"PARENT","timestamp":"2026-11-20T09:00:02.001Z"}`
)

// TestCacheReportCausesWithForge pins the causes pi-forge's entries give,
// on generated sessions read with the demo's library (its Presets and
// capabilities rewrite the requests as pi-forge did): a Preset switched,
// a capability activated; and, through the CLI, the kinds the entries
// alone decide.
func TestCacheReportCausesWithForge(t *testing.T) {
	cases := []struct {
		name      string
		before    []string
		between   []string
		kind, ref string
	}{
		// Only messages appended, but under a Preset: pi-forge's rewrite
		// moved the trailing Working Agreement item behind them (this was
		// "provider" while appended messages were taken as proof that the
		// prefix held). The key in the first message is masked by the
		// Preset's regex rule in both requests alike: no cause.
		{"Preset item under a Preset, messages appended", []string{presetState, "KEY"}, nil, "system", "project:guarded-worker/working-agreement"},
		{"preset switched", nil, []string{presetState}, "preset", "project:guarded-worker"},
		// Under guarded-worker the capability update goes after the last
		// message (a user update), but the Preset's trailing Working
		// Agreement item moves behind the new messages: that item is what
		// the cache lost.
		{"capability activated under a Preset", []string{presetState}, []string{plainEnglish, delivered}, "system", "project:guarded-worker/working-agreement"},
		// Without a Preset pi-forge delivers the capability after the
		// last message: the prefix held, so the capability is no cause.
		{"capability activated without a Preset", nil, []string{plainEnglish, delivered}, "provider", ""},
		{"Preset switched and capability activated", nil, []string{presetState, plainEnglish, delivered}, "preset", "project:guarded-worker"},
		{"thinking level", nil, []string{`{"type":"thinking_level_change","id":"ID","parentId":"PARENT","timestamp":"2026-11-20T09:00:02.000Z","thinkingLevel":"high"}`}, "thinking", "b0"},
		{"system section", nil, []string{`{"type":"message","id":"ID","parentId":"PARENT","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"system","content":"","sections":{"preamble":"You are terse.","cwd":"<cwd>\n/tmp/gen\n</cwd>"},"timestamp":1795000002000}}`}, "system", "preamble"},
		{"context edit", nil, []string{`{"type":"context_edit","id":"ID","parentId":"PARENT","timestamp":"2026-11-20T09:00:02.000Z","targetId":"u1","replacement":{"content":"HELLO"}}`}, "history-edit", "b0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := genForgeSession(t, strings.ReplaceAll(c.name, " ", "-"), c.before, c.between...)
			code, out, errOut := runCLI(t, "--demo", "cache", "report", "--json", file)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var doc struct {
				Breaks []struct {
					EntryID string `json:"entryId"`
					Cause   struct {
						Kind   string  `json:"kind"`
						Detail string  `json:"detail"`
						Ref    *string `json:"ref"`
					} `json:"cause"`
				} `json:"breaks"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Breaks) != 1 || doc.Breaks[0].EntryID != "a2" {
				t.Fatalf("breaks %+v", doc.Breaks)
			}
			got := doc.Breaks[0].Cause
			ref := ""
			if got.Ref != nil {
				ref = *got.Ref
			}
			if got.Kind != c.kind || ref != c.ref {
				t.Fatalf("cause %s ref %q (%s), want %s ref %q", got.Kind, ref, got.Detail, c.kind, c.ref)
			}
		})
	}
}
