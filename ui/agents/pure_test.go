package agents

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// observed is what a user sees move: the screen, the focus, the list's
// cursor, the detail's scroll, the timeline's cursor and scroll and the
// transcript's scroll.
func observed(m *Model) string {
	return fmt.Sprintf("screen %d focus %d list %d detail %d timeline %d/%d transcript %d", m.screen, m.focus,
		m.agents.rows.Cursor(), m.detail.offset, m.timeline.cursor, m.timeline.offset, m.tr.offset)
}

// checkPure draws the panel twice: the model is the same after as before
// (uitest.DumpState, which leaves out only the kit's list frame caches),
// and both screens are the same.
func checkPure(t *testing.T, hs *harness, step string) {
	t.Helper()
	seen := observed(hs.m)
	uitest.AssertDrawOnly(t, hs.m, hs.m.View, step)
	if got := observed(hs.m); got != seen {
		t.Fatalf("%s: View moved what the user sees: %s → %s", step, seen, got)
	}
}

// TestViewChangesNothing: on every screen the panel is walked through —
// the dashboard with the list and the detail focused and scrolled, the
// narrow layout's detail, the timeline moved, the transcript scrolled and
// with a search hit marked, the sessions with a tree — View only draws,
// at each size and after a resize (SetSize lays the screen out again).
func TestViewChangesNothing(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}, {160, 12}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			hs := newHarness(t, size.w, size.h)
			check := func(step string) {
				t.Helper()
				checkPure(t, hs, step)
				hs.Resize(size.w+9, size.h+5)
				checkPure(t, hs, step+" (resized)")
				hs.Resize(size.w, size.h)
				checkPure(t, hs, step+" (resized back)")
			}
			check("the dashboard")
			hs.Press("j", "j")
			check("the list moved")
			if hs.m.wide() {
				hs.m.FocusNext()
				hs.Press("j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j")
				check("the detail scrolled past its end")
				hs.Press("k")
				check("the detail scrolled back")
				hs.Press("esc")
			} else {
				hs.Press("enter")
				check("the detail screen")
				hs.Press("j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "j")
				check("the detail screen scrolled past its end")
				hs.Press("esc")
			}
			hs.Press("T")
			check("the timeline")
			hs.Press("j", "j", "j", "j", "j", "k")
			check("the timeline moved")
			hs.Press("G")
			check("the timeline at its end")
			hs.Press("esc", "g", "j", "t")
			if hs.m.screen != screenTranscript {
				t.Fatal("t does not open the transcript")
			}
			check("the transcript")
			hs.Press("j", "j", "j", "j", "j")
			check("the transcript scrolled")
			hs.m.tr.markQuery = "invoice"
			hs.Press("k")
			check("the transcript with a hit marked")
			hs.Press("esc")
			hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: hs.plain}})
			hs.Send(common.AgentTreesMsg{Sessions: []common.SessionRef{{File: hs.plain, Name: "a", When: common.When{At: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)}}, {File: hs.plain, Name: "b"}}})
			check("the sessions with a tree")
		})
	}
}

// TestDetailKeysPastTheEndAreNotOwed: keys pressed past the end of an
// agent's detail in one burst (no frame drawn between them) are not owed
// back — the first key up moves the text. The offset grew without bound
// and only a drawn frame clamped it, so after a burst the next keys up
// did nothing on screen.
func TestDetailKeysPastTheEndAreNotOwed(t *testing.T) {
	hs := newHarness(t, 160, 20)
	hs.m.FocusNext()
	last := hs.m.detail.maxOffset
	if hs.m.focus != paneDetail || last < 3 {
		t.Fatalf("focus %d, last offset %d: the detail does not scroll", hs.m.focus, last)
	}
	for range last + 20 {
		hs.Press("j")
	}
	hs.Press("k")
	info := fmt.Sprintf(" %d/%d ", last, last+1) // the first line shown of the scroll's range
	if view := hs.view(); hs.m.detail.offset != last-1 || !strings.Contains(view, info) {
		t.Fatalf("one key up from the end: offset %d, want %d; the border should say %q:\n%s", hs.m.detail.offset, last-1, info, view)
	}
}

// TestTimelineWindowDoesNotDependOnFrames: the timeline's window moves
// with each key, drawn or not — the same keys end on the same screen
// whether a frame was drawn after each (as when typed slowly) or only
// after the last (one read of a burst). The window used to move only when
// a frame was drawn.
func TestTimelineWindowDoesNotDependOnFrames(t *testing.T) {
	keys := []string{"g", "j", "j", "j", "j", "j", "k", "k"}
	screen := func(drawEach bool) []string {
		hs := newHarness(t, 160, 8)
		hs.Press("T")
		if n := len(hs.m.timeline.bars); n <= hs.m.timelineRows() {
			t.Fatalf("%d bars fit %d rows: nothing scrolls", n, hs.m.timelineRows())
		}
		var out []string
		for i, k := range keys {
			hs.Press(k)
			if drawEach || i == len(keys)-1 {
				out = append(out, hs.view())
			}
		}
		return out
	}
	each, once := screen(true), screen(false)
	if got, want := once[len(once)-1], each[len(each)-1]; got != want {
		t.Fatalf("after a burst:\n%s\nkey by key:\n%s", got, want)
	}
}
