package agents

import (
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
)

// A jump to an agent's transcript (the global search's hit in a
// pi-subagent tree, common.JumpMsg): the target names the root session,
// the agent's file and an entry. The panel follows the root session and,
// once its tree is loaded and holds the agent, selects the agent, opens
// its transcript with enough pages to hold the entry and scrolls to the
// entry's header. A jump arrives once, so nothing is remembered of jumps
// already taken.

// jumpTarget is a requested jump.
type jumpTarget struct {
	root, path, file, entry string
	// query is the search hit's query, revealed at the entry ("" = none).
	query string
}

// onJump takes a jump that names an agent's transcript: the root session
// is followed and the transcript opened as soon as the tree allows.
func (m *Model) onJump(msg common.JumpMsg) tea.Cmd {
	t := msg.Target
	if t.AgentFile == "" {
		return nil
	}
	m.jump = &jumpTarget{root: t.SessionFile, path: t.AgentPath, file: t.AgentFile, entry: t.AgentEntryID, query: t.SearchQuery}
	var follow tea.Cmd
	if t.SessionFile != "" {
		follow = m.follow(t.SessionFile)
	}
	return tea.Batch(follow, m.takeJump())
}

// takeJump opens the pending jump's transcript when the loaded tree holds
// the agent.
func (m *Model) takeJump() tea.Cmd {
	j := m.jump
	if j == nil || m.live.tree == nil {
		return nil
	}
	a := m.jumpAgent(*j)
	if a == nil {
		return nil // the tree of another root: the jump waits for its own
	}
	m.jump = nil
	m.agents.rows.Select(func(r agentRow) bool { return r.path == a.Path })
	cmd := m.openTranscriptOf(a)
	m.tr.wantEntry, m.tr.wantQuery, m.tr.markQuery = j.entry, j.query, j.query
	return cmd
}

// jumpAgent finds the jump's agent in the tree, by file, else by path.
func (m *Model) jumpAgent(j jumpTarget) *subagent.Agent {
	want, _ := filepath.Abs(j.file)
	for _, a := range m.live.tree.Agents {
		if got, _ := filepath.Abs(a.File); a.File != "" && got == want {
			return a
		}
	}
	if a, ok := m.live.tree.Agent(j.path); ok && j.path != "" {
		return a
	}
	return nil
}

// pagesFor is how many of the newest pages hold the entry (all when it
// is not in the transcript).
func pagesFor(tr *subagent.Transcript, entry string) int {
	for i := len(tr.Items) - 1; i >= 0; i-- {
		if e := tr.Items[i].Entry; e != nil && e.ID == entry {
			return (len(tr.Items) - i + tr.PageSize - 1) / tr.PageSize
		}
	}
	return tr.Pages()
}

// revealRange is the lines of the entry that starts at line at: up to
// the next entry's first line (starts are the entries' first lines).
func revealRange(starts []int, at, total int) (int, int) {
	end := total
	for _, s := range starts {
		if s > at {
			end = min(end, s)
		}
	}
	return at, end
}

// entryLine is the first rendered line that heads the entry: the entry
// header shows the id after the kind ("assistant · 1a2b3c4d · …").
func entryLine(lines []string, entry string) (int, bool) {
	if entry == "" {
		return 0, false
	}
	for i, l := range lines {
		if strings.Contains(ansi.Strip(l), " · "+entry) {
			return i, true
		}
	}
	return 0, false
}
