package sessions

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
)

// followState is follow mode: a live tail of the open session file. Tail
// events only say "the file grew"; the panel then re-reads the session in
// a command and replaces its snapshot whole, at most one read at a time.
type followState struct {
	on        bool
	file      string
	gen       int // follow sessions; events of older ones are ignored
	cancel    context.CancelFunc
	events    <-chan session.TailEvent
	reloading bool
	dirty     bool // lines arrived while a reload was running
	updates   int  // reloads applied, shown in the status
}

type (
	// followStartedMsg reports that tailing began (or why it did not).
	followStartedMsg struct {
		gen    int
		events <-chan session.TailEvent
		cancel context.CancelFunc
		err    error
	}
	// tailMsg is one event of the tail, or ok=false when it ended.
	tailMsg struct {
		gen int
		ev  session.TailEvent
		ok  bool
	}
)

// toggleFollow turns follow mode on for the open session, or off.
func (m *Model) toggleFollow() tea.Cmd {
	if m.follow.on {
		m.stopFollow()
		return m.setStatus(paneTimeline, "follow off", false)
	}
	if m.ls == nil {
		return nil
	}
	m.follow = followState{on: true, file: m.ls.file, gen: m.follow.gen + 1}
	note := m.setStatus(paneTimeline, "follow: watching "+m.ls.title, false)
	gen, file, offset := m.follow.gen, m.ls.file, m.ls.sess.Size
	return tea.Batch(note, func() tea.Msg {
		ctx, cancel := context.WithCancel(context.Background())
		events, err := session.Tail(ctx, file, offset)
		if err != nil {
			cancel()
			return followStartedMsg{gen: gen, err: fmt.Errorf("follow %s: %w", file, err)}
		}
		return followStartedMsg{gen: gen, events: events, cancel: cancel}
	})
}

// stopFollow ends the tail goroutine (it closes its channel when the
// context ends).
func (m *Model) stopFollow() {
	if m.follow.cancel != nil {
		m.follow.cancel()
	}
	gen := m.follow.gen
	m.follow = followState{gen: gen}
}

func (m *Model) applyFollowStarted(msg followStartedMsg) tea.Cmd {
	if !m.follow.on || msg.gen != m.follow.gen {
		if msg.cancel != nil {
			msg.cancel()
		}
		return nil
	}
	if msg.err != nil {
		m.follow.on = false
		return m.setStatus(paneTimeline, msg.err.Error(), true)
	}
	m.follow.cancel, m.follow.events = msg.cancel, msg.events
	return m.waitTail()
}

// waitTail waits for the next tail event in a command.
func (m *Model) waitTail() tea.Cmd {
	events, gen := m.follow.events, m.follow.gen
	if events == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-events
		return tailMsg{gen: gen, ev: ev, ok: ok}
	}
}

// applyTail handles one tail event: new lines or a reset re-read the
// session (coalesced), an error is shown, the end of the tail ends follow.
func (m *Model) applyTail(msg tailMsg) tea.Cmd {
	if !m.follow.on || msg.gen != m.follow.gen {
		return nil
	}
	if !msg.ok {
		m.stopFollow()
		return m.setStatus(paneTimeline, "follow ended", false)
	}
	var cmds []tea.Cmd
	switch msg.ev.Kind {
	case session.TailLines, session.TailReset:
		if m.follow.reloading {
			m.follow.dirty = true
		} else {
			m.follow.reloading = true
			m.follow.updates++
			cmds = append(cmds, m.reloadCmd())
		}
	case session.TailError:
		if msg.ev.Err != nil {
			cmds = append(cmds, m.setStatus(paneTimeline, "follow: "+msg.ev.Err.Error(), true))
		}
	}
	return tea.Batch(append(cmds, m.waitTail())...)
}
