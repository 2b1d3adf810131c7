package ui

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// focusedPosition is the "N/M" a list shows in the bottom border of the
// focused pane (heavy: ┗━ … ━┛); ok is false when the focused pane shows
// none (it is not a list, or an empty one).
func focusedPosition(m *Model) (pos, total int, ok bool) {
	for _, line := range strings.Split(screen(m), "\n") {
		i := strings.Index(line, "┗")
		if i < 0 {
			continue
		}
		border := line[i:]
		if j := strings.Index(border, "┛"); j >= 0 {
			border = border[:j]
		}
		last := positionRe.FindStringSubmatch(border)
		if last == nil {
			return 0, 0, false
		}
		pos, _ = strconv.Atoi(last[1])
		total, _ = strconv.Atoi(last[2])
		return pos, total, true
	}
	return 0, 0, false
}

// positionRe is a list's position, the last note of a border.
var positionRe = regexp.MustCompile(`[ ━](\d+)/(\d+) ━*$`)

// burstKeys are n random movement keys and where they take a cursor at
// pos of total rows (1-based, as the border shows it).
func burstKeys(rng *rand.Rand, n, pos, total int) ([]string, int) {
	keys, want := uitest.MoveKeys(rng, n, pos-1, total)
	return keys, want + 1
}

// quiesce lets time pass with no input: every pending timer fires, round
// after round. What may stay scheduled is periodic and slow (the Agents
// panel's file poll, a running agent's clock); anything under a second
// still pending after the rounds means some work keeps rescheduling
// itself, and the selection must not move meanwhile.
func quiesce(t *testing.T, m *Model, h *uitest.Harness[tea.Model], what string) {
	t.Helper()
	sel := m.com.Selection
	jumps := len(h.Jumps)
	left := h.Quiesce(6)
	for _, tm := range left {
		if tm.After < time.Second {
			t.Fatalf("%s: still busy after the input stopped: a %s timer of %T is pending", what, tm.After, tm.Msg)
		}
	}
	if len(left) > 2 {
		t.Fatalf("%s: %d timers keep rescheduling: %+v", what, len(left), left)
	}
	if m.com.Selection != sel || len(h.Jumps) != jumps {
		t.Fatalf("%s: the selection moved with no input: %+v → %+v", what, sel, m.com.Selection)
	}
}

// Issue 21: keys arriving in one read were lost and the selection looped
// between panels forever. Random bursts of movement keys in every list of
// every panel, with the commands' results arriving between the keys and
// out of order as the runtime delivers them: each burst moves its list
// exactly one row per key, in the Session panel the selection is the
// entry under the timeline's cursor, and once the input stops the
// workbench goes quiet.
func TestBurstsCountEveryKeyAndGoQuiet(t *testing.T) {
	m, h := demoHarness(t)
	h.Settle()
	rng := rand.New(rand.NewPCG(21, 2026))
	lists := 0
	for panel := 1; panel <= 5; panel++ {
		h.Press(strconv.Itoa(panel))
		for pane := 0; pane < 5; pane++ {
			pos, total, ok := focusedPosition(m)
			if ok && total > 1 {
				lists++
				t.Logf("panel %d, pane %d: a list of %d rows", panel, pane, total)
				for b := 0; b < 3; b++ {
					pos, total, _ = focusedPosition(m)
					keys, want := burstKeys(rng, 1+rng.IntN(12), pos, total)
					what := fmt.Sprintf("panel %d pane %d burst %v from %d/%d", panel, pane, keys, pos, total)
					h.Burst(rng, keys...)
					if got, gotTotal, _ := focusedPosition(m); got != want || gotTotal != total {
						t.Fatalf("%s: at %d/%d, want %d/%d:\n%s", what, got, gotTotal, want, total, screen(m))
					}
					quiesce(t, m, h, what)
				}
			}
			h.Press("tab")
		}
	}
	if lists < 6 {
		t.Fatalf("only %d lists were tried: the panels did not show their positions", lists)
	}
	// Lists behind a key: the Payloads panel's requests of the branch
	// and the global search's hits.
	for _, scene := range []struct {
		name   string
		arrows bool // the view types letters into its query
		open   func()
	}{
		{"payloads requests", false, func() { h.Press("4", "s") }},
		{"search hits", true, func() {
			h.Press("ctrl+f")
			h.Type("the")
			h.FireTimers() // the search's own debounce and batches
			h.FireTimers()
		}},
	} {
		scene.open()
		pos, total, ok := focusedPosition(m)
		if !ok || total < 3 {
			t.Fatalf("%s: no list of several rows (%d/%d, ok %v):\n%s", scene.name, pos, total, ok, screen(m))
		}
		for b := 0; b < 3; b++ {
			pos, total, _ = focusedPosition(m)
			keys, want := burstKeys(rng, 1+rng.IntN(12), pos, total)
			if scene.arrows {
				keys = strings.Fields(strings.NewReplacer("j", "down", "k", "up").Replace(strings.Join(keys, " ")))
			}
			h.Burst(rng, keys...)
			if got, gotTotal, _ := focusedPosition(m); got != want || gotTotal != total {
				t.Fatalf("%s burst %v from %d/%d: at %d/%d, want %d/%d", scene.name, keys, pos, total, got, gotTotal, want, total)
			}
			quiesce(t, m, h, scene.name)
		}
	}
}

