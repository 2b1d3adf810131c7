package presets

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// The panel's appends to the selected session (profile use and forget,
// Preset use) go one way: a command plans the change off the loop with
// the planner the CLI uses (services, capstate) under the rules of every
// append (the session's own project and its trust, a usable leaf, the
// selected entry is the leaf, no Pi running, not live), a dialog shows
// what confirming will append (or why nothing will be written), and
// confirming appends through session.Append against the file as it was
// read.

// sessionWrite is one planned append to the selected session.
type sessionWrite struct {
	// title is the dialog's question; what names the change in the
	// status ("profile project:x").
	title, what string
	file        string
	// session names the session for the user (its title).
	session string
	// project is the workbench's project, which the append must belong to.
	project string
	guard   session.Guard
	entries []session.NewEntry
	// errors mean nothing will be written; warnings and notes are said
	// before the entries.
	errors, warnings, notes []string
	// done is pi-forge's message once written; nothing is said instead
	// when the change appends nothing.
	done, nothing string
}

// canWrite reports whether confirming appends anything.
func (w *sessionWrite) canWrite() bool { return len(w.errors) == 0 && len(w.entries) > 0 }

type (
	// sessionPlannedMsg carries a planned append (or why it could not be
	// planned).
	sessionPlannedMsg struct {
		w   *sessionWrite
		err error
	}
	// sessionAppendedMsg reports the append of a confirmed write.
	sessionAppendedMsg struct {
		w     *sessionWrite
		wrote common.FileStamp
		err   error
	}
)

// writeTarget is the selected session opened for an append, with the
// refusals that hold whatever is appended.
type writeTarget struct {
	s  *session.Session
	ws resources.Workspace
	// blocked are the refusals found; the plan goes on without writing.
	blocked []string
}

// openWriteTarget reads the selected session for an append (off the
// loop) and checks the rules every append follows, as the CLI's
// openTarget does: the session's project is the workbench's (trust,
// Presets and capabilities come from there), its leaf has a usable id,
// the selected entry is that leaf, no Pi runs in the project and the file
// does not look live (unless last written by this panel: last).
func openWriteTarget(svc *services.Services, file, entry string, last common.FileStamp, now time.Time) (*writeTarget, error) {
	ws := svc.Workspace()
	s, err := session.Open(file)
	if err != nil {
		return nil, wrapText(err, i18n.T("read session %s: %v", file, err))
	}
	t := &writeTarget{s: s, ws: ws}
	if project := s.Project(ws.Cwd); !session.SameProject(project, ws.Cwd) {
		t.blocked = append(t.blocked, i18n.T("this session belongs to project %s, not to the workbench's project %s: an append takes trust, Presets and capabilities from the session's own project. Open forgebench there (forgebench --cwd %s) to change it.", project, ws.Cwd, project))
	}
	if err := session.CheckLeaf(s); err != nil {
		t.blocked = append(t.blocked, i18n.T("this session cannot be appended to: %s.", err.Error()))
	} else if leaf, ok := s.Leaf(); ok && entry != "" && leaf.ID != entry {
		t.blocked = append(t.blocked, i18n.T("the selected entry %s is not the session's leaf %s: the change is appended at the leaf, as Pi would. Select the leaf (L in the Session panel) and ask again.", entry, leaf.ID))
	}
	if procs, err := session.FindPi(ws.Cwd); err == nil && len(procs) > 0 {
		e := &session.PiRunningError{Project: ws.Cwd, Processes: procs}
		t.blocked = append(t.blocked, i18n.T("%s; nothing will be written: close Pi first (the CLI's --force appends anyway).", e.Error()))
	}
	if st := common.StampOf(file); st.Exists && !ownWrite(file, last) {
		if why := session.LiveReason(st.ModTime, now, session.DefaultLiveWindow); why != "" {
			t.blocked = append(t.blocked, i18n.T("the file was %s, so Pi may be running on it: the panel never appends to a live session. Close Pi (or, if it is not running, wait %s) and try again; the CLI's --force overrides this check.", why, session.DefaultLiveWindow))
		}
	}
	return t, nil
}

// ownWrite reports whether file is as this panel's last append left it.
func ownWrite(file string, last common.FileStamp) bool {
	return last.Exists && last.Path == file && last.Same()
}

// untrustedAppend is the CLI's refusal of an append in an untrusted
// project (cli.untrustedProject).
func untrustedAppend(ws resources.Workspace) string {
	return i18n.T("the session's project %s is not trusted (%s): forgebench does not append to its sessions (--trust trusts it for one run)", ws.Cwd, ws.Trust.Source)
}

