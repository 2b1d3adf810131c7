package agents

import (
	"errors"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// Messages of the panel's commands.
type (
	// treeLoadedMsg carries a loaded tree (or why there is none).
	treeLoadedMsg struct {
		gen  int
		file string
		tree *subagent.Tree
		// contexts are the agents' context estimates against Pi's model
		// catalog, by path (worked out here: the catalog decodes a
		// provider's models on first use).
		contexts map[string]subagent.ContextEstimate
		err      error
		// stamps are the files to poll for changes; at is when the
		// tree was read.
		stamps []common.FileStamp
		at     time.Time
	}
	// activityMsg carries an agent's recent activity.
	activityMsg struct {
		key   string
		items []subagent.ActivityItem
		err   error
	}
)

// activityResult is the recent activity of one agent session state.
type activityResult struct {
	items []subagent.ActivityItem
	err   error
}

// loadTreeCmd opens the tree of a root session and reads every agent's
// statistics (through the panel's cache, so a reload re-reads only the
// files that changed). Each file is stamped before it is read, so a change
// made while reading shows at the next poll.
func loadTreeCmd(svc *services.Services, file string, gen int, cache *subagent.Cache, clock func() time.Time) tea.Cmd {
	ws := svc.Workspace()
	return func() tea.Msg {
		cat, _ := svc.Catalog()
		opts := subagent.Options{Catalog: cat, Cache: cache}
		if cfg := subagent.LoadConfig(ws.AgentDir, ws.Cwd, ws.Trust.Trusted); cfg.Valid() {
			opts.MaxConcurrentAgents = cfg.Values.MaxConcurrentAgents
		}
		stamps := controlStamps(file)
		tree, err := subagent.Open(file, opts)
		if err != nil {
			return treeLoadedMsg{gen: gen, file: file, err: err, at: clock()}
		}
		stamps = append(stamps, sidecarStamps(tree)...)
		tree.Summaries()
		stamps = append(stamps, sessionStamps(tree)...)
		contexts := make(map[string]subagent.ContextEstimate, len(tree.Agents))
		for _, a := range tree.Agents {
			contexts[a.Path] = a.Context(cat)
		}
		return treeLoadedMsg{gen: gen, file: file, tree: tree, contexts: contexts, stamps: stamps, at: clock()}
	}
}

// activityKey names an agent's activity for one state of its file: the
// digest's size changes whenever the agent writes.
func activityKey(a *subagent.Agent) string {
	size := int64(-1)
	if a.Summary != nil {
		size = a.Summary.Size
	}
	return a.Path + "\x00" + a.File + "\x00" + strconv.FormatInt(size, 10)
}

// activityCmd reads an agent's session for its recent activity.
func activityCmd(a *subagent.Agent) tea.Cmd {
	key, file := activityKey(a), a.File
	return func() tea.Msg {
		if file == "" {
			return activityMsg{key: key, err: errors.New(i18n.T("the agent's session file is missing"))}
		}
		s, err := session.OpenForDisplay(file) // a display path: runaway lines are skipped
		if err != nil {
			return activityMsg{key: key, err: i18n.Errorf("read activity: %w", err)}
		}
		return activityMsg{key: key, items: subagent.Activity(s, subagent.ActivityItems)}
	}
}

// noSelection is shown until the Session panel selects a session.
var noSelection = i18n.Mark("No session selected: open a pi-subagent root session in the Session panel (3).")

// follow switches the panel to the tree of file (the selected session);
// an unchanged selection keeps what is loaded.
func (m *Model) follow(file string) tea.Cmd {
	if m.live.holds(file) {
		return nil
	}
	m.live.reset(file)
	if m.jump != nil && m.jump.root != file {
		m.jump = nil // another root session: the jump no longer applies
	}
	m.status = ""
	m.agents.clear()
	m.stopTranscript()
	m.screen = screenDashboard
	if file == "" {
		m.live.problem = problem{key: noSelection}
		return nil
	}
	return m.reload()
}

// reload reads the current root session's tree again.
func (m *Model) reload() tea.Cmd { return m.live.load(m.com.Services(), m.com.Clock) }

// applyTree takes a loaded tree.
func (m *Model) applyTree(msg treeLoadedMsg) tea.Cmd {
	if !m.live.take(msg) {
		return nil
	}
	m.now = msg.at
	if msg.err != nil {
		m.agents.rows.SetItems(nil)
		if errors.Is(msg.err, subagent.ErrNoTree) {
			return m.schedulePoll() // its first agent shows when the root delegates
		}
		return nil
	}
	m.rebuildRows()
	if m.screen == screenTimeline {
		m.refreshTimeline()
	}
	return tea.Batch(m.requestActivity(), m.schedulePoll(), m.takeJump())
}

// rebuildRows applies the list's filters to the loaded tree; the detail
// starts from the top when the cursor lands on another agent.
func (m *Model) rebuildRows() {
	if m.agents.rebuild(m.live.tree, m.now) {
		m.detail.reset()
	}
}

// requestActivity reads the selected agent's activity unless it is known
// or already being read.
func (m *Model) requestActivity() tea.Cmd {
	a := m.selected()
	if a == nil {
		return nil
	}
	k := activityKey(a)
	if _, ok := m.activity[k]; ok || m.activityAt[k] {
		return nil
	}
	m.activityAt[k] = true
	return activityCmd(a)
}

// applyActivity stores an activity result (bounded: the oldest go when
// the map grows past a few hundred agents).
func (m *Model) applyActivity(msg activityMsg) {
	delete(m.activityAt, msg.key)
	if len(m.activity) > 512 {
		clear(m.activity)
	}
	m.activity[msg.key] = activityResult{items: msg.items, err: msg.err}
}

// tailOwner names the panel's follower (follower.New).
const tailOwner = "agents"

// tailLines parses the lines a tail event brings, in the follower's
// waiting command (blank, malformed and header lines are skipped as Pi
// skips them).
func tailLines(ev session.TailEvent) any {
	var out tailLinesData
	for _, l := range ev.Lines {
		if e, err := session.ParseEntryLine(l.Data, 0); err == nil && e.Type != session.TypeSession {
			out.entries = append(out.entries, e)
		}
		out.end = max(out.end, l.Offset+int64(len(l.Data))+1)
	}
	return out
}

// tailLinesData is a tail event's lines, parsed; end is where they end in
// the file.
type tailLinesData struct {
	entries []*session.Entry
	end     int64
}

// clock formats a Unix-millisecond time as HH:mm:ss ("--:--:--" unknown).
func clock(ms float64) string {
	if ms != ms || ms <= 0 {
		return "--:--:--"
	}
	return time.UnixMilli(int64(ms)).Local().Format("15:04:05")
}
