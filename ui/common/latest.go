package common

import tea "charm.land/bubbletea/v2"

// Latest keeps the work that follows a value changing faster than it can
// be computed (the selection while a key is held over a long timeline) to
// one run at a time. Asked while a run is in flight, it only remembers the
// newest value, which starts when that run ends; the values in between are
// never computed, so holding ↓ costs one run at a time and the last one
// shown is always the newest. A run is named by the generation the panel
// gives it (never 0), so a result the panel drops as stale still ends it.
type Latest[T any] struct {
	running int // the generation of the run in flight; 0: none
	waiting bool
	next    T
}

// Start begins a run for v and returns its generation and command; a zero
// generation means nothing was started.
type Start[T any] func(v T) (gen int, cmd tea.Cmd)

// Ask starts a run for v now when none is in flight, else keeps v as the
// value to run next (replacing an older waiting one).
func (l *Latest[T]) Ask(v T, start Start[T]) tea.Cmd {
	if l.running != 0 {
		l.next, l.waiting = v, true
		return nil
	}
	gen, cmd := start(v)
	l.running = gen
	return cmd
}

// Continue says the run gen goes on as generation next (its second step).
func (l *Latest[T]) Continue(gen, next int) {
	if gen != 0 && l.running == gen {
		l.running = next
	}
}

// Done ends the run gen when it is the one in flight (call it with the
// generation of every result, used or dropped) and starts the waiting
// value, if any.
func (l *Latest[T]) Done(gen int, start Start[T]) tea.Cmd {
	if gen == 0 || l.running != gen {
		return nil
	}
	l.running = 0
	if !l.waiting {
		return nil
	}
	l.waiting = false
	return l.Ask(l.next, start)
}

// Busy reports whether a run is in flight.
func (l *Latest[T]) Busy() bool { return l.running != 0 }
