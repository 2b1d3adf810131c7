package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// Messages produced by the panel's commands.
type (
	// discoveredMsg carries the sessions of the workspace's cwd.
	discoveredMsg struct {
		items []session.ListItem
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
)

// openSession reads and indexes a session file. It is the only place the
// panel touches session files, always inside a command. The panel is a
// display path: a line above session.DisplayMaxLineBytes costs one scan
// and is skipped (a note in the status line says so). session.Shared
// hands the other panels the same parsed session, not a copy.
func openSession(gen int, file string) loadedMsg {
	s, err := session.Shared(file)
	if err != nil {
		return loadedMsg{gen: gen, file: file, err: i18n.Errorf("open session %s: %w", file, err)}
	}
	return loadedMsg{gen: gen, file: file, ls: buildLoaded(file, s)}
}

// discoverCmd lists the sessions of the workspace's cwd and opens one of
// them: want when it is set (a selection made elsewhere), else the newest.
// The listing and the opened session arrive together as a resultsMsg;
// installing the session announces the selection.
// With all set it lists every project's sessions instead (Pi's /resume
// "all" scope); the selection then never changes unless nothing is open.
func discoverCmd(svc *services.Services, gen int, want common.Selection, all bool) tea.Cmd {
	ws, home := svc.Workspace(), svc.Home()
	return func() tea.Msg {
		loc, err := svc.ReloadLocations() // a listing reads the settings again
		var items []session.ListItem
		if err == nil {
			if all {
				items, err = session.ListAll(loc, session.ListOptions{Home: home})
			} else {
				items, err = session.ListCwd(loc, ws.Cwd, session.ListOptions{Home: home})
			}
		}
		if err != nil {
			err = i18n.Errorf("discover sessions for %s: %w", ws.Cwd, err)
		}
		msgs := []tea.Msg{discoveredMsg{items: items, err: err, all: all}}
		file := want.SessionFile
		if file == "" && len(items) > 0 {
			file = items[0].Path
		}
		if file != "" {
			msgs = append(msgs, openSession(gen, file))
		}
		return resultsMsg(msgs)
	}
}

// openCmd opens a chosen session; the panel announces the selection once
// it is installed.
func openCmd(gen int, file string) tea.Cmd {
	return func() tea.Msg { return openSession(gen, file) }
}

// resultsMsg carries several results of one command, applied in order.
type resultsMsg []tea.Msg