// needSession is the status when no session is selected.
var needSession = i18n.Mark("select a session first (panel 3): the change is appended to the selected session")

// openWriteDialog shows a planned append: the question and, when nothing
// can be written, why.
func (m *Model) openWriteDialog(msg sessionPlannedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	w := msg.w
	m.setStatus("", false)
	if len(w.errors) == 0 && len(w.entries) == 0 {
		m.setStatus(w.nothing, false)
		return nil
	}
	body := writeBody(w, common.DialogInner(m.width))
	if !w.canWrite() {
		m.openDialog(newNotice(m, w.title, body))
		return nil
	}
	m.openDialog(newConfirm(m, w.title, body+"\n\n"+i18n.T("%s appends them; %s leaves the session as it is.", m.keys.Confirm.Help().Key, m.keys.Cancel.Help().Key),
		func(m *Model, _ string) tea.Cmd {
			m.setStatus(i18n.T("appending to %s…", w.file), false)
			return appendCmd(w, m.lastWrite)
		}))
	return nil
}

// writeBody is what a write dialog says: errors (nothing will be
// written), warnings, notes, then the entries that will be appended,
// each as one line of its JSON cut to the dialog's width.
func writeBody(w *sessionWrite, width int) string {
	var b strings.Builder
	para := func(s string) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(sanitize.Text(s))
	}
	if len(w.errors) > 0 {
		para(i18n.T("Nothing will be written:"))
		for _, e := range w.errors {
			para("✗ " + e)
		}
	}
	for _, x := range w.warnings {
		para("⚠ " + x)
	}
	for _, x := range w.notes {
		para(x)
	}
	if len(w.errors) == 0 && len(w.entries) > 0 {
		para(i18n.T("%d entries will be appended at the leaf of session %s:", len(w.entries), w.session))
		for _, e := range w.entries {
			b.WriteString("\n" + sanitize.Clip(entryLine(e), max(10, width)))
		}
	}
	return b.String()
}

// entryLine is an entry to append on one line: a custom entry's type and
// data, else the entry's type and fields, as JSON.
func entryLine(e session.NewEntry) string {
	if e.Type == session.TypeCustom && e.Fields != nil {
		ct, _ := e.Fields.Get("customType") //i18n:raw JSON key
		data, _ := e.Fields.Get("data")
		if name, ok := ct.(string); ok {
			return name + " " + jsonv.Stringify(data)
		}
	}
	fields := jsonv.NewObject()
	if e.Fields != nil {
		e.Fields.Range(func(k string, v any) bool {
			fields.Set(k, v)
			return true
		})
	}
	return e.Type + " " + jsonv.Stringify(fields)
}

// appendCmd appends a confirmed write through the guarded append; each
// refusal says that nothing was written, in the CLI's words.
func appendCmd(w *sessionWrite, last common.FileStamp) tea.Cmd {
	return func() tea.Msg {
		_, err := session.Append(w.file, w.guard, w.entries, session.AppendOptions{Project: w.project, AllowContextTypes: true, RecentWriteIsOwn: ownWrite(w.file, last)})
		var wrote common.FileStamp
		if err == nil {
			wrote = common.StampOf(w.file)
		}
		switch {
		case errors.Is(err, session.ErrConflict):
			err = wrapText(err, i18n.T("the session changed since it was read (%v); nothing was written — ask again to see the change as it is now", err))
		case errors.Is(err, session.ErrNoLeafID), errors.Is(err, session.ErrForeignProject):
			err = wrapText(err, i18n.T("%v; nothing was written", err))
		case errors.Is(err, session.ErrPiRunning):
			err = wrapText(err, i18n.T("%v; nothing was written: close Pi first (the CLI's --force appends anyway)", err))
		case errors.Is(err, session.ErrLive):
			err = wrapText(err, i18n.T("%v; nothing was written — close Pi (or wait, if it is not running); the CLI's --force overrides this check", err))
		case err != nil:
			err = wrapText(err, i18n.T("append to the session: %v", err))
		}
		return sessionAppendedMsg{w: w, wrote: wrote, err: err}
	}
}

// applyAppended reports an append: pi-forge's message, the Session panel
// reads the file again (SessionWrittenMsg) and the profile status
// follows.
func (m *Model) applyAppended(msg sessionAppendedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	m.lastWrite = msg.wrote
	m.setStatus(msg.w.done, false)
	file := msg.w.file
	return tea.Batch(func() tea.Msg { return common.SessionWrittenMsg{File: file} },
		loadProfileStatusCmd(m.lib, m.com.Selection.SessionFile, ""))
}
