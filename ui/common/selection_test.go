package common_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	. "github.com/forgebench/forgebench/ui/common"
)

// Only the newest Ask of a Debounce comes due, once; another Debounce's
// message is never its own.
func TestDebounceLetsOnlyTheNewestComeDue(t *testing.T) {
	var fired []tea.Msg
	com := &Common{Timer: func(_ time.Duration, msg tea.Msg) tea.Cmd { fired = append(fired, msg); return nil }}
	var d, other Debounce
	for i := 0; i < 3; i++ {
		d.Ask(com, FollowDelay)
	}
	other.Ask(com, FollowDelay)
	if !d.Waiting() || len(fired) != 4 {
		t.Fatalf("waiting %v, %d timers", d.Waiting(), len(fired))
	}
	var due []int
	for i, msg := range fired {
		if d.Due(msg.(DueMsg)) {
			due = append(due, i)
		}
	}
	if len(due) != 1 || due[0] != 2 || d.Waiting() {
		t.Fatalf("due %v (want only the third Ask), waiting %v", due, d.Waiting())
	}
	if d.Due(fired[2].(DueMsg)) {
		t.Fatal("the same message came due twice")
	}
	d.Ask(com, FollowDelay)
	d.Cancel()
	if d.Due(fired[len(fired)-1].(DueMsg)) {
		t.Fatal("a cancelled Ask came due")
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
