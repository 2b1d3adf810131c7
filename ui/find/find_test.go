package find

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/resources/demo"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC // rows show clock times
	os.Exit(m.Run())
}

// harness drives the view over the unpacked demo workspace with a pinned
// clock and hand-fired timers.
type harness struct {
	*uitest.Harness[*Model]
	com *common.Common
	m   *Model
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	layout, err := demo.Unpack(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	keys := keymap.DefaultSet()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	com := &common.Common{Styles: themes.For(themes.Dark, true, false), Keys: &keys,
		Workspace: resources.Workspace{Cwd: layout.ProjectDir, AgentDir: layout.AgentDir},
		Now:       func() time.Time { return now }}
	m := New(com)
	h := &harness{com: com, m: m}
	h.Harness = uitest.New(t, m, func(m *Model, msg tea.Msg) (*Model, tea.Cmd) { return m, m.Update(msg) })
	h.Common = com
	h.UseTimers(com)
	h.Run(m.Open())
	return h
}

// search types a query and lets the debounce fire.
func (h *harness) search(q string) {
	h.Type(q)
	h.FireTimers()
}

func (h *harness) view(w, hh int) string { return ansi.Strip(h.m.View(w, hh)) }

func TestTypingSearchesAndResultsArriveGrouped(t *testing.T) {
	h := newHarness(t)
	h.Type("r")
	if len(h.Timers) != 0 || h.m.gen != 0 {
		t.Fatal("a one-letter query must not search while typing")
	}
	h.Type("ounding")
	if len(h.Timers) == 0 {
		t.Fatal("typing must schedule a search")
	}
	h.FireTimers()
	if h.m.running || len(h.m.hits) != 2 || h.m.files != 1 {
		t.Fatalf("running %v, %d hits in %d files", h.m.running, len(h.m.hits), h.m.files)
	}
	v := h.view(100, 20)
	for _, want := range []string{"/ rounding", "2 hits in 1 session", "Invoice rounding fix", "bb6de122", "thinking", "summary"} {
		if !strings.Contains(v, want) {
			t.Errorf("missing %q in\n%s", want, v)
		}
	}
	// The cursor starts on the first hit, under its session's title.
	if r, _ := h.m.list.Selected(); r.kind != rowHit {
		t.Fatalf("cursor on %+v", r)
	}
}

func TestEnterJumpsToTheEntry(t *testing.T) {
	h := newHarness(t)
	h.search("rounding")
	h.Press("down", "enter")
	if len(h.Jumps) != 1 || h.m.IsOpen() {
		t.Fatalf("jumps %+v, open %v", h.Jumps, h.m.IsOpen())
	}
	if len(h.Selections) != 0 {
		t.Fatalf("the view wrote the selection %+v; the Session panel owns it", h.Selections)
	}
	to := h.Jumps[0].Target
	if to.EntryID != "344a6751" || !strings.HasSuffix(to.SessionFile, "_01a21c48-87b8-7bf2-bec6-d1b0faeb6b39.jsonl") || to.AgentFile != "" {
		t.Fatalf("jump %+v", to)
	}
	if to.SearchQuery != "rounding" { // the panel reveals the match with it
		t.Fatalf("the jump carries the query %q, want %q", to.SearchQuery, "rounding")
	}
	if to.Panel != common.PanelSession {
		t.Fatalf("the jump goes to panel %d", to.Panel)
	}
}

func TestAgentHitsJumpToTheAgentsPanel(t *testing.T) {
	h := newHarness(t)
	h.Press("ctrl+a") // agent transcripts too
	h.search("edge cases")
	var agentRow = -1
	for i := 0; i < h.m.list.Len(); i++ {
		if r := h.m.list.Shown(i); r.kind == rowHit && h.m.hits[r.hit].AgentPath != "" {
			agentRow = i
			break
		}
	}
	if agentRow < 0 {
		t.Fatalf("no agent hit:\n%s", h.view(120, 30))
	}
	h.m.list.SetCursor(agentRow)
	h.Press("enter")
	if len(h.Jumps) != 1 {
		t.Fatalf("jumps %+v", h.Jumps)
	}
	to := h.Jumps[0].Target
	hit := h.m.hits[h.m.list.Shown(agentRow).hit]
	if to.SessionFile != hit.RootFile || to.AgentFile != hit.File || to.AgentEntryID != hit.EntryID || to.AgentPath != hit.AgentPath ||
		to.SearchQuery != "edge cases" || to.Panel != common.PanelAgents {
		t.Fatalf("jump %+v for hit %+v", to, hit)
	}
}

func TestOptionsAndProblems(t *testing.T) {
	h := newHarness(t)
	h.Press("ctrl+r")
	h.search("round(")
	if h.m.problem == "" || !strings.Contains(h.view(100, 12), "regular expression") {
		t.Fatalf("a bad regex must say so:\n%s", h.view(100, 12))
	}
	h.Press("ctrl+u")
	h.search(`ROUND\w+`)
	folded := len(h.m.hits)
	if folded < 2 {
		t.Fatalf("regex hits %d", folded)
	}
	h.Press("ctrl+t") // match case: nothing is written ROUND…
	h.FireTimers()
	if !strings.Contains(h.view(100, 12), "[case]") || len(h.m.hits) != 0 {
		t.Fatalf("case toggle: %d hits\n%s", len(h.m.hits), h.view(100, 12))
	}
	h.Press("ctrl+u")
	h.search("no such words anywhere")
	if !strings.Contains(h.view(100, 12), "No session holds this text.") {
		t.Fatalf("empty result:\n%s", h.view(100, 12))
	}
	h.Press("esc")
	if h.m.IsOpen() {
		t.Fatal("esc must close the view")
	}
}

func TestGoldenFindView(t *testing.T) {
	h := newHarness(t)
	h.Press("ctrl+a")
	h.search("invoice")
	for _, size := range [][2]int{{80, 21}, {160, 45}} {
		v := h.m.View(size[0], size[1])
		uitest.AssertFills(t, v, size[0], size[1])
		uitest.Golden(t, "find_"+sizeName(size), v)
	}
}

func sizeName(s [2]int) string {
	return map[int]string{80: "80x24", 160: "160x48"}[s[0]]
}

// TestFirstResultsBudget checks the 150 ms for the first results
// on the demo (FORGEBENCH_TIMING=1) as a typist meets them: from the last
// key, the typing pause (debounce) plus the search's start to the first
// batch with hits.
func TestFirstResultsBudget(t *testing.T) {
	uitest.RequireTiming(t)
	h := newHarness(t)
	h.com.Now = nil // the real clock
	h.search("invoice")
	if h.m.first <= 0 || debounce+h.m.first > 150*time.Millisecond {
		t.Fatalf("first results after %v + %v of typing pause", h.m.first, debounce)
	}
	t.Logf("demo: first results after %v", h.m.first)
	// On the bench corpus (bench/search.sh) when it is there.
	dir := os.Getenv("FORGEBENCH_SEARCH_CORPUS")
	if dir == "" {
		return
	}
	h.com.Workspace = resources.Workspace{Cwd: filepath.Join(dir, "project"), AgentDir: filepath.Join(dir, "agent")}
	h.Press("ctrl+u", "ctrl+a")
	h.search("quetzal overflow")
	if h.m.first <= 0 || debounce+h.m.first > 150*time.Millisecond {
		t.Fatalf("corpus: first results after %v + %v of typing pause", h.m.first, debounce)
	}
	t.Logf("corpus: first results after %v, %d hits, all after %v", h.m.first, len(h.m.hits), h.m.took)
}

// TestHitsStopAtTheViewsLimit: a common word over months of sessions
// finds hundreds of thousands of hits; the view keeps the first maxHits
// (newest sessions first) and says the query should be narrower, so its
// memory stays bounded (it held 672 MB for "error" on the bench corpus).
func TestHitsStopAtTheViewsLimit(t *testing.T) {
	h := newHarness(t)
	h.m.limit = 5
	h.search("invoice")
	if len(h.m.hits) != 5 || !h.m.stats.Limited {
		t.Fatalf("%d hits, limited %v", len(h.m.hits), h.m.stats.Limited)
	}
	if v := h.view(120, 12); !strings.Contains(v, "first 5 hits") || !strings.Contains(v, "narrow the query") {
		t.Fatalf("the limit is not said:\n%s", v)
	}
	if maxHits > 5000 {
		t.Fatalf("maxHits %d", maxHits)
	}
}

// TestAgentTitleSaysThePathOnce: pi-subagent names a transcript
// "[subagent] <path>"; its title row says the path once.
func TestAgentTitleSaysThePathOnce(t *testing.T) {
	h := newHarness(t)
	h.Press("ctrl+a")
	h.search("invoice")
	v := h.view(160, 45)
	if !strings.Contains(v, "agent /root/docs_check") || strings.Count(v, "/root/docs_check") != 1 {
		t.Fatalf("agent title:\n%s", v)
	}
}

// TestEnterThenThePauseSearchesOnce: enter searches at once; the pause
// timer typing scheduled must not start the same search again (it
// restarted it, emptying the results on screen and delaying the first
// hits by a debounce).
func TestEnterThenThePauseSearchesOnce(t *testing.T) {
	h := newHarness(t)
	h.Type("invoice")
	h.Press("enter")
	gen, hits := h.m.gen, len(h.m.hits)
	if gen != 1 || hits == 0 {
		t.Fatalf("enter: gen %d, %d hits", gen, hits)
	}
	h.FireTimers()
	if h.m.gen != gen || len(h.m.hits) != hits {
		t.Fatalf("the pause searched again: gen %d → %d, hits %d → %d", gen, h.m.gen, hits, len(h.m.hits))
	}
}

// A regular expression's hit lands on its entry without a query to reveal:
// the pattern's text is not what the lines show.
func TestRegexJumpCarriesNoQuery(t *testing.T) {
	h := newHarness(t)
	h.Press("ctrl+r")
	h.search(`ROUND\w+`)
	if len(h.m.hits) == 0 {
		t.Fatal("no regex hits")
	}
	h.Press("down", "enter")
	if len(h.Jumps) != 1 {
		t.Fatalf("jumps %+v", h.Jumps)
	}
	if to := h.Jumps[0].Target; to.EntryID == "" || to.SearchQuery != "" {
		t.Fatalf("jump %+v: want the entry and no query", to)
	}
}
