package common_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	. "github.com/forgebench/forgebench/ui/common"
)

// Holding a key: ten values asked while the first runs start two runs in
// all, the first and the newest.
func TestLatestRunsOneAtATimeAndEndsOnTheNewest(t *testing.T) {
	var l Latest[int]
	gen := 0
	var started []int
	start := func(v int) (int, tea.Cmd) {
		gen++
		started = append(started, v)
		return gen, nil
	}
	for v := 1; v <= 10; v++ {
		l.Ask(v, start)
	}
	if len(started) != 1 || started[0] != 1 || !l.Busy() {
		t.Fatalf("asked while busy, only the first runs: %v", started)
	}
	l.Done(99, start) // a result of some other run changes nothing
	if len(started) != 1 {
		t.Fatal("a result of another run ended the run in flight")
	}
	l.Done(1, start)
	if len(started) != 2 || started[1] != 10 {
		t.Fatalf("the run's end starts the newest waiting value: %v", started)
	}
	l.Continue(2, 3) // the second run has a second step
	l.Done(2, start)
	if !l.Busy() {
		t.Fatal("the end of the first step is not the end of the run")
	}
	l.Done(3, start)
	if l.Busy() || len(started) != 2 {
		t.Fatalf("nothing waits: idle, no more runs (%v)", started)
	}
	l.Ask(11, func(int) (int, tea.Cmd) { return 0, nil }) // started nothing
	if l.Busy() {
		t.Fatal("a start that starts nothing leaves the helper idle")
	}
}
