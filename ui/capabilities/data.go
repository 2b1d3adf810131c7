package capabilities

import (
	"errors"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/catalog"
)

// Messages produced by the panel's commands. Every one carries the
// generation it was started for; results of older generations are dropped.
type (
	libraryMsg struct {
		gen  int
		lib  *resources.Library
		rows []libRow
		err  error
	}
	sessionMsg struct {
		gen  int
		file string
		sess *session.Session
		err  error
	}
	stateMsg struct {
		gen      int
		file     string
		entryID  string
		st       *capstate.State
		declared []string
		err      error
	}
	planMsg struct {
		op   capstate.Operation
		plan *capstate.Plan
		// live is set when the file was modified within the live window.
		live string
		err  error
	}
	appliedMsg struct {
		file  string
		op    capstate.Operation
		res   capability.Result
		wrote fileStamp
		err   error
	}
	savedMsg struct {
		key string
		res resources.WriteResult
		err error
	}
	deletedMsg struct {
		key string
		err error
	}
	detailMsg struct {
		key   detailKey
		lines []string
	}
)

// libraryCmd loads the library snapshot and builds the list rows.
func libraryCmd(ws resources.Workspace, gen int) tea.Cmd {
	return func() tea.Msg {
		lib, err := resources.LoadLibrary(ws)
		if err != nil {
			return libraryMsg{gen: gen, err: fmt.Errorf("load the library: %w", err)}
		}
		return libraryMsg{gen: gen, lib: lib, rows: buildRows(lib)}
	}
}

// sessionCmd opens the session file the selection names (session.Shared:
// the panels that follow the selection share one parsed copy).
func sessionCmd(file string, gen int) tea.Cmd {
	return func() tea.Msg {
		s, err := session.Shared(file)
		if err != nil {
			return sessionMsg{gen: gen, file: file, err: fmt.Errorf("open session: %w", err)}
		}
		return sessionMsg{gen: gen, file: file, sess: s}
	}
}

// inputsFor builds the capstate inputs: the library as pi-forge sees it
// and Pi's model catalog of the agent directory.
func inputsFor(lib *resources.Library, agentDir string) capstate.Inputs {
	cat, _ := catalog.Shared(agentDir)
	return capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat}
}

// stateCmd computes the capability state at the entry ("" = the leaf).
func stateCmd(s *session.Session, file, entryID string, lib *resources.Library, agentDir string, gen int) tea.Cmd {
	return func() tea.Msg {
		index := s.LeafIndex()
		if entryID != "" {
			i, ok := s.IndexOf(entryID)
			if !ok {
				return stateMsg{gen: gen, file: file, entryID: entryID, err: fmt.Errorf("entry %s is not in %s", entryID, file)}
			}
			index = i
		}
		st, err := capstate.At(s, index, inputsFor(lib, agentDir), capstate.DefaultOptions(nil))
		msg := stateMsg{gen: gen, file: file, entryID: entryID, st: st, err: err}
		if err == nil && index >= 0 {
			msg.declared = s.ToolsAt(index).Ever
		}
		return msg
	}
}

// fileStamp is a file's size and modification time: the panel remembers
// the stamp its own last append left, so a file that looks recently
// modified only because of that append is not taken for a live one.
type fileStamp struct {
	file  string
	size  int64
	mtime time.Time
}

func stampOf(file string) (fileStamp, bool) {
	fi, err := os.Stat(file)
	if err != nil {
		return fileStamp{}, false
	}
	return fileStamp{file: file, size: fi.Size(), mtime: fi.ModTime()}, true
}

// ownWrite reports whether the file is exactly as our last append left it.
func ownWrite(file string, last fileStamp) bool {
	st, ok := stampOf(file)
	return ok && last.file == file && st.size == last.size && st.mtime.Equal(last.mtime)
}

// planCmd plans an operation on the loaded session (its guard is what the
// user has seen) and notes whether the file looks live.
func planCmd(s *session.Session, file string, op capstate.Operation, lib *resources.Library, agentDir string, now func() time.Time, newID func() string, last fileStamp) tea.Cmd {
	return func() tea.Msg {
		opts := capstate.DefaultOptions(now)
		opts.NewID = newID
		p, err := capstate.PlanAt(s, inputsFor(lib, agentDir), op, opts)
		msg := planMsg{op: op, plan: p, err: err}
		if st, ok := stampOf(file); ok && !ownWrite(file, last) {
			if age := now().Sub(st.mtime); age < session.DefaultLiveWindow && age > -session.DefaultLiveWindow {
				msg.live = fmt.Sprintf("the file was modified %s ago, so Pi may be running on it: the panel never appends to a live session. Close Pi (or, if it is not running, wait %s) and try again; the CLI's --force overrides this check.",
					age.Round(time.Second), session.DefaultLiveWindow)
			}
		}
		return msg
	}
}

// applyCmd appends the planned entries through the guarded append. A file
// last written by this panel's own append is not live (force); the guard
// still refuses any change since it was read.
func applyCmd(file string, p *capstate.Plan, now func() time.Time, last fileStamp) tea.Cmd {
	return func() tea.Msg {
		_, err := session.Append(file, p.Guard, p.Entries(), session.AppendOptions{Now: now, Force: ownWrite(file, last)})
		var wrote fileStamp
		if err == nil {
			wrote, _ = stampOf(file)
		}
		switch {
		case errors.Is(err, session.ErrConflict):
			err = fmt.Errorf("the session changed since it was read (%w); nothing was written — reload with r and review again", session.ErrConflict)
		case errors.Is(err, session.ErrLive):
			err = fmt.Errorf("the session is in use: it was modified in the last %s; nothing was written — close Pi (or wait, if it is not running) and try again; the CLI's --force overrides this check", session.DefaultLiveWindow)
		case err != nil:
			err = fmt.Errorf("append to the session: %w", err)
		}
		return appliedMsg{file: file, op: p.Op, res: p.Result, wrote: wrote, err: err}
	}
}
