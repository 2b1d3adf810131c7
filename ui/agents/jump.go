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
// pi-subagent tree): the selection names the root session, the agent's
// file and an entry. Once the root's tree is loaded the panel selects the
// agent, opens its transcript with enough pages to hold the entry and
// scrolls to the entry's header. Each jump is taken once, so the panel
// does not jump back when the selection later moves in the Session panel.

// jumpTarget is a requested jump.
type jumpTarget struct {
	path, file, entry string
	// query is the search hit's query, revealed at the entry ("" = none).
	query string
}

func (j jumpTarget) key() string { return j.file + "\x00" + j.entry }

// noteJump records the jump a selection asks for, unless already taken.
func (m *Model) noteJump(sel common.Selection) {
	if sel.AgentFile == "" {
		return
	}
	j := jumpTarget{path: sel.AgentPath, file: sel.AgentFile, entry: sel.AgentEntryID, query: sel.SearchQuery}
	if j.key() == m.jumped {
		return
	}
	if m.jump != nil && m.jump.key() == j.key() && j.query == "" {
		j.query = m.jump.query // an echo of the same jump, without its hit
	}
	m.jump = &j
}

// takeJump opens the pending jump's transcript when the loaded tree holds
// the agent.
func (m *Model) takeJump() tea.Cmd {
	j := m.jump
	if j == nil || m.tree == nil {
		return nil
	}
	a := m.jumpAgent(*j)
	if a == nil {
		return nil // another root's agent: the selection moved on
	}
	m.jump, m.jumped = nil, j.key()
	m.list.Select(func(r agentRow) bool { return r.path == a.Path })
	cmd := m.openTranscriptOf(a)
	m.tr.wantEntry, m.tr.wantQuery, m.tr.markQuery = j.entry, j.query, j.query
	return cmd
}

// jumpAgent finds the jump's agent in the tree, by file, else by path.
func (m *Model) jumpAgent(j jumpTarget) *subagent.Agent {
	want, _ := filepath.Abs(j.file)
	for _, a := range m.tree.Agents {
		if got, _ := filepath.Abs(a.File); a.File != "" && got == want {
			return a
		}
	}
	if a, ok := m.tree.Agent(j.path); ok && j.path != "" {
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
