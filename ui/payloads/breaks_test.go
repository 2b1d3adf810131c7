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

// breaksHarness is newHarness with the demo's sessions also where the
// project's sessions are listed from (the demo's own directory is named
// after the fixed project path, not the temporary one).
func breaksHarness(t *testing.T, w, h int) *harness {
	t.Helper()
	hs := newHarness(t, w, h, true, "")
	loc, err := hs.com.Services().Locations()
	if err != nil {
		t.Fatal(err)
	}
	dir := loc.DefaultSessionDir(hs.com.Workspace.Cwd, hs.com.Services().Home())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(hs.main), "*.jsonl"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return hs
}

// TestCacheViewIsTheProjectsReport: s shows the project's breaks as the
// cache report finds them, costliest first, with cause, ref and price.
func TestCacheViewIsTheProjectsReport(t *testing.T) {
	hs := breaksHarness(t, 160, 48)
	hs.Press("s")
	if hs.m.mode != modeBreaks || hs.m.brk.pending {
		t.Fatalf("mode %d pending %v", hs.m.mode, hs.m.brk.pending)
	}
	rows := hs.m.brk.list.Items()
	if len(rows) != 3 {
		t.Fatalf("%d rows, the demo project has 3 breaks: %s", len(rows), hs.m.brk.summary)
	}
	want := []struct{ kind, ref, cost string }{
		{"preset", "project:guarded-worker", "$0.0138"},
		{"provider", "", "$0.0099"},
		{"capability", "project:write-access", "$0.0037"},
	}
	for i, w := range want {
		if r := rows[i]; r.kind != w.kind || r.causeRef != w.ref || r.costText() != w.cost {
			t.Errorf("row %d: %s %q %s, want %s %q %s", i, r.kind, r.causeRef, r.costText(), w.kind, w.ref, w.cost)
		}
	}
	view := hs.view()
	for _, s := range []string{"project: 3 session(s)", "3 break(s)", "preset", "project:guarded-worker", "$0.0274 lost"} {
		if !strings.Contains(view, s) {
			t.Fatalf("%q missing:\n%s", s, view)
		}
	}
}

// TestCacheViewEnterComparesTheBreak: enter compares the break's previous
// request with its own, and the header marks the cause.
func TestCacheViewEnterComparesTheBreak(t *testing.T) {
	hs := breaksHarness(t, 160, 48)
	hs.Press("s", "j", "j", "enter")
	if hs.m.mode != modeDiff || hs.m.cmp == nil {
		t.Fatalf("mode %d, comparison %v (status %q)", hs.m.mode, hs.m.cmp != nil, hs.m.status)
	}
	if !strings.HasSuffix(hs.m.refs[0], "#403c879a") || !strings.HasSuffix(hs.m.refs[1], "#67b7d815") {
		t.Fatalf("refs %v", hs.m.refs)
	}
	view := hs.view()
	if !strings.Contains(view, "cache break: $0.0037 · 1,180 tokens lost · capability project:write-access") {
		t.Fatalf("the cause is not marked:\n%s", view)
	}
	// Another pair drops the mark.
	hs.Press("~")
	if strings.Contains(hs.view(), "cache break:") {
		t.Fatalf("the mark outlived its pair:\n%s", hs.view())
	}
}

// TestCacheViewFiltersByCause: / filters the rows by a cause's kind, ref
// or detail (the kinds that also apply included: the Preset switch lists
// the capabilities activated with it).
func TestCacheViewFiltersByCause(t *testing.T) {
	hs := breaksHarness(t, 160, 48)
	hs.Press("s", "/")
	hs.Type("capability")
	hs.Press("enter")
	if n := hs.m.brk.list.Len(); n != 2 {
		t.Fatalf("%d rows match capability, want 2", n)
	}
	hs.Press("j")
	if r, _ := hs.m.brk.list.Selected(); r.kind != "capability" {
		t.Fatalf("selected %+v", r)
	}
	hs.Press("/", "ctrl+u")
	hs.Type("provider")
	hs.Press("enter")
	if r, _ := hs.m.brk.list.Selected(); hs.m.brk.list.Len() != 1 || r.kind != "provider" {
		t.Fatalf("provider: %d rows, selected %+v", hs.m.brk.list.Len(), r)
	}
}

// TestWhatHasThisCost: a jump naming a ref ("what has this cost" from the
// Capabilities panel) shows the breaks that ref caused; esc shows all.
func TestWhatHasThisCost(t *testing.T) {
	hs := breaksHarness(t, 160, 48)
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: "project:write-access"}})
	if hs.m.mode != modeBreaks {
		t.Fatalf("mode %d", hs.m.mode)
	}
	rows := hs.m.brk.list.Items()
	if len(rows) != 1 || rows[0].causeRef != "project:write-access" {
		t.Fatalf("rows %+v", rows)
	}
	if !strings.Contains(hs.view(), "breaks caused by project:write-access") {
		t.Fatalf("the view does not say it is filtered:\n%s", hs.view())
	}
	// A Preset's breaks include its items' (ref preset/item).
	hs.Send(common.JumpMsg{Seq: 2, Target: common.JumpTarget{Panel: common.PanelPayloads, CacheBreaksOf: "project:guarded-worker"}})
	if rows := hs.m.brk.list.Items(); len(rows) != 1 || rows[0].kind != "preset" {
		t.Fatalf("rows %+v", rows)
	}
	hs.Press("esc")
	if n := len(hs.m.brk.list.Items()); n != 3 {
		t.Fatalf("esc: %d rows, want all 3", n)
	}
	// A jump elsewhere leaves the view alone.
	hs.Press("esc")
	hs.Send(common.JumpMsg{Seq: 3, Target: common.JumpTarget{Panel: common.PanelCapabilities, CapabilityID: "project:write-access"}})
	if hs.m.mode != modeDiff {
		t.Fatalf("mode %d after a jump to another panel", hs.m.mode)
	}
}

// TestGoldenCacheView snapshots the cache view and a break's comparison
// at 80x24 and 160x48.
func TestGoldenCacheView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		for _, tc := range []struct {
			name string
			keys []string
		}{
			{"cache_breaks", []string{"s"}},
			{"cache_break_diff", []string{"s", "enter"}},
		} {
			name := fmt.Sprintf("%s_%dx%d", tc.name, w, h)
			t.Run(name, func(t *testing.T) {
				hs := breaksHarness(t, w, h)
				hs.Press(tc.keys...)
				view := hs.m.View()
				uitest.AssertFills(t, view, w, h)
				uitest.Golden(t, name, view)
			})
		}
	}
}
