package sessions

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// gotoEntry selects entry id through the # prompt (on its branch).
func (hs *harness) gotoEntry(id string) {
	hs.Press("#")
	hs.Type(id)
	hs.Press("enter")
}

// markAndCompare marks e10 (the abandoned per-line rounding branch) and
// compares the leaf e19 with it.
func markAndCompare(hs *harness) {
	hs.focusOn(paneTimeline)
	hs.gotoEntry("e10")
	hs.Press("M")
	hs.Press("L")
	hs.Press("D")
}

// M marks an entry, D on another compares the two branches after their
// fork point, as `session diff` does, and enter shows the request at each
// in the Payloads panel's diff.
func TestMarkCompareShowsBothBranchesAndJumpsToTheRequestDiff(t *testing.T) {
	hs, paths := newHarness(t, 160, 48)
	markAndCompare(hs)
	if hs.m.mode != modeCompare || hs.m.focus != paneDetail {
		t.Fatalf("D opens the comparison in the detail pane, mode %d focus %d", hs.m.mode, hs.m.focus)
	}
	res := hs.m.views.compare.result
	if res == nil || res.err != nil {
		t.Fatalf("no comparison: %+v", res)
	}
	if !res.diff.HasForkPoint || res.diff.ForkPoint != "e08" || res.diff.A.Leaf != "e10" || res.diff.B.Leaf != "e19" {
		t.Fatalf("fork point %q, leaves %q %q; want e08, e10, e19", res.diff.ForkPoint, res.diff.A.Leaf, res.diff.B.Leaf)
	}
	view := ansi.Strip(hs.view())
	for _, want := range []string{"Compare e10 ↔ e19", "fork point  e08", "A (mark)", "edit ×1", "src/invoice.ts", "All 14 tests pass."} {
		if !strings.Contains(view, want) {
			t.Fatalf("the comparison lacks %q:\n%s", want, view)
		}
	}
	hs.Jumps = nil
	hs.Press("enter")
	if len(hs.Jumps) != 1 {
		t.Fatalf("enter sends one jump, got %d", len(hs.Jumps))
	}
	tg := hs.Jumps[0].Target
	wantA := replay.Ref{Kind: replay.RefSession, Path: paths["rounding"], Entry: "e10"}.String()
	wantB := replay.Ref{Kind: replay.RefSession, Path: paths["rounding"], Entry: "e19"}.String()
	if tg.Panel != common.PanelPayloads || tg.CompareRefs != [2]string{wantA, wantB} {
		t.Fatalf("jump %+v, want Payloads with %q and %q", tg, wantA, wantB)
	}
	for _, ref := range tg.CompareRefs {
		if _, err := replay.ParseRef(ref); err != nil {
			t.Fatalf("the Payloads panel cannot read %q: %v", ref, err)
		}
	}
	hs.Press("esc")
	if hs.m.mode != modeEntry {
		t.Fatal("esc leaves the comparison")
	}
	if !strings.Contains(ansi.Strip(hs.view()), "mark e10") {
		t.Fatalf("the timeline's border names the mark:\n%s", ansi.Strip(hs.view()))
	}
}

// D without a mark, or on the marked entry itself, says what to do and
// opens nothing; M on the marked entry removes the mark.
func TestCompareNeedsAMarkAndAnotherEntry(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(paneTimeline)
	hs.Press("D")
	if hs.m.mode != modeEntry || !strings.Contains(hs.m.status[paneTimeline].Text(), "no mark: M marks an entry") {
		t.Fatalf("D without a mark: mode %d, status %q", hs.m.mode, hs.m.status[paneTimeline].Text())
	}
	hs.Press("M")
	hs.Press("D")
	if hs.m.mode != modeEntry || !strings.Contains(hs.m.status[paneTimeline].Text(), "this is the marked entry") {
		t.Fatalf("D on the mark: mode %d, status %q", hs.m.mode, hs.m.status[paneTimeline].Text())
	}
	hs.Press("M")
	if hs.m.views.compare.mark != nil {
		t.Fatal("M on the marked entry removes the mark")
	}
}

