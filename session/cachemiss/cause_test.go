package cachemiss

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/session/replay"
)

// genSession builds a session of two requests to claude-sonnet-4-5: the
// first writes 6,000 tokens to the cache, the second reads nothing of them
// gapMs later; between them come the lines of between (entries whose
// parent is "u2", the second request's parent is the last of them).
func genSession(gapMs int64, firstUsage, secondExtra string, between ...string) string {
	const t0 = int64(1795000000000)
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"01a20000-0000-7000-8000-000000000001","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/home/dev/gen"}` + "\n")
	b.WriteString(`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-11-20T09:00:00.000Z","message":{"role":"user","content":"hello","timestamp":1795000000000}}` + "\n")
	fmt.Fprintf(&b, `{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":%s,"stopReason":"stop","timestamp":%d}}`+"\n", firstUsage, t0)
	b.WriteString(`{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"user","content":"more","timestamp":1795000002000}}` + "\n")
	parent := "u2"
	for _, l := range between {
		b.WriteString(l + "\n")
		parent = l[strings.Index(l, `"id":"`)+6:]
		parent = parent[:strings.IndexByte(parent, '"')]
	}
	model := "claude-sonnet-4-5"
	if strings.Contains(secondExtra, "MODEL:") {
		model = strings.TrimPrefix(secondExtra, "MODEL:")
		secondExtra = ""
	}
	fmt.Fprintf(&b, `{"type":"message","id":"a2","parentId":%q,"timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":%q,"usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6500,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.024375,"total":0.02448}},"stopReason":"stop"%s,"timestamp":%d}}`+"\n", parent, model, secondExtra, t0+gapMs)
	return b.String()
}

// genSessionWithSystem is genSession whose first request's context starts
// with a system message (preamble and cwd sections).
func genSessionWithSystem(gapMs int64, between ...string) string {
	f := genSession(gapMs, shortWrite, "", between...)
	sys := `{"type":"message","id":"sys1","parentId":null,"timestamp":"2026-11-20T08:59:59.000Z","message":{"role":"system","content":"","sections":{"preamble":"You are careful.","cwd":"<cwd>\n/home/dev/gen\n</cwd>"},"timestamp":1794999999000}}` + "\n"
	f = strings.Replace(f, `{"type":"message","id":"u1","parentId":null`, sys+`{"type":"message","id":"u1","parentId":"sys1"`, 1)
	return f
}

const (
	shortWrite = `{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.0225,"total":0.0226}}`
	longWrite  = `{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cacheWrite1h":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.036,"total":0.0361}}`
)

// TestCauseKinds pins the cause of each kind a generated session can show
// without pi-forge's entries (those are pinned on the demo below).
func TestCauseKinds(t *testing.T) {
	cases := []struct {
		name string
		file string
		kind string
		ref  string
		also []string
	}{
		{"idle past 5 min", genSession(6*60*1000, shortWrite, ""), KindIdle, "", nil},
		{"not idle at 4 min", genSession(4*60*1000, shortWrite, ""), KindProvider, "", nil},
		{"long retention not idle at 30 min", genSession(30*60*1000, longWrite, ""), KindProvider, "", nil},
		{"long retention idle past 1 h", genSession(61*60*1000, longWrite, ""), KindIdle, "", nil},
		{"provider thread fallback", genSession(60*1000, shortWrite, `,"diagnostics":[{"type":"anthropic_thread_fallback"}]`), KindProvider, "", nil},
		{"model switched", genSession(60*1000, shortWrite, "MODEL:claude-opus-4-1",
			`{"type":"model_change","id":"mc","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","provider":"anthropic","modelId":"claude-opus-4-1"}`), KindModel, "", nil},
		{"thinking level", genSession(60*1000, shortWrite, "",
			`{"type":"thinking_level_change","id":"tl","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","thinkingLevel":"high"}`), KindThinking, "tl", nil},
		{"context edit", genSession(60*1000, shortWrite, "",
			`{"type":"context_edit","id":"ce","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","targetId":"u1","replacement":{"content":"HELLO, rewritten"}}`), KindHistoryEdit, "ce", nil},
		{"branch navigation", genSession(60*1000, shortWrite, "",
			`{"type":"message","id":"b1","parentId":"u1","timestamp":"2026-11-20T09:00:03.000Z","message":{"role":"user","content":"instead","timestamp":1795000003000}}`), KindHistoryEdit, "u1", nil},
		{"tools declared", genSession(60*1000, shortWrite, "",
			`{"type":"message","id":"sys","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","message":{"role":"system","content":"","toolsAdded":[{"name":"bash","description":"Run a command.","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}],"timestamp":1795000003000}}`), KindTools, "sys", nil},
		{"system section", genSessionWithSystem(60*1000,
			`{"type":"message","id":"sys2","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","message":{"role":"system","content":"","sections":{"preamble":"You are terse.","cwd":"<cwd>\n/home/dev/gen\n</cwd>"},"timestamp":1795000003000}}`), KindSystem, "preamble", nil},
		{"unknown: the previous request cannot be rebuilt", genSession(60*1000, shortWrite, "",
			`{"type":"usage","id":"warm","parentId":"zz-not-here","timestamp":"2026-11-20T09:00:03.000Z","kind":"cache_warm","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":0,"cacheRead":0,"cacheWrite":6000}}`), KindUnknown, "", nil},
		{"context edit after idle", genSession(10*60*1000, shortWrite, "",
			`{"type":"context_edit","id":"ce","parentId":"u2","timestamp":"2026-11-20T09:00:03.000Z","targetId":"u1","replacement":{"content":"HELLO, rewritten"}}`), KindHistoryEdit, "ce", []string{KindIdle}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := session.Read(bytes.NewReader([]byte(c.file)), session.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cat := catalog.Default()
			misses := Detect(s, nil, cat).Misses
			if len(misses) != 1 || misses[0].EntryID != "a2" {
				t.Fatalf("misses %+v", misses)
			}
			got := Explain(s, misses, replay.RequestOptions{Catalog: cat})[0]
			if got.Kind != c.kind || got.Ref != c.ref || fmt.Sprint(got.Also) != fmt.Sprint(c.also) {
				t.Fatalf("cause %s ref %q also %v (%s), want %s ref %q also %v", got.Kind, got.Ref, got.Also, got.Detail, c.kind, c.ref, c.also)
			}
			if got.Detail == "" || strings.Contains(got.Detail, "\n") {
				t.Fatalf("detail %q", got.Detail)
			}
		})
	}
}

