package session

import (
	"fmt"
	"os"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/resources"
	pis "github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// Messages produced by the panel's commands.
type (
	// discoveredMsg carries the sessions of the workspace's cwd.
	discoveredMsg struct {
		items []pis.ListItem
		err   error
		all   bool
	}
	// loadedMsg carries an opened session (or why it could not open).
	loadedMsg struct {
		gen  int
		file string
		ls   *loadedSession
		err  error
	}
	// pokeMsg wakes the panel up to read its postbox.
	pokeMsg struct{}
)

// postbox holds command results until the panel's Update (or View) reads
// them. The root delivers command results only to the focused panel, so a
// result that finishes while another tab is showing would be lost; posting
// it here and returning a poke (or a broadcast SelectionChangedMsg) makes
// delivery independent of which tab is open.
type postbox struct {
	mu   sync.Mutex
	msgs []tea.Msg
}

func (p *postbox) put(msg tea.Msg) {
	p.mu.Lock()
	p.msgs = append(p.msgs, msg)
	p.mu.Unlock()
}

// waiting reports whether results are waiting to be read.
func (p *postbox) waiting() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.msgs) > 0
}

func (p *postbox) take() []tea.Msg {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.msgs
	p.msgs = nil
	return out
}

// post runs work in a command, posts its result and returns a poke.
func (p *postbox) post(work func() tea.Msg) tea.Cmd {
	return func() tea.Msg {
		if msg := work(); msg != nil {
			p.put(msg)
		}
		return pokeMsg{}
	}
}

// openSession reads and indexes a session file. It is the only place the
// panel touches session files, always inside a command.
func openSession(gen int, file string) loadedMsg {
	s, err := pis.Open(file)
	if err != nil {
		return loadedMsg{gen: gen, file: file, err: fmt.Errorf("open session %s: %w", file, err)}
	}
	return loadedMsg{gen: gen, file: file, ls: buildLoaded(file, s)}
}

// selectionOf is the selection announced for a loaded session at entry id
// ("" = its leaf).
func selectionOf(prev common.Selection, ls *loadedSession, entryID string) common.Selection {
	sel := prev
	sel.SessionFile = ls.file
	sel.SessionName = ls.name
	sel.EntryID = entryID
	return sel
}

// discoverCmd lists the sessions of the workspace's cwd and opens one of
// them: want when it is set (a selection made elsewhere), else the newest.
// Both results are posted; the command returns the new selection so the
// header follows even while another tab is showing.
// With all set it lists every project's sessions instead (Pi's /resume
// "all" scope); the selection then never changes unless nothing is open.
func (p *postbox) discoverCmd(ws resources.Workspace, gen int, want common.Selection, all bool) tea.Cmd {
	return func() tea.Msg {
		home, _ := os.UserHomeDir()
		loc, err := pis.ResolveLocations(ws.Cwd, "", os.Getenv, home)
		if ws.AgentDir != "" {
			loc.AgentDir = ws.AgentDir
		}
		var items []pis.ListItem
		if err == nil {
			if all {
				items, err = pis.ListAll(loc, pis.ListOptions{Home: home})
			} else {
				items, err = pis.ListCwd(loc, ws.Cwd, pis.ListOptions{Home: home})
			}
		}
		if err != nil {
			err = fmt.Errorf("discover sessions for %s: %w", ws.Cwd, err)
		}
		p.put(discoveredMsg{items: items, err: err, all: all})
		file := want.SessionFile
		if file == "" && len(items) > 0 {
			file = items[0].Path
		}
		if file == "" {
			return pokeMsg{}
		}
		loaded := openSession(gen, file)
		p.put(loaded)
		if loaded.ls == nil {
			return pokeMsg{}
		}
		entry := ""
		if want.SessionFile == file {
			entry = want.EntryID
		}
		return common.SelectionChangedMsg{Selection: selectionOf(want, loaded.ls, entry)}
	}
}

// openCmd opens a chosen session and announces it as the selection.
func (p *postbox) openCmd(gen int, file string, prev common.Selection) tea.Cmd {
	return func() tea.Msg {
		loaded := openSession(gen, file)
		p.put(loaded)
		if loaded.ls == nil {
			return pokeMsg{}
		}
		return common.SelectionChangedMsg{Selection: selectionOf(prev, loaded.ls, "")}
	}
}
