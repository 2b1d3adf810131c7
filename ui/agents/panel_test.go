package agents

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/follower"
)

func TestDashboardShowsTheSelectedTree(t *testing.T) {
	hs := newHarness(t, 160, 48)
	want := []string{"/root/docs_check", "/root/invoice_review", "/root/invoice_review/edge_cases"}
	if got := hs.rowPaths(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("open agents %v, want %v", got, want)
	}
	v := hs.view()
	contains(t, v, "Agents · tree 01a2219b · open · 3/4", "PATH", "ROLE", "TASK", "STATUS", "COST", "RUN", "REQ/TL", "CREATED",
		"docs_check", "errored", "10:03:04", "invoice_review", "  edge_cases", "reviewer", "$0.0340", "4/3",
		"Details · /root/docs_check", "overloaded_error", "recent activity")
}

func TestLifecycleFilterAndHiddenToggle(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Press("f")
	if got := hs.rowPaths(); len(got) != 1 || got[0] != "/root/test_run" {
		t.Fatalf("closed agents %v", got)
	}
	v := hs.view()
	contains(t, v, "· closed · 1/4", "test_run", "completed", "$ npm test", "✔ two widgets")
	hs.Press("f")
	if len(hs.rowPaths()) != 3 {
		t.Fatalf("back to open agents: %v", hs.rowPaths())
	}
	hs.Press("*")
	contains(t, hs.view(), "open + hidden")
}

func TestNavigationReadsActivityAndExpandsTheTask(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Press("down")
	contains(t, hs.view(), "Details · /root/invoice_review", "task from /root", "completion from", "answered")
	// tab focuses the detail; enter expands the task preview there.
	hs.m.FocusNext()
	if hs.m.focus != paneDetail {
		t.Fatal("tab did not focus the detail")
	}
	before := hs.view()
	hs.Press("enter")
	if !hs.m.detail.taskExpanded || hs.view() == before && strings.Contains(before, "shows the whole task") {
		t.Error("enter did not expand the task")
	}
	hs.Press("esc")
	if hs.m.focus != paneList {
		t.Error("esc in the detail goes back to the list")
	}
}

func TestNarrowLayoutIsListThenDetail(t *testing.T) {
	hs := newHarness(t, 80, 24)
	v := hs.view()
	if strings.Contains(v, "Details ·") {
		t.Errorf("the narrow layout shows the detail beside the list:\n%s", v)
	}
	hs.Press("down", "enter")
	if hs.m.screen != screenDetail {
		t.Fatal("enter does not open the details on a narrow terminal")
	}
	contains(t, hs.view(), "Details · /root/invoice_review", "selected")
	hs.Press("esc")
	if hs.m.screen != screenDashboard || hs.m.agents.rows.Cursor() != 1 {
		t.Errorf("esc returns to the list keeping the selection (screen %d, cursor %d)", hs.m.screen, hs.m.agents.rows.Cursor())
	}
}

func TestTranscriptPagesNoThinkingAndBack(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Press("down")
	hs.Press("t")
	if hs.m.screen != screenTranscript || hs.m.tr.tr == nil {
		t.Fatalf("t did not open the transcript: %s", hs.m.tr.err)
	}
	contains(t, hs.view(), "Transcript · /root/invoice_review", "page 1 of 1", "2 copied")
	all := strings.Join(hs.m.tr.lines, "\n")
	contains(t, all, "copied from parent", "→ read", "spawn_agent")
	if strings.Contains(all, "▸ thinking") || strings.Contains(all, "Read the invoice module") {
		t.Errorf("the transcript shows thinking:\n%s", all)
	}
	// Tool output is capped until expanded.
	hs.Press("G")
	hidden := strings.Contains(strings.Join(hs.m.tr.lines, "\n"), "lines hidden")
	hs.Press("space")
	if !hidden || strings.Contains(strings.Join(hs.m.tr.lines, "\n"), "lines hidden") {
		t.Errorf("space does not expand tool output (capped before: %v)", hidden)
	}
	hs.Press("p")
	contains(t, hs.view(), "this is the first page")
	hs.Press("esc")
	if hs.m.screen != screenDashboard || hs.m.agents.rows.Cursor() != 1 {
		t.Error("esc does not come back to the dashboard with the selection kept")
	}
}