// TestDemoCauses pins the causes on the demo's sessions, where pi-forge's
// capability activations produce breaks.
func TestDemoCauses(t *testing.T) {
	matches, _ := filepath.Glob("../../resources/demo/workspace/home/.pi/agent/sessions/*/*_01a2219b-7aa3-71cb-a60b-a97d171ea8a4.jsonl")
	if len(matches) != 1 {
		t.Fatalf("demo session not found: %v", matches)
	}
	s, err := session.Open(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.Default()
	misses := Detect(s, nil, cat).Misses
	causes := Explain(s, misses, replay.RequestOptions{Catalog: cat})
	want := []struct{ entry, kind, ref string }{
		// The Preset switched in the same gap: its initial tools replaced
		// Pi's (request-tools is the first changed block), so it decides.
		{"403c879a", KindPreset, "project:guarded-worker"},
		{"67b7d815", KindCapability, "project:write-access"},
	}
	if len(causes) != len(want) {
		t.Fatalf("%d causes, want %d", len(causes), len(want))
	}
	for i, w := range want {
		c := causes[i]
		if !strings.HasPrefix(misses[i].EntryID, w.entry) || c.Kind != w.kind || c.Ref != w.ref || !strings.Contains(c.Line(), "activ") {
			t.Errorf("%s: %s ref %q (%s), want %s at %s ref %q", misses[i].EntryID, c.Kind, c.Ref, c.Detail, w.kind, w.entry, w.ref)
		}
	}
}

// TestKindsFromDiffCauses pins how each cause the diff names maps to the
// report's kind and ref (the kinds pi-forge's entries produce: Preset
// items, regex rules, Presets, capabilities, system prompts).
func TestKindsFromDiffCauses(t *testing.T) {
	cases := []struct {
		in        turndiff.Cause
		kind, ref string
	}{
		{turndiff.Cause{Kind: turndiff.CausePresetItem, PresetID: "review", ItemID: "rules"}, KindSystem, "review/rules"},
		{turndiff.Cause{Kind: turndiff.CauseRegex, RuleID: "strip-dates"}, KindRegex, "strip-dates"},
		{turndiff.Cause{Kind: turndiff.CauseCapability, CapabilityID: "global:x", EntryID: "e1"}, KindCapability, "global:x"},
		{turndiff.Cause{Kind: turndiff.CauseTools, EntryID: "sys"}, KindTools, "sys"},
		{turndiff.Cause{Kind: turndiff.CauseModel}, KindModel, ""},
		{turndiff.Cause{Kind: turndiff.CausePreset, PresetID: "fast"}, KindPreset, "fast"},
		{turndiff.Cause{Kind: turndiff.CauseSystemPrompt, Block: "system"}, KindSystem, "system"},
		{turndiff.Cause{Kind: turndiff.CauseContextEdit, EntryID: "ce"}, KindHistoryEdit, "ce"},
		{turndiff.Cause{Kind: turndiff.CauseBranch}, KindHistoryEdit, ""},
		{turndiff.Cause{Kind: turndiff.CauseCompaction, EntryID: "c"}, KindHistoryEdit, "c"},
	}
	for _, c := range cases {
		got := fromTurnCause(&c.in)
		if got.Kind != c.kind || got.Ref != c.ref {
			t.Errorf("%s → %s ref %q, want %s ref %q", c.in.Kind, got.Kind, got.Ref, c.kind, c.ref)
		}
	}
}
