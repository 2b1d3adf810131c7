package common_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	. "github.com/forgebench/forgebench/ui/common"
)

// A burst of Asks sets one timer; when it fires after more Asks it is set
// again for the rest of the wait, and then the work comes due once.
// Another Debounce's message is never its own, and a cancelled Ask never
// comes due.
func TestDebounceLetsTheWorkComeDueOnceAfterTheAsksStop(t *testing.T) {
	var fired []tea.Msg
	var waits []time.Duration
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	com := &Common{
		Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
			fired, waits = append(fired, msg), append(waits, d)
			return nil
		},
		Now: func() time.Time { return now },
	}
	var d, other Debounce
	for i := 0; i < 5; i++ {
		d.Ask(com, FollowDelay)
		now = now.Add(10 * time.Millisecond)
	}
	other.Ask(com, FollowDelay)
	if !d.Waiting() || len(fired) != 2 {
		t.Fatalf("waiting %v, %d timers for 5 Asks and another Debounce's one, want 2", d.Waiting(), len(fired))
	}
	if due, again := d.Due(fired[1].(DueMsg)); due || again != nil {
		t.Fatal("another Debounce's timer came due here")
	}
	// The first timer fires 50 ms after the first Ask, 10 ms after the
	// newest: it is set again for the other 40.
	due, _ := d.Due(fired[0].(DueMsg))
	if due || len(fired) != 3 || waits[2] != 40*time.Millisecond {
		t.Fatalf("due %v, timers %d, wait %v: want the timer set again for 40ms", due, len(fired), waits)
	}
	if due, _ := d.Due(fired[0].(DueMsg)); due {
		t.Fatal("the old timer came due after it was set again")
	}
	if due, _ := d.Due(fired[2].(DueMsg)); !due || d.Waiting() {
		t.Fatal("no Ask since the timer was set: the work is due")
	}
	if due, _ := d.Due(fired[2].(DueMsg)); due {
		t.Fatal("the same message came due twice")
	}
	d.Ask(com, FollowDelay)
	d.Cancel()
	if due, again := d.Due(fired[len(fired)-1].(DueMsg)); due || again != nil {
		t.Fatal("a cancelled Ask came due or set its timer again")
	}
	if cmd := d.Ask(com, FollowDelay); len(fired) != 5 {
		t.Fatalf("after the cancelled timer fired, an Ask sets a new one (%v)", cmd)
	}
}

// Jumps are numbered in the order they are made, so the root can drop an
// older one that arrives late.
func TestJumpsAreNumbered(t *testing.T) {
	com := &Common{}
	a := com.Jump(JumpTarget{Panel: PanelSession, EntryID: "a"})().(JumpMsg)
	b := com.Jump(JumpTarget{Panel: PanelPresets, PresetID: "project:x"})().(JumpMsg)
	if a.Seq == 0 || b.Seq <= a.Seq || a.Target.EntryID != "a" || b.Target.PresetID != "project:x" {
		t.Fatalf("jumps %+v %+v", a, b)
	}
}

// Issue 21: a timer that fires late (the event loop was drawing a frame
// or the machine was busy) after Asks that have since rested the whole
// wait is due at once; it used to be set again for another whole wait,
// which the last key's frame (the palette's first results, the Session
// panel's detail) then waited for too.
func TestALateTimerAfterTheAsksRestedIsDueAtOnce(t *testing.T) {
	var fired []tea.Msg
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	com := &Common{
		Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
			fired = append(fired, msg)
			return nil
		},
		Now: func() time.Time { return now },
	}
	var d Debounce
	d.Ask(com, RenderDelay)
	now = now.Add(RenderDelay / 2)
	d.Ask(com, RenderDelay)        // the burst's last key
	now = now.Add(3 * RenderDelay) // the timer fires long after it
	due, again := d.Due(fired[0].(DueMsg))
	if !due || again != nil || len(fired) != 1 {
		t.Fatalf("due %v, timers %d: the Asks rested longer than the wait, want the work due now", due, len(fired))
	}
}