func TestTranscriptEarlierPagesAndFollow(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Press("down", "t")
	tr := hs.m.tr.tr
	tr.PageSize = 5 // several pages of the demo's agent
	hs.Run(hs.m.renderTranscript())
	if tr.Pages() < 2 || !strings.Contains(hs.view(), "page 1 of") {
		t.Fatalf("pages %d", tr.Pages())
	}
	first := len(hs.m.tr.lines)
	hs.Press("p")
	if hs.m.tr.pages != 2 || len(hs.m.tr.lines) <= first {
		t.Errorf("p did not load the previous page (%d → %d lines)", first, len(hs.m.tr.lines))
	}
	// End jumps to the newest page and follows; the tail's start is taken
	// over here so no command waits on the file.
	var started *follower.StartedMsg
	hs.Intercept = func(msg tea.Msg) bool {
		s, ok := msg.(follower.StartedMsg)
		if ok {
			started = &s
		}
		return ok
	}
	hs.Press("end")
	if started == nil || !hs.m.tr.following || hs.m.tr.pages != 1 {
		t.Fatalf("end: tail started %v, following %v, pages %d", started != nil, hs.m.tr.following, hs.m.tr.pages)
	}
	hs.Intercept = nil
	// A tail that delivers one entry (a line ending at 1 MiB) and ends.
	line := `{"type":"message","id":"f0110001","parentId":null,"timestamp":"2026-11-28T10:09:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"A followed answer."}],"provider":"anthropic","model":"claude-sonnet-4-5","stopReason":"stop"}}`
	events := make(chan session.TailEvent, 1)
	events <- session.TailEvent{Kind: session.TailLines, Lines: []session.TailLine{{Offset: 1<<20 - int64(len(line)) - 1, Data: []byte(line)}}}
	close(events)
	hs.Send(follower.StartedMsg{Owner: started.Owner, Gen: started.Gen, Events: events, Cancel: func() {}})
	if hs.m.tr.followed != 1 || hs.m.tr.size != 1<<20 {
		t.Errorf("followed %d, size %d", hs.m.tr.followed, hs.m.tr.size)
	}
	contains(t, hs.view(), "A followed answer.", "follow ended")
	// Scrolling up pauses following; end resumes at the bottom.
	hs.m.tr.following = true
	hs.Press("p", "p")
	hs.Press("up")
	if hs.m.tr.following || hs.m.tr.offset >= hs.m.bottom() {
		t.Errorf("leaving the bottom does not pause following (offset %d, bottom %d)", hs.m.tr.offset, hs.m.bottom())
	}
	// Back on the dashboard after following, the tree is read again.
	gen := hs.m.live.gen
	hs.Press("esc")
	if hs.m.screen != screenDashboard || hs.m.live.gen != gen+1 || hs.m.live.loading || hs.m.live.tree == nil {
		t.Errorf("no reload after following (gen %d → %d, loading %v)", gen, hs.m.live.gen, hs.m.live.loading)
	}
}

func TestFollowsTheSharedSelection(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: hs.plain}})
	contains(t, hs.view(), "no pi-subagent tree")
	if hs.m.live.tree != nil || hs.m.agents.rows.Len() != 0 {
		t.Error("the old tree is still shown")
	}
	hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: ""}})
	contains(t, hs.view(), "No session selected")
}

func TestHelpNamesTheKeys(t *testing.T) {
	hs := newHarness(t, 80, 24)
	var names []string
	for _, b := range hs.m.ShortHelp() {
		names = append(names, b.Help().Key)
	}
	if got := strings.Join(names, " "); got != "enter t v f * ↑/k ↓/j" {
		t.Errorf("list help %q", got)
	}
	hs.Press("t")
	names = names[:0]
	for _, b := range hs.m.ShortHelp() {
		names = append(names, b.Help().Key)
	}
	if got := strings.Join(names, " "); got != "F/end p space v esc pgdn ↑/k ↓/j" {
		t.Errorf("transcript help %q", got)
	}
}

// TestListInfoCountsInTheSingular: the closed filter lists one agent with
// one tool call, and the footer says so without a plural "s".
func TestListInfoCountsInTheSingular(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.Press("f")
	if got := hs.m.agents.info(hs.m.live.tree, hs.m.status); !strings.Contains(got, "2 req · 1 tool call · ") {
		t.Fatalf("closed filter footer: %q", got)
	}
}
