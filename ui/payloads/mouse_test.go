package payloads

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/requestdiff"
	"github.com/forgebench/forgebench/ui/uitest"
)

func (hs *harness) click(x, y int) { uitest.Click(hs.Harness, x, y) }

func (hs *harness) wheel(x, y int, down bool) { uitest.Wheel(hs.Harness, x, y, down) }

// TestMouseOnTheDiff: under the A/B header (4 lines) the block list sits
// left and the line diff right at 160 columns. A click selects a block
// (its line diff follows), a second click opens its lines as enter does,
// and the wheel scrolls the pane under the pointer.
func TestMouseOnTheDiff(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "")
	m := hs.m
	if m.cmp == nil || len(m.view.Diff().Blocks) < 3 {
		t.Fatal("the demo leaf's diff has blocks")
	}
	// Inside the block pane's border: the column header, then block 0.
	hs.click(5, headerLines+1+1+2)
	if _, row, _ := m.view.Selected(); row != 2 || m.view.Focus() != requestdiff.Blocks {
		t.Fatalf("click on the third block: row %d focus %v", row, m.view.Focus())
	}
	hs.click(5, headerLines+1+1+2)
	if m.view.Focus() != requestdiff.Lines {
		t.Fatal("a click on the selected block opens its lines")
	}
	hs.click(5, headerLines) // the block pane's top border: focus only
	if m.view.Focus() != requestdiff.Blocks {
		t.Fatal("a click in the block pane focuses it")
	}
	// The wheel over the line diff scrolls it while the blocks have focus
	// (on a short screen, the system prompt with all its lines).
	short := newHarness(t, 160, 16, true, "")
	short.Press("g", "down", "down", "c")
	before := short.view()
	short.wheel(120, 10, true)
	if short.m.view.Focus() != requestdiff.Blocks || short.view() == before {
		t.Errorf("the wheel over the line diff does not scroll it, or moves the focus:\n%s", short.view())
	}
	// Over the blocks it scrolls the list: the cursor stays while visible.
	_, row, _ := m.view.Selected()
	hs.wheel(5, 20, true)
	if _, after, _ := m.view.Selected(); after < row {
		t.Errorf("the wheel down over the blocks moved the cursor up: %d → %d", row, after)
	}
}

// TestMouseOnTheRequests: a click selects a request (the summary line
// above the list takes none), a second click compares it with the one
// before, as enter does.
func TestMouseOnTheRequests(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "")
	hs.Press("s", "s")
	m := hs.m
	start := m.reqs.list.Cursor()
	hs.click(5, 1) // the summary line
	if m.reqs.list.Cursor() != start || start == 3 {
		t.Fatalf("a click on the summary moved the cursor from %d to %d", start, m.reqs.list.Cursor())
	}
	hs.click(5, 1+1+3)
	if m.reqs.list.Cursor() != 3 || m.mode != modeRequests {
		t.Fatalf("click on the fourth request: cursor %d mode %v", m.reqs.list.Cursor(), m.mode)
	}
	r, _ := m.reqs.list.Selected()
	hs.click(5, 1+1+3)
	if m.mode != modeDiff || m.refs[1] != r.ref {
		t.Fatalf("a click on the selected request compares it: mode %v refs %q", m.mode, m.refs)
	}
}

// Holding ↓ over a long session moved the selection faster than requests
// rebuild, and the panel rebuilt a pair for every entry passed (each a
// whole request rebuild on a 100 MB file): now one comparison runs at a
// time and the next one is the newest selection's.
func TestFollowingComparesOnlyTheNewestSelection(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "")
	s, err := session.Shared(hs.main)
	if err != nil {
		t.Fatal(err)
	}
	var held []tea.Msg
	defaults := 0
	hs.Intercept = func(msg tea.Msg) bool {
		if _, ok := msg.(defaultsMsg); ok {
			defaults++
			if held != nil || defaults == 1 {
				held = append(held, msg) // the first run is still in flight
				return true
			}
		}
		return false
	}
	leaf := s.LeafIndex()
	var last string
	for i := 1; i <= 10; i++ {
		last = s.Entries[leaf-i].ID
		hs.Send(common.SelectionChangedMsg{Selection: common.Selection{SessionFile: hs.main, EntryID: last}})
	}
	if defaults != 1 {
		t.Fatalf("ten moves while the first runs started %d rebuilds, want 1", defaults)
	}
	first := held[0]
	held = nil
	hs.Send(first) // the first run finishes: the newest selection runs next
	if defaults != 2 || hs.m.followed.EntryID != last || hs.m.cmp == nil || !strings.Contains(hs.view(), last) {
		t.Fatalf("after the first run: %d rebuilds, followed %s (want the newest, %s):\n%s", defaults, hs.m.followed.EntryID, last, hs.view())
	}
	if hs.m.pending || hs.m.follows.Busy() {
		t.Error("the panel still waits for a comparison")
	}
}
