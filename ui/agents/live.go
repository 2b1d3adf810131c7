package agents

import (
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// The dashboard keeps up with a tree that is being written (README §25.10:
// status and usage keep refreshing, the detail's run time updates live)
// without a watcher per agent: a poll in a command compares the files the
// tree was read from with their stamps and reads the tree again, through
// the cache, only when one changed; a clock tick moves the run time of a
// running agent in the detail pane. While some agent holds a run slot the
// poll is frequent; a quiet tree, or a root session that has no tree yet,
// is polled seldom (a few stats), so a run or a first agent that starts
// later shows without r (pi-subagent marks an agent running in state.json
// before its run writes). Timers go through Common.Later and the time
// through Common.Clock, so tests fire them instead of sleeping.
const (
	// pollInterval is how often the files of a tree with an active run
	// are checked.
	pollInterval = 2 * time.Second
	// quietPollInterval is how often the files of a quiet tree (or of a
	// root session without one) are checked.
	quietPollInterval = 10 * time.Second
	// clockInterval is how often a running agent's run time moves.
	clockInterval = time.Second
)

type (
	// pollTickMsg asks for a check of the files of load gen.
	pollTickMsg struct{ gen int }
	// pollResultMsg says whether a file of load gen changed; once marks
	// a check outside the timed ones (the root session grew), which
	// schedules nothing.
	pollResultMsg struct {
		gen     int
		changed bool
		once    bool
	}
	// clockMsg moves the live run time.
	clockMsg struct{}
)

// controlStamps stamps, before a tree is read, what decides its shape: the
// root's <rootId>.subagents directory (created with the first tree) and,
// for every tree in it, the directory, state.json (rewritten at every
// registration and status change) and the sessions/ directory (a new
// agent's file). The root session itself is not polled: it grows with
// every message of the root agent, and reading it again each time would
// cost more than the dashboard is worth.
func controlStamps(rootFile string) []common.FileStamp {
	h, err := session.OpenHeader(rootFile)
	if err != nil {
		return nil
	}
	trees := filepath.Join(filepath.Dir(rootFile), h.ID+".subagents")
	out := []common.FileStamp{common.StampOf(trees)}
	dirs, _ := os.ReadDir(trees)
	for _, d := range dirs {
		dir := filepath.Join(trees, d.Name())
		out = append(out, common.StampOf(dir), common.StampOf(filepath.Join(dir, "state.json")), common.StampOf(filepath.Join(dir, "sessions")))
	}
	return out
}

// sidecarStamps stamps the telemetry sidecars before Summaries reads them.
func sidecarStamps(t *subagent.Tree) []common.FileStamp {
	var out []common.FileStamp
	for _, a := range t.Agents {
		if a.File != "" {
			out = append(out, common.StampOf(a.File+subagent.TelemetrySuffix))
		}
	}
	return out
}

// sessionStamps are the agents' session files as their digests saw them
// (the stat taken when each was opened, so growth during a read shows).
func sessionStamps(t *subagent.Tree) []common.FileStamp {
	var out []common.FileStamp
	for _, a := range t.Agents {
		switch {
		case a.File == "":
		case a.Summary != nil:
			out = append(out, common.FileStamp{Path: a.File, Exists: true, Size: a.Summary.Size, ModTime: a.Summary.ModTime})
		default:
			out = append(out, common.StampOf(a.File))
		}
	}
	return out
}

// pollCmd checks the stamps in a command.
func pollCmd(gen int, stamps []common.FileStamp, once bool) tea.Cmd {
	return func() tea.Msg {
		for _, s := range stamps {
			if !s.Same() {
				return pollResultMsg{gen: gen, changed: true, once: once}
			}
		}
		return pollResultMsg{gen: gen, once: once}
	}
}

// rootGrew checks the tree's files at once when the root session grew —
// the selection, following its leaf, moved to a new entry (the Session
// panel tails the file) — since a root that delegates or hears from an
// agent writes there: the dashboard then shows it without waiting for
// the next timed check.
func (m *Model) rootGrew(sel common.Selection) tea.Cmd {
	if sel.SessionFile != m.rootFile || !sel.AtLeaf || sel.Paused || sel.EntryID == "" {
		return nil
	}
	seen := m.rootLeaf
	m.rootLeaf = sel.EntryID
	if seen == "" || seen == sel.EntryID || m.loading || len(m.stamps) == 0 {
		return nil
	}
	return pollCmd(m.gen, m.stamps, true)
}

// schedulePoll asks for the next check of the current load's files: soon
// while the tree has an active run, seldom otherwise.
func (m *Model) schedulePoll() tea.Cmd {
	if len(m.stamps) == 0 {
		return nil
	}
	every := quietPollInterval
	if m.tree != nil && m.tree.ActiveRuns() > 0 {
		every = pollInterval
	}
	return m.com.Later(every, pollTickMsg{gen: m.gen})
}

// applyPollTick starts a check unless a newer load replaced this one.
func (m *Model) applyPollTick(msg pollTickMsg) tea.Cmd {
	if msg.gen != m.gen || m.loading {
		return nil
	}
	return pollCmd(msg.gen, m.stamps, false)
}

// applyPollResult reads the tree again when a file changed, else waits
// for the next check.
func (m *Model) applyPollResult(msg pollResultMsg) tea.Cmd {
	if msg.gen != m.gen || m.loading {
		return nil
	}
	switch {
	case msg.changed:
		return m.reload()
	case msg.once:
		return nil // the timed checks go on as they were
	}
	return m.schedulePoll()
}

// ensureClock starts the live run time when the selected agent is running
// and the clock is not ticking yet.
func (m *Model) ensureClock() tea.Cmd {
	if m.clockOn || !m.clockWanted() {
		return nil
	}
	m.clockOn = true
	return m.com.Later(clockInterval, clockMsg{})
}

// clockWanted is true while a running agent's detail is on screen.
func (m *Model) clockWanted() bool {
	a := m.selected()
	return a != nil && a.Status == subagent.StatusRunning && m.screen != screenTranscript && (m.wide() || m.screen == screenDetail)
}

// applyClock moves the time on and ticks again while it is wanted.
func (m *Model) applyClock() tea.Cmd {
	m.clockOn = false
	m.now = m.com.Clock()
	return m.ensureClock()
}
