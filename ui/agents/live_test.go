package agents

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestDashboardFollowsAGrowingTree: while an agent runs, the panel polls
// the tree's files in a command and reads the tree again when an agent's
// session or state.json changes, keeping the selection and the detail's
// scroll; the list keeps the run time it first showed while the detail's
// runs on for a running agent. A quiet tree is not polled.
func TestDashboardFollowsAGrowingTree(t *testing.T) {
	hs := newHarness(t, 160, 48)
	a, _ := hs.m.tree.Agent("/root/docs_check")
	if a.Status != "errored" || a.Summary.Stats.AssistantMessages != 2 || !strings.Contains(hs.view(), "run 56.6s") {
		t.Fatalf("demo agent %s %d:\n%s", a.Status, a.Summary.Stats.AssistantMessages, hs.view())
	}
	if fire[pollTickMsg](hs) != 0 {
		t.Fatal("a tree with no active run is polled")
	}
	// pi-subagent starts a follow-up run at 10:29:00 (runId); hs.now is
	// 10:30:00. r reads the tree again.
	setRecord(t, hs.m.tree.StateFile, "/root/docs_check", map[string]any{"status": "running", "runId": "01a221b3-79e0-7000-8000-000000000001"})
	hs.Press("r")
	gen := hs.m.gen
	if fire[pollTickMsg](hs) != 1 {
		t.Fatal("no poll scheduled for a tree with a running agent")
	}
	// Nothing changed: the next poll is scheduled, the tree stays.
	if hs.m.gen != gen || fire[pollTickMsg](hs) != 1 {
		t.Fatalf("an unchanged tree was read again or not polled again (gen %d → %d)", gen, hs.m.gen)
	}
	hs.m.detail.offset = 3
	// The agent answers.
	appendLines(t, a.File,
		`{"type":"message","id":"f0010001","parentId":"4bc1f58f","timestamp":"2026-11-28T10:29:00.500Z","message":{"role":"user","content":[{"type":"text","text":"Process the assigned agent tasks and messages below."}],"timestamp":1795861740500}}`,
		`{"type":"message","id":"f0010002","parentId":"f0010001","timestamp":"2026-11-28T10:29:30.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Retrying the check."}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":100,"output":10,"cacheRead":0,"cacheWrite":0,"totalTokens":110,"cost":{"input":0.0003,"output":0.00015,"cacheRead":0,"cacheWrite":0,"total":0.00045}},"stopReason":"stop","timestamp":1795861770000}}`)
	if fire[pollTickMsg](hs) != 1 || hs.m.gen != gen+1 || hs.m.loading {
		t.Fatalf("a grown session did not read the tree again (gen %d → %d)", gen, hs.m.gen)
	}
	a, _ = hs.m.tree.Agent("/root/docs_check")
	if a.Status != "running" || a.Summary.Stats.AssistantMessages != 3 {
		t.Fatalf("after the poll: %s, %d requests", a.Status, a.Summary.Stats.AssistantMessages)
	}
	if row, _ := hs.m.list.Selected(); row.path != "/root/docs_check" || hs.m.detail.offset != 3 {
		t.Errorf("the refresh moved the selection (%s) or the detail's scroll (%d)", row.path, hs.m.detail.offset)
	}
	row := hs.m.list.Shown(0)
	if row.status != "running" || row.counts != "3/1" || row.runtime != "1m56s" {
		t.Errorf("row after the refresh: status %q counts %q run %q (the list keeps the run time sampled at r)", row.status, row.counts, row.runtime)
	}
	// The detail counts the running run up to now: 56.6 s + 60 s, then
	// 10 s more at the next tick.
	hs.m.detail.offset = 0
	if v := hs.view(); !strings.Contains(v, "run 1m56s") {
		t.Errorf("detail run time of the running agent:\n%s", v)
	}
	hs.now = hs.now.Add(10 * time.Second)
	if fire[clockMsg](hs) != 1 || !strings.Contains(hs.view(), "run 2m06s") {
		t.Errorf("the run time does not tick:\n%s", hs.view())
	}
	// Another agent selected: it is not running, the clock stops.
	hs.Press("down")
	if fire[clockMsg](hs) != 1 || fire[clockMsg](hs) != 0 {
		t.Error("the clock keeps ticking for an agent that is not running")
	}
	// r samples the list's run times anew.
	hs.Press("r")
	if row := hs.m.list.Shown(0); row.runtime != "2m06s" {
		t.Errorf("r did not sample the run time again: %q", row.runtime)
	}
	// The run settles: the poll reads the tree, which is quiet again.
	setRecord(t, hs.m.tree.StateFile, "/root/docs_check", map[string]any{"status": "completed"})
	fire[pollTickMsg](hs) // the polls of the loads before r are stale
	if n := fire[pollTickMsg](hs); n != 0 || hs.m.list.Shown(0).status != "completed" {
		t.Errorf("the settled run was not read (status %q), or the quiet tree is still polled (%d polls)", hs.m.list.Shown(0).status, n)
	}
}

func TestWheelScrollsTheFocusedPane(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if hs.m.list.Cursor() != 2 {
		t.Errorf("wheel down on the list: cursor %d, want 2", hs.m.list.Cursor())
	}
	hs.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if hs.m.list.Cursor() != 0 {
		t.Errorf("wheel up on the list: cursor %d", hs.m.list.Cursor())
	}
	hs.m.FocusNext()
	hs.Send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if hs.m.detail.offset != 3 || hs.m.list.Cursor() != 0 {
		t.Errorf("wheel on the detail: offset %d, cursor %d", hs.m.detail.offset, hs.m.list.Cursor())
	}
	hs.m.FocusNext()
	hs.Press("down", "t")
	bottom := hs.m.tr.offset
	hs.Send(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if hs.m.tr.offset != bottom-3 || hs.m.tr.following {
		t.Errorf("wheel up in the transcript: offset %d → %d", bottom, hs.m.tr.offset)
	}
}

// setRecord changes fields of an agent record in state.json.
func setRecord(t *testing.T, stateFile, path string, fields map[string]any) {
	t.Helper()
	data, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	rec := st["agents"].(map[string]any)[path].(map[string]any)
	for k, v := range fields {
		rec[k] = v
	}
	out, _ := json.Marshal(st)
	if err := os.WriteFile(stateFile, append(out, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	bump(t, stateFile)
}

// appendLines appends JSONL lines to a session file.
func appendLines(t *testing.T, file string, lines ...string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
	bump(t, file)
}

// bump moves a file's mtime on, so a change shows even on a coarse clock.
func bump(t *testing.T, file string) {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	later := fi.ModTime().Add(2 * time.Second)
	if err := os.Chtimes(file, later, later); err != nil {
		t.Fatal(err)
	}
}
