package capabilities

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
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
		// foreign is the session's project when it is not the
		// workbench's; abandoned the batches forgebench appended that are
		// off its active branch.
		foreign   string
		abandoned []capstate.AbandonedWrite
		err       error
	}
	stateMsg struct {
		gen      int
		file     string
		entryID  string
		st       *capstate.State
		declared []string
		// callable is what the agent may enable through forge_capability
		// at the entry (the Runtime's ModelCallable, as capability status
		// --json lists it).
		callable []capability.CallableBinding
		err      error
	}
	planMsg struct {
		op   capstate.Operation
		plan *capstate.Plan
		// blocked says why nothing can be appended to this session at all
		// (another project, a leaf without a usable id); the plan is then
		// not shown. live says why not now (a running Pi, a recent or
		// future modification).
		blocked, live []string
		err           error
	}
	appliedMsg struct {
		file  string
		op    capstate.Operation
		plan  *capstate.Plan
		res   capability.Result
		wrote common.FileStamp
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

// libraryCmd reads the library again (the services' snapshot every panel
// then shares) and builds the list rows.
func libraryCmd(svc *services.Services, gen int) tea.Cmd {
	return func() tea.Msg {
		lib, err := svc.Reload()
		if err != nil {
			return libraryMsg{gen: gen, err: fmt.Errorf("load the library: %w", err)}
		}
		return libraryMsg{gen: gen, lib: lib, rows: buildRows(lib)}
	}
}

// sessionCmd opens the session file the selection names (session.Shared:
// the panels that follow the selection share one parsed copy), resolves
// its project (Pi's fallback for a header without cwd: the workbench's)
// and finds forgebench's abandoned writes in it.
func sessionCmd(file, cwd string, gen int) tea.Cmd {
	return func() tea.Msg {
		s, err := session.Shared(file)
		if err != nil {
			return sessionMsg{gen: gen, file: file, err: fmt.Errorf("open session: %w", err)}
		}
		msg := sessionMsg{gen: gen, file: file, sess: s, abandoned: capstate.AbandonedWrites(s)}
		if project := s.Project(cwd); !session.SameProject(project, cwd) {
			msg.foreign = project
		}
		return msg
	}
}

// inputsFor builds the capstate inputs: the library as pi-forge sees it
// and Pi's model catalog of the workspace.
func inputsFor(lib *resources.Library, svc *services.Services) capstate.Inputs {
	cat, _ := svc.Catalog()
	return capstate.Inputs{Workspace: lib.CapabilityWorkspace(), Catalog: cat}
}

// stateCmd computes the capability state at the entry ("" = the leaf).
func stateCmd(s *session.Session, file, entryID string, lib *resources.Library, svc *services.Services, gen int) tea.Cmd {
	return func() tea.Msg {
		index := s.LeafIndex()
		if entryID != "" {
			i, ok := s.IndexOf(entryID)
			if !ok {
				return stateMsg{gen: gen, file: file, entryID: entryID, err: fmt.Errorf("entry %s is not in %s", entryID, file)}
			}
			index = i
		}
		st, err := capstate.At(s, index, inputsFor(lib, svc), capstate.DefaultOptions(nil))
		msg := stateMsg{gen: gen, file: file, entryID: entryID, st: st, err: err}
		if err == nil && index >= 0 {
			msg.declared = replay.ToolsAt(s, index).Ever
		}
		if err == nil && st.Runtime != nil {
			msg.callable = st.Runtime.ModelCallable()
		}
		return msg
	}
}

// ownWrite reports whether the file is exactly as our last append left
// it: the panel remembers the stamp its own last append left, so a file
// that looks recently modified only because of that append is not taken
// for a live one.
func ownWrite(file string, last common.FileStamp) bool {
	return last.Exists && last.Path == file && last.Same()
}

// planCmd plans an operation on the loaded session (its guard is what the
// user has seen) under the rules every append follows: the session must
// belong to the workbench's project (ws: trust, Presets and capabilities
// come from there), its leaf must have a usable id, and no Pi may run in
// the project nor the file look live.
func planCmd(s *session.Session, file string, op capstate.Operation, lib *resources.Library, svc *services.Services, now func() time.Time, newID func() string, last common.FileStamp) tea.Cmd {
	ws := svc.Workspace()
	return func() tea.Msg {
		msg := planMsg{op: op}
		if project := s.Project(ws.Cwd); !session.SameProject(project, ws.Cwd) {
			msg.blocked = append(msg.blocked, foreignProject(project, ws.Cwd))
		}
		if err := session.CheckLeaf(s); err != nil {
			msg.blocked = append(msg.blocked, "this session cannot be appended to: "+err.Error()+".")
		}
		if len(msg.blocked) > 0 {
			return msg
		}
		opts := capstate.DefaultOptions(now)
		opts.NewID = newID
		msg.plan, msg.err = capstate.PlanAt(s, inputsFor(lib, svc), op, opts)
		if procs, err := session.FindPi(ws.Cwd); err == nil && len(procs) > 0 {
			e := &session.PiRunningError{Project: ws.Cwd, Processes: procs}
			msg.live = append(msg.live, e.Error()+". Close Pi and try again; the CLI's --force overrides this check.")
		}
		if st := common.StampOf(file); st.Exists && !ownWrite(file, last) {
			if why := session.LiveReason(st.ModTime, now(), session.DefaultLiveWindow); why != "" {
				msg.live = append(msg.live, fmt.Sprintf("the file was %s, so Pi may be running on it: the panel never appends to a live session. Close Pi (or, if it is not running, wait %s) and try again; the CLI's --force overrides this check.",
					why, session.DefaultLiveWindow))
			}
		}
		return msg
	}
}

// foreignProject says that a session belongs to another project than the
// workbench's.
func foreignProject(project, cwd string) string {
	return fmt.Sprintf("this session belongs to project %s, not to the workbench's project %s: an append takes trust, Presets and capabilities from the session's own project. Open forgebench there (forgebench --cwd %s) to change it.",
		project, cwd, project)
}

// applyCmd appends the planned entries through the guarded append in the
// workbench's project. A file last written by this panel's own append is
// not live (RecentWriteIsOwn); a running Pi and any change since the file
// was read are still refused.
func applyCmd(file string, p *capstate.Plan, project string, now func() time.Time, last common.FileStamp) tea.Cmd {
	return func() tea.Msg {
		_, err := session.Append(file, p.Guard, p.Entries(), session.AppendOptions{Now: now, RecentWriteIsOwn: ownWrite(file, last), Project: project})
		var wrote common.FileStamp
		if err == nil {
			wrote = common.StampOf(file)
		}
		switch {
		case errors.Is(err, session.ErrConflict):
			err = fmt.Errorf("the session changed since it was read (%w); nothing was written — reload with r and review again", session.ErrConflict)
		case errors.Is(err, session.ErrNoLeafID), errors.Is(err, session.ErrForeignProject):
			err = fmt.Errorf("%w; nothing was written", err)
		case errors.Is(err, session.ErrPiRunning):
			err = fmt.Errorf("%w; nothing was written — close Pi and try again; the CLI's --force overrides this check", err)
		case errors.Is(err, session.ErrLive):
			err = fmt.Errorf("the session is in use: %w; nothing was written — close Pi (or wait, if it is not running) and try again; the CLI's --force overrides this check", err)
		case err != nil:
			err = fmt.Errorf("append to the session: %w", err)
		}
		return appliedMsg{file: file, op: p.Op, plan: p, res: p.Result, wrote: wrote, err: err}
	}
}
