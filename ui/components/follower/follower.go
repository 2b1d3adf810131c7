// Package follower is the panels' one way to follow a live file: a
// session.Tail run in a command, its events read one at a time in
// commands, and the tail ended when the panel lets go. The Session panel
// follows the open session with it, the Agents panel an agent's
// transcript.
//
// Every panel hears every command result, so the messages name their
// Follower (Owner) and tail (Gen): a panel acts on its own and cancels a
// tail of its own that arrives after it let go.
package follower

import (
	"context"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// gens numbers the tails of the process, so no two share a Gen.
var gens atomic.Uint64

// Follower is one panel's tail of one file at a time. The zero value
// follows nothing; a panel keeps it for its life (New names it).
type Follower struct {
	owner  string
	gen    uint64
	file   string
	cancel context.CancelFunc
	events <-chan session.TailEvent
	// prepare runs in the waiting command on every event (Prepare).
	prepare func(session.TailEvent) any
}

// New is the Follower of owner (a name no other panel uses).
func New(owner string) Follower { return Follower{owner: owner} }

// Prepare sets work done on every event in the waiting command, off the
// update loop (the Agents panel parses the new lines there); its result
// arrives as EventMsg.Data.
func (f *Follower) Prepare(fn func(session.TailEvent) any) { f.prepare = fn }

// StartedMsg reports that a tail began, or why it did not.
type StartedMsg struct {
	Owner  string
	Gen    uint64
	Events <-chan session.TailEvent
	Cancel context.CancelFunc
	Err    error
}

// EventMsg is one event of a tail; OK is false when the tail ended. Data
// is what Prepare made of the event.
type EventMsg struct {
	Owner string
	Gen   uint64
	Event session.TailEvent
	OK    bool
	Data  any
}

// File is the file followed or being started ("" none).
func (f *Follower) File() string { return f.file }

// Gen numbers the current tail (tests send events of it).
func (f *Follower) Gen() uint64 { return f.gen }

// Running reports whether the tail's events flow.
func (f *Follower) Running() bool { return f.events != nil }

// Start ends any tail and follows file from offset with opts; the tail
// starts in the returned command and reports with a StartedMsg.
func (f *Follower) Start(file string, offset int64, opts session.TailOptions) tea.Cmd {
	f.Stop()
	f.gen = gens.Add(1)
	f.file = file
	owner, gen := f.owner, f.gen
	return func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		events, err := session.TailWithOptions(ctx, file, offset, opts)
		if err != nil {
			cancel()
			return StartedMsg{Owner: owner, Gen: gen, Err: i18n.Errorf("follow %s: %w", file, err)}
		}
		return StartedMsg{Owner: owner, Gen: gen, Events: events, Cancel: cancel}
	}
}

// Stop ends the tail (its goroutine closes the channel when the context
// ends); its later messages are ignored.
func (f *Follower) Stop() {
	if f.cancel != nil {
		f.cancel()
	}
	f.file, f.cancel, f.events = "", nil, nil
}

// Started takes a StartedMsg: mine is false for another Follower's. A tail
// that is not the current one (stopped or replaced since) is cancelled
// and current is false. A current tail that could not start is stopped
// and its error returned; one that did is running, and wait reads its
// first event.
func (f *Follower) Started(msg StartedMsg) (mine, current bool, wait tea.Cmd, err error) {
	if msg.Owner != f.owner {
		return false, false, nil, nil
	}
	if msg.Gen != f.gen || f.file == "" {
		if msg.Cancel != nil {
			msg.Cancel()
		}
		return true, false, nil, nil
	}
	if msg.Err != nil {
		f.Stop()
		return true, true, nil, msg.Err
	}
	f.cancel, f.events = msg.Cancel, msg.Events
	return true, true, f.Wait(), nil
}

// Current reports whether msg is an event of this Follower's current
// tail; a panel ignores the others.
func (f *Follower) Current(msg EventMsg) bool {
	return msg.Owner == f.owner && msg.Gen == f.gen && f.file != ""
}

// Wait reads the next event of the running tail in a command (nil when
// none runs).
func (f *Follower) Wait() tea.Cmd {
	events, owner, gen, prepare := f.events, f.owner, f.gen, f.prepare
	if events == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-events
		msg := EventMsg{Owner: owner, Gen: gen, Event: ev, OK: ok}
		if ok && prepare != nil {
			msg.Data = prepare(ev)
		}
		return msg
	}
}
