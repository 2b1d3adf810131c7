package turndiff

import (
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

const draftBase = `{"schemaVersion":1,"id":"demo","items":[
 {"kind":"block","id":"intro","name":"Intro","role":"system","content":"You are terse."},
 {"kind":"slot","id":"tools","role":"system","slot":"tools"},
 {"kind":"block","id":"rules","role":"system","content":"Never guess."},
 {"kind":"slot","id":"chat-history","slot":"chat-history"},
 {"kind":"block","id":"nudge","role":"user","content":"Answer in one line."}
]}`

func parseStack(t *testing.T, src string) *preset.Stack {
	t.Helper()
	s, diags := preset.Parse([]byte(src), "demo.json")
	if diags.HasErrors() {
		t.Fatalf("%+v", diags)
	}
	return s
}

func previewOf(t *testing.T, s *preset.Stack) *compile.PreviewResult {
	t.Helper()
	rt := compile.DefaultRuntime(compile.DefaultRuntimeInput{Cwd: "/work/demo", Now: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)})
	hist, err := jsonv.Parse([]byte(`[{"role":"user","content":"hi","timestamp":1},{"role":"assistant","content":[{"type":"text","text":"hello"}],"timestamp":2},{"role":"user","content":"hi","timestamp":3}]`))
	if err != nil {
		t.Fatal(err)
	}
	pv := compile.Preview(s, rt, "BASE", hist.([]any), nil)
	return &pv
}

func TestPreviewTurnKeys(t *testing.T) {
	s := parseStack(t, draftBase)
	a := PreviewTurn(previewOf(t, s), s.ID, "saved")
	var keys []string
	for _, b := range a.Turn.Blocks {
		keys = append(keys, b.Key)
	}
	got := strings.Join(keys, " ")
	// Repeated history messages get :2; keys follow previewMessageDiffKey.
	h := func(role, text string) string { return HashText(role + "\x00" + text) }
	want := "system chat-history:chat-history:" + h("user", "hi") + ":1 chat-history:chat-history:" + h("assistant", "hello") +
		":1 chat-history:chat-history:" + h("user", "hi") + ":2 stack-item:nudge:1"
	if got != want {
		t.Errorf("keys\n got %s\nwant %s", got, want)
	}
	if a.Turn.Blocks[0].Role != "" || a.Turn.Blocks[0].Hash != NewBlock("system", "", a.Turn.Blocks[0].Text).Hash {
		t.Errorf("system block %+v", a.Turn.Blocks[0])
	}
	if o, ok := a.OriginAt("system", 3); !ok || o.ItemID != "intro" {
		t.Errorf("offset 3 of the system prompt comes from %+v", o)
	}
}

func TestDraftDiffCause(t *testing.T) {
	saved := parseStack(t, draftBase)
	for _, tc := range []struct {
		name, from, to, kind, item, rule string
		changed                          int
	}{
		{"edit a system item", `Never guess.`, `Never guess. Cite files.`, CausePresetItem, "rules", "", 1},
		{"edit a message item", `Answer in one line.`, `Answer briefly.`, CausePresetItem, "nudge", "", 1},
		{"disable an item", `"id":"intro","name":"Intro",`, `"id":"intro","name":"Intro","enabled":false,`, CausePresetItem, "intro", "", 1},
		{"add a regex rule", `]}`, `],"regex":{"rules":[{"id":"shout","stage":"compiled","pattern":"terse","replace":"TERSE"}]}}`, CauseRegex, "", "shout", 1},
		{"no change", `x-never-there`, `y`, "", "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			draft := parseStack(t, strings.Replace(draftBase, tc.from, tc.to, 1))
			_, _, d, cause := DraftDiff(saved, draft, previewOf(t, saved), previewOf(t, draft))
			if d.Summary.ChangedBlocks != tc.changed {
				t.Fatalf("changed %d, want %d: %+v", d.Summary.ChangedBlocks, tc.changed, d.Summary)
			}
			if tc.kind == "" {
				if cause != nil {
					t.Fatalf("cause %+v for no change", cause)
				}
				return
			}
			if cause == nil || cause.Kind != tc.kind || cause.ItemID != tc.item || cause.RuleID != tc.rule || cause.PresetID != "demo" {
				t.Fatalf("cause %+v, want %s item %q rule %q", cause, tc.kind, tc.item, tc.rule)
			}
		})
	}
}

func TestPresetChanges(t *testing.T) {
	a := parseStack(t, draftBase)
	b := parseStack(t, strings.Replace(strings.Replace(draftBase, `"id":"rules"`, `"id":"rules2"`, 1), `"schemaVersion":1,`, `"schemaVersion":1,"mode":"append",`, 1))
	c := PresetChanges(a, b)
	if strings.Join(c.Items, ",") != "rules2,rules" || strings.Join(c.Other, ",") != "mode" || len(c.RegexRules) != 0 {
		t.Errorf("%+v", c)
	}
}

// TestPreviewTurnLeavesOutMarkers: a capability delivery marker in the
// history (the preview compiles from materialized messages) is no block.
func TestPreviewTurnLeavesOutMarkers(t *testing.T) {
	s := parseStack(t, draftBase)
	rt := compile.DefaultRuntime(compile.DefaultRuntimeInput{Cwd: "/work/demo", Now: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)})
	hist, err := jsonv.Parse([]byte(`[{"role":"user","content":"hi","timestamp":1},{"role":"custom","customType":"pi-forge-capability-delivery","content":[],"display":false,"details":{"schemaVersion":1,"throughEventId":"e1"},"timestamp":2}]`))
	if err != nil {
		t.Fatal(err)
	}
	pv := compile.Preview(s, rt, "BASE", hist.([]any), nil)
	a := PreviewTurn(&pv, s.ID, "saved")
	for _, b := range a.Turn.Blocks {
		if b.Role == "custom" {
			t.Errorf("marker block %s", b.Key)
		}
	}
	if len(a.Turn.Blocks) != 3 {
		t.Errorf("%d blocks", len(a.Turn.Blocks))
	}
}
