package payloads

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// itemBreakSession is a session of the demo project under the demo's
// guarded-worker Preset: two requests a minute apart that only append
// messages, the second reading nothing of the 6,000 tokens the first
// wrote. pi-forge's rewrite moves the Preset's trailing Working Agreement
// item behind the new messages, so the cache report blames that item
// (ref "project:guarded-worker/working-agreement").
const itemBreakSession = `{"type":"session","version":3,"id":"01a30000-0000-7000-8000-0000000000it","timestamp":"2026-11-20T09:00:00.000Z","cwd":"` + fakeProject + `"}
{"type":"model_change","id":"mc","parentId":null,"timestamp":"2026-11-20T09:00:00.001Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}
{"type":"message","id":"sys1","parentId":"mc","timestamp":"2026-11-20T09:00:00.002Z","message":{"role":"system","content":"","sections":{"preamble":"You are careful."},"toolsAdded":[{"name":"read","description":"Read a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}}}}],"timestamp":1795000000002}}
{"type":"custom","customType":"pi-forge-prompt-stack-state","data":{"activeStackId":"project:guarded-worker"},"id":"ps","parentId":"sys1","timestamp":"2026-11-20T09:00:00.003Z"}
{"type":"message","id":"u1","parentId":"ps","timestamp":"2026-11-20T09:00:00.100Z","message":{"role":"user","content":"hello","timestamp":1795000000100}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6000,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.0225,"total":0.0226}},"stopReason":"stop","timestamp":1795000001000}}
{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-11-20T09:00:02.100Z","message":{"role":"user","content":"more","timestamp":1795000002100}}
{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-11-20T09:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":6500,"cost":{"input":0.00003,"output":0.000075,"cacheRead":0,"cacheWrite":0.024375,"total":0.02448}},"stopReason":"stop","timestamp":1795000060000}}
`

// itemBreakHarness is breaksHarness with itemBreakSession among the
// project's sessions.
func itemBreakHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	hs := breaksHarness(t, w, h)
	loc, err := hs.com.Services().Locations()
	if err != nil {
		t.Fatal(err)
	}
	dir := loc.DefaultSessionDir(hs.com.Workspace.Cwd, hs.com.Services().Home())
	file := filepath.Join(dir, "2026-11-20T09-00-00-000Z_01a30000-0000-7000-8000-0000000000it.jsonl")
	if err := os.WriteFile(file, []byte(itemBreakSession), 0o644); err != nil {
		t.Fatal(err)
	}
	return hs
}

// TestWhatHasThisItemCost: "what has this cost" from a Preset item (the
// Presets panel's $ jumps with "preset/item") shows the breaks the item
// caused and only those; the Preset's own ref shows its switch too.
func TestWhatHasThisItemCost(t *testing.T) {
	hs := itemBreakHarness(t, 160, 48)
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: "project:guarded-worker/working-agreement"}})
	rows := hs.m.brk.list.Items()
	if len(rows) != 1 || rows[0].kind != "system" || rows[0].causeRef != "project:guarded-worker/working-agreement" {
		t.Fatalf("rows %+v (%s)", rows, hs.m.brk.summary)
	}
	if !strings.Contains(hs.view(), "breaks caused by project:guarded-worker/working-agreement") {
		t.Fatalf("the view does not say it is filtered:\n%s", hs.view())
	}
	hs.Send(common.JumpMsg{Seq: 2, Target: common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: "project:guarded-worker"}})
	if rows := hs.m.brk.list.Items(); len(rows) != 2 {
		t.Fatalf("the Preset's breaks: %+v", rows)
	}
	hs.Send(common.JumpMsg{Seq: 3, Target: common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: "project:guarded-worker/role"}})
	if rows := hs.m.brk.list.Items(); len(rows) != 0 || !strings.Contains(hs.view(), "no cache breaks") {
		t.Fatalf("an item that caused nothing: %+v\n%s", rows, hs.view())
	}
}

// TestGoldenItemCostView snapshots the cache view of one Preset item's
// breaks at 80x24 and 160x48.
func TestGoldenItemCostView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		name := fmt.Sprintf("item_cost_%dx%d", w, h)
		t.Run(name, func(t *testing.T) {
			hs := itemBreakHarness(t, w, h)
			hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: "project:guarded-worker/working-agreement"}})
			view := hs.m.View()
			uitest.AssertFills(t, view, w, h)
			uitest.Golden(t, name, view)
		})
	}
}