// % shows the composition of the request at the entry as a stacked bar
// and its parts; it follows the timeline cursor, computed once where a
// burst of moves ends, never for the entries passed over.
func TestCompositionFollowsTheCursorOncePerBurst(t *testing.T) {
	hs, _ := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.Press("%")
	if hs.m.mode != modeComposition || hs.m.focus != paneTimeline {
		t.Fatalf("%% shows the composition beside the timeline, mode %d focus %d", hs.m.mode, hs.m.focus)
	}
	view := ansi.Strip(hs.view())
	for _, want := range []string{"Composition at e19", "next request from entry e19", "▒ history", "tool results"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the composition lacks %q:\n%s", want, view)
		}
	}
	var composed []int
	hs.Intercept = func(msg tea.Msg) bool {
		if c, ok := msg.(composedMsg); ok {
			composed = append(composed, c.res.key.idx)
		}
		return false
	}
	rng := rand.New(rand.NewPCG(26, 2))
	rounds := 0
	for round := range 6 {
		composed = nil
		keys, want := uitest.MoveKeys(rng, 20, hs.m.tl.list.Cursor(), hs.m.tl.list.Len())
		hs.Burst(rng, keys...)
		if got := hs.m.tl.list.Cursor(); got != want {
			t.Fatalf("round %d: cursor %d, want %d", round, got, want)
		}
		idx := hs.m.currentEntry()
		if len(composed) > 1 || (len(composed) == 1 && composed[0] != idx) {
			t.Fatalf("round %d: the burst composed %v, want at most once at the end (%d)", round, composed, idx)
		}
		rounds += len(composed)
		if sh := hs.m.views.composition.shown; sh == nil || sh.key.idx != idx {
			t.Fatalf("round %d: the view does not show the entry the burst ended on", round)
		}
		if left := hs.Quiesce(5); len(left) > 0 {
			t.Fatalf("round %d: still scheduled after the burst: %v", round, left)
		}
	}
	if rounds == 0 {
		t.Fatal("no burst ended on a new entry: the test proves nothing")
	}
	hs.Press("esc")
	if hs.m.mode != modeEntry {
		t.Fatal("esc leaves the composition")
	}
}

// The mark may be in another session: a fork of the marked session
// compares from the entry it was forked at, and the request diff names
// both files.
func TestCompareAcrossAFork(t *testing.T) {
	hs, paths := newHarness(t, 160, 48)
	hs.focusOn(paneTimeline)
	hs.gotoEntry("e10")
	hs.Press("M")
	src, err := session.Open(paths["rounding"])
	if err != nil {
		t.Fatal(err)
	}
	at, _ := src.IndexOf("e08")
	f, err := session.PlanFork(src, at, session.ForkOptions{
		Now:          time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC),
		NewSessionID: func(time.Time) string { return "01a2f000-0000-7000-8000-0000000000f0" },
		NewEntryID:   func() string { return "l0000099" },
	})
	if err != nil {
		t.Fatal(err)
	}
	data := append(append([]byte(nil), f.Data...),
		`{"type":"message","id":"f0000001","parentId":"e08","timestamp":"2026-11-28T09:00:05.000Z","message":{"role":"user","content":"Try banker's rounding."}}`+"\n"...)
	fork := filepath.Join(filepath.Dir(paths["rounding"]), "2026-11-28T09-00-00-000Z_01a2f000-0000-7000-8000-0000000000f0.jsonl")
	if err := os.WriteFile(fork, data, 0o644); err != nil {
		t.Fatal(err)
	}
	hs.jump(fork, "f0000001", "")
	hs.focusOn(paneTimeline)
	if !strings.Contains(ansi.Strip(hs.view()), "mark e10 in Invoice rounding (test)") {
		t.Fatalf("the timeline names the mark and its session:\n%s", ansi.Strip(hs.view()))
	}
	hs.Press("D")
	res := hs.m.views.compare.result
	if res == nil || res.err != nil {
		t.Fatalf("no comparison: %+v", res)
	}
	if res.diff.ForkPoint != "e08" || res.diff.A.Leaf != "e10" || res.diff.B.Leaf != "f0000001" || res.diff.B.Entries != 1 {
		t.Fatalf("fork point %q, A %q, B %q with %d entries; want e08, e10, f0000001 with 1", res.diff.ForkPoint, res.diff.A.Leaf, res.diff.B.Leaf, res.diff.B.Entries)
	}
	hs.Jumps = nil
	hs.Press("enter")
	if len(hs.Jumps) != 1 || !strings.Contains(hs.Jumps[0].Target.CompareRefs[0], paths["rounding"]) ||
		!strings.Contains(hs.Jumps[0].Target.CompareRefs[1], fork) {
		t.Fatalf("the request diff names both files: %+v", hs.Jumps)
	}
}

// A mark in a session that shares no entry with the selected one says so.
func TestCompareUnrelatedSessionsSaysSo(t *testing.T) {
	hs, paths := newHarness(t, 120, 40)
	hs.focusOn(paneTimeline)
	hs.Press("M")
	hs.jump(paths["currency"], "", "")
	hs.focusOn(paneTimeline)
	hs.Press("D")
	res := hs.m.views.compare.result
	if res == nil || res.err == nil || !strings.Contains(ansi.Strip(hs.view()), "share no entry") {
		t.Fatalf("want the unrelated sessions said:\n%s", ansi.Strip(hs.view()))
	}
}
