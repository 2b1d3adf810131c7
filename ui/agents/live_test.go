package agents

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestDashboardFollowsAGrowingTree: the panel polls the tree's files in a
// command (seldom while the tree is quiet, often while an agent runs) and
// reads the tree again when an agent's session or state.json changes,
// keeping the selection and the detail's scroll; the list keeps the run
// time it first showed while the detail's runs on for a running agent.
func TestDashboardFollowsAGrowingTree(t *testing.T) {
	hs := newHarness(t, 160, 20) // the detail is taller than its pane: it scrolls
	a, _ := hs.m.live.tree.Agent("/root/docs_check")
	if a.Status != "errored" || a.Summary.Stats.AssistantMessages != 2 || !strings.Contains(hs.view(), "run 56.6s") {
		t.Fatalf("demo agent %s %d:\n%s", a.Status, a.Summary.Stats.AssistantMessages, hs.view())
	}
	if n, after := scheduled[pollTickMsg](hs); n != 1 || after != quietPollInterval {
		t.Fatalf("a quiet tree: %d poll(s) after %v, want 1 after %v", n, after, quietPollInterval)
	}
	gen := hs.m.live.gen
	if fire[pollTickMsg](hs) != 1 || hs.m.live.gen != gen {
		t.Fatalf("an unchanged quiet tree was read again (gen %d → %d)", gen, hs.m.live.gen)
	}
	// pi-subagent starts a follow-up run at 10:29:00 (runId); hs.now is
	// 10:30:00. The quiet tree's next poll sees state.json change and
	// reads the tree again, without r; the polls then come often.
	setRecord(t, hs.m.live.tree.StateFile, "/root/docs_check", map[string]any{"status": "running", "runId": "01a221b3-79e0-7000-8000-000000000001"})
	if fire[pollTickMsg](hs) != 1 || hs.m.live.gen != gen+1 || hs.m.agents.rows.Shown(0).status != "running" {
		t.Fatalf("the quiet poll did not read the started run (gen %d → %d, status %q)", gen, hs.m.live.gen, hs.m.agents.rows.Shown(0).status)
	}
	if n, after := scheduled[pollTickMsg](hs); n != 1 || after != pollInterval {
		t.Fatalf("a tree with a running agent: %d poll(s) after %v, want 1 after %v", n, after, pollInterval)
	}
	gen = hs.m.live.gen
	if fire[pollTickMsg](hs) != 1 {
		t.Fatal("no poll scheduled for a tree with a running agent")
	}
	// Nothing changed: the next poll is scheduled, the tree stays.
	if hs.m.live.gen != gen || fire[pollTickMsg](hs) != 1 {
		t.Fatalf("an unchanged tree was read again or not polled again (gen %d → %d)", gen, hs.m.live.gen)
	}
	hs.m.detail.offset = 3
	// The agent answers.
	appendLines(t, a.File,
		`{"type":"message","id":"f0010001","parentId":"4bc1f58f","timestamp":"2026-11-28T10:29:00.500Z","message":{"role":"user","content":[{"type":"text","text":"Process the assigned agent tasks and messages below."}],"timestamp":1795861740500}}`,
		`{"type":"message","id":"f0010002","parentId":"f0010001","timestamp":"2026-11-28T10:29:30.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Retrying the check."}],"provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":100,"output":10,"cacheRead":0,"cacheWrite":0,"totalTokens":110,"cost":{"input":0.0003,"output":0.00015,"cacheRead":0,"cacheWrite":0,"total":0.00045}},"stopReason":"stop","timestamp":1795861770000}}`)
	if fire[pollTickMsg](hs) != 1 || hs.m.live.gen != gen+1 || hs.m.live.loading {
		t.Fatalf("a grown session did not read the tree again (gen %d → %d)", gen, hs.m.live.gen)
	}
	a, _ = hs.m.live.tree.Agent("/root/docs_check")
	if a.Status != "running" || a.Summary.Stats.AssistantMessages != 3 {
		t.Fatalf("after the poll: %s, %d requests", a.Status, a.Summary.Stats.AssistantMessages)
	}
	if row, _ := hs.m.agents.rows.Selected(); row.path != "/root/docs_check" || hs.m.detail.offset != 3 {
		t.Errorf("the refresh moved the selection (%s) or the detail's scroll (%d)", row.path, hs.m.detail.offset)
	}
	row := hs.m.agents.rows.Shown(0)
	if row.status != "running" || row.counts != "3/1" || row.runtime != "56.6s" {
		t.Errorf("row after the refresh: status %q counts %q run %q (the list keeps the run time it first showed)", row.status, row.counts, row.runtime)
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
	if row := hs.m.agents.rows.Shown(0); row.runtime != "2m06s" {
		t.Errorf("r did not sample the run time again: %q", row.runtime)
	}
	// The run settles: the poll reads the tree, which is quiet again.
	setRecord(t, hs.m.live.tree.StateFile, "/root/docs_check", map[string]any{"status": "completed"})
	fire[pollTickMsg](hs) // the polls of the loads before r are stale
	if n, after := scheduled[pollTickMsg](hs); n != 1 || after != quietPollInterval || hs.m.agents.rows.Shown(0).status != "completed" {
		t.Errorf("the settled run was not read (status %q), or the quiet tree is polled %d time(s) after %v", hs.m.agents.rows.Shown(0).status, n, after)
	}
}

// TestMouseActsOnThePaneUnderThePointer: the wheel scrolls the pane under
// the pointer whatever has focus (the list moving the selection when its
// cursor must follow), a click focuses a pane and selects the clicked
// row, and a click on the selected row does what enter does.
func TestMouseActsOnThePaneUnderThePointer(t *testing.T) {
	hs := newHarness(t, 160, 20) // the detail is taller than its pane: it scrolls
	listW := 160 - hs.m.detailWidth()
	// The list's first row is on line 1 inside the border (line 0 is the
	// column header): screen row 2. A click reads the rows the last frame
	// drew, as on screen.
	hs.view()
	hs.Send(tea.MouseClickMsg{X: 10, Y: 4, Button: tea.MouseLeft})
	if hs.m.agents.rows.Cursor() != 2 || hs.m.focus != paneList {
		t.Fatalf("click on the third row: cursor %d focus %d", hs.m.agents.rows.Cursor(), hs.m.focus)
	}
	if !strings.Contains(hs.view(), "Details · "+hs.m.agents.rows.Shown(2).path) {
		t.Errorf("the detail does not follow the clicked row:\n%s", hs.view())
	}
	hs.Send(tea.MouseClickMsg{X: 10, Y: 4, Button: tea.MouseLeft})
	if !hs.m.detail.taskExpanded {
		t.Error("a click on the selected row does not do what enter does (expand the task)")
	}
	hs.Send(tea.MouseClickMsg{X: 10, Y: 1, Button: tea.MouseLeft}) // the column header
	if hs.m.agents.rows.Cursor() != 2 {
		t.Errorf("a click on the column header moved the cursor to %d", hs.m.agents.rows.Cursor())
	}
	// The wheel over the detail scrolls it while the list has focus.
	hs.Send(tea.MouseWheelMsg{X: listW + 5, Y: 10, Button: tea.MouseWheelDown})
	if hs.m.detail.offset != 3 || hs.m.agents.rows.Cursor() != 2 || hs.m.focus != paneList {
		t.Errorf("wheel over the detail: offset %d, cursor %d, focus %d", hs.m.detail.offset, hs.m.agents.rows.Cursor(), hs.m.focus)
	}
	hs.Send(tea.MouseClickMsg{X: listW + 5, Y: 10, Button: tea.MouseLeft})
	if hs.m.focus != paneDetail {
		t.Error("a click in the detail does not focus it")
	}
	// The wheel over the list scrolls it while the detail has focus; the
	// demo's list fits its pane, so the cursor stays.
	hs.Send(tea.MouseWheelMsg{X: 10, Y: 10, Button: tea.MouseWheelUp})
	if hs.m.agents.rows.Cursor() != 2 || hs.m.detail.offset != 3 {
		t.Errorf("wheel over a list that fits: cursor %d, detail offset %d", hs.m.agents.rows.Cursor(), hs.m.detail.offset)
	}
	// The transcript scrolls under the wheel.
	hs.Press("t")
	bottom := hs.m.tr.offset
	hs.Send(tea.MouseWheelMsg{X: 50, Y: 10, Button: tea.MouseWheelUp})
	if hs.m.tr.offset != max(0, bottom-3) || hs.m.tr.following {
		t.Errorf("wheel up in the transcript: offset %d → %d", bottom, hs.m.tr.offset)
	}
}

// TestMouseInTheNarrowLayout: below the wide width the list fills the
// panel; a click on the selected row opens the full-width detail, where
// the wheel scrolls.
func TestMouseInTheNarrowLayout(t *testing.T) {
	hs := newHarness(t, 80, 24)
	hs.view()
	hs.Send(tea.MouseClickMsg{X: 10, Y: 3, Button: tea.MouseLeft})
	if hs.m.agents.rows.Cursor() != 1 || hs.m.screen != screenDashboard {
		t.Fatalf("click on the second row: cursor %d screen %d", hs.m.agents.rows.Cursor(), hs.m.screen)
	}
	hs.Send(tea.MouseClickMsg{X: 10, Y: 3, Button: tea.MouseLeft})
	if hs.m.screen != screenDetail {
		t.Fatal("a click on the selected row does not open its detail")
	}
	hs.Send(tea.MouseWheelMsg{X: 10, Y: 10, Button: tea.MouseWheelDown})
	if hs.m.detail.offset != 3 {
		t.Errorf("wheel in the full-width detail: offset %d", hs.m.detail.offset)
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