// The same in the Session panel's timeline of the demo's long session,
// where the entry under the cursor is known from the file: after each
// burst the selection (the header) is that entry and the detail shows it.
func TestBurstsInTheTimelineSelectTheEntryUnderTheCursor(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3", "j", "j", "enter") // Invoice rounding fix, its timeline at the leaf
	h.Settle()
	file := m.com.Selection.SessionFile
	s, err := session.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	branch := s.PathTo(s.LeafIndex())
	pos, total, ok := focusedPosition(m)
	if !ok || pos != total || total != len(branch) || m.com.Selection.EntryID != s.Entries[branch[total-1]].ID {
		t.Fatalf("opened at %d/%d (ok %v), selection %+v; the branch has %d entries", pos, total, ok, m.com.Selection, len(branch))
	}
	rng := rand.New(rand.NewPCG(7, 21))
	for b := 0; b < 12; b++ {
		keys, want := burstKeys(rng, 1+rng.IntN(30), pos, total)
		h.Burst(rng, keys...)
		pos, _, _ = focusedPosition(m)
		entry := s.Entries[branch[want-1]].ID
		if pos != want || m.com.Selection.EntryID != entry || m.com.Selection.SessionFile != file {
			t.Fatalf("burst %v: at %d (want %d), selection %s (want %s)", keys, pos, want, m.com.Selection.EntryID, entry)
		}
		if !strings.Contains(screen(m), "Detail · "+entry) {
			t.Fatalf("burst %v: the detail does not show %s:\n%s", keys, entry, screen(m))
		}
		if head := screen(m)[:strings.Index(screen(m), "\n")]; !strings.Contains(head, "entry "+entry) {
			t.Fatalf("burst %v: the header does not name %s: %q", keys, entry, head)
		}
		quiesce(t, m, h, fmt.Sprintf("burst %v", keys))
	}
}

// A selection change reaches every panel once, in the Update that made
// it, and a jump arrives once: nothing a panel does sends the selection
// back around.
func TestASelectionIsAnnouncedOnceAndNeverEchoed(t *testing.T) {
	m, h := demoHarness(t)
	h.Press("3", "tab", "tab") // the timeline
	var heard int
	h.Intercept = func(msg tea.Msg) bool {
		if _, ok := msg.(common.SelectionChangedMsg); ok {
			heard++ // a command carrying a selection: the old echo
		}
		return false
	}
	before := m.com.Selection
	h.Press("k")
	if m.com.Selection == before || m.announced != m.com.Selection {
		t.Fatalf("k moved the selection %+v → %+v (announced %+v)", before, m.com.Selection, m.announced)
	}
	if heard != 0 {
		t.Fatalf("%d selection messages came back through commands", heard)
	}
}
