package agents

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
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

// liveTree is the tree of one root session as loaded, and the files it
// was read from, polled for changes: it owns the load's generation, so a
// result or a poll of an older load is dropped.
type liveTree struct {
	// rootFile is the session the tree was (or is being) loaded for;
	// rootLeaf its leaf as the selection last followed it (rootGrew).
	rootFile string
	rootLeaf string
	gen      int
	loading  bool
	tree     *subagent.Tree
	// contexts are the agents' context estimates (treeLoadedMsg).
	contexts map[string]subagent.ContextEstimate
	// treeGen is the load the shown tree came from (its numbers, mailboxes
	// and statuses are drawn for it).
	treeGen int
	// problem says why there is no tree (none while there is one).
	problem problem
	cache   *subagent.Cache
	// stamps are the files the loaded tree was read from, polled for
	// changes.
	stamps []common.FileStamp
}

func newLiveTree() *liveTree { return &liveTree{cache: subagent.NewCache()} }

// holds reports that file is the root session already loaded, being
// loaded or known to have no tree.
func (l *liveTree) holds(file string) bool {
	return file == l.rootFile && (l.tree != nil || l.loading || l.problem != problem{})
}

// reset forgets the tree for the root session file.
func (l *liveTree) reset(file string) {
	l.rootFile, l.rootLeaf = file, ""
	l.tree, l.problem, l.stamps = nil, problem{}, nil
}

// grew notes the selection's leaf on the root session: when it moved to
// a new entry, the files are checked at once (a poll command).
func (l *liveTree) grew(sel common.Selection) tea.Cmd {
	if sel.SessionFile != l.rootFile || !sel.AtLeaf || sel.Paused || sel.EntryID == "" {
		return nil
	}
	seen := l.rootLeaf
	l.rootLeaf = sel.EntryID
	if seen == "" || seen == sel.EntryID || l.loading || len(l.stamps) == 0 {
		return nil
	}
	return pollCmd(l.gen, l.stamps, true)
}

// load reads the root session's tree again (nil without one).
func (l *liveTree) load(svc *services.Services, clock func() time.Time) tea.Cmd {
	if l.rootFile == "" {
		return nil
	}
	l.gen++
	l.loading = true
	return loadTreeCmd(svc, l.rootFile, l.gen, l.cache, clock)
}

// take keeps a loaded tree, or why there is none; false when the message
// is of a load since replaced.
func (l *liveTree) take(msg treeLoadedMsg) bool {
	if msg.gen != l.gen || msg.file != l.rootFile {
		return false
	}
	l.loading = false
	l.stamps = msg.stamps
	if msg.err != nil {
		l.tree = nil
		switch {
		case errors.Is(msg.err, subagent.ErrNoTree):
			l.problem = problem{key: i18n.Mark("This session has no pi-subagent tree.")} // what to do follows (roots.go)
		case errors.Is(msg.err, subagent.ErrNotRoot):
			l.problem = problem{key: i18n.Mark("%s. Pick its root session in the Session panel (3)."), arg: msg.err.Error()}
		default:
			l.problem = problem{key: i18n.Mark("Cannot read the agent tree: %s"), arg: msg.err.Error()}
		}
		return true
	}
	l.tree, l.contexts, l.problem, l.treeGen = msg.tree, msg.contexts, problem{}, msg.gen
	return true
}

// settled reports that a poll of load gen is of the load in effect: not
// replaced by a newer one, none in flight.
func (l *liveTree) settled(gen int) bool { return gen == l.gen && !l.loading }

// pollEvery is how soon the files are checked next: soon while the tree
// has an active run, seldom otherwise (false: nothing to check).
func (l *liveTree) pollEvery() (time.Duration, bool) {
	if len(l.stamps) == 0 {
		return 0, false
	}
	if l.tree != nil && l.tree.ActiveRuns() > 0 {
		return pollInterval, true
	}
	return quietPollInterval, true
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
func (m *Model) rootGrew(sel common.Selection) tea.Cmd { return m.live.grew(sel) }

// schedulePoll asks for the next check of the current load's files.
func (m *Model) schedulePoll() tea.Cmd {
	every, ok := m.live.pollEvery()
	if !ok {
		return nil
	}
	return m.com.Later(every, pollTickMsg{gen: m.live.gen})
}

// applyPollTick starts a check unless a newer load replaced this one.
func (m *Model) applyPollTick(msg pollTickMsg) tea.Cmd {
	if !m.live.settled(msg.gen) {
		return nil
	}
	return pollCmd(msg.gen, m.live.stamps, false)
}

// applyPollResult reads the tree again when a file changed, else waits
// for the next check.
func (m *Model) applyPollResult(msg pollResultMsg) tea.Cmd {
	if !m.live.settled(msg.gen) {
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

// problem is why the panel shows no tree: a catalog key and the one
// argument it takes ("" for none), translated when drawn, so a language
// switch shows it in the new language.
type problem struct{ key, arg string }

// text is the problem in the run's language.
func (p problem) text() string {
	if p.arg != "" {
		return i18n.T(p.key, p.arg)
	}
	return i18n.T(p.key)
}
