package sessions

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
)

// "Continue in Pi from here": the key plans Pi's fork of the open session
// at the selected entry in a command, a dialog says what will be written,
// yes writes it (in a command, exclusive create) and hands it to Pi —
// `pi --session FILE` in this terminal, the workbench suspended as for
// $EDITOR — or, without pi on PATH, copies that command.

// forkState is the fork on its way: asked (the number of the plan
// awaited, 0: none), shown in the dialog (on the panel's dialog stack),
// or being written.
type forkState struct {
	asked, next int
	// from is the pane the fork was asked in (its status speaks).
	from    pane
	writing bool
	// selectAfter is a written fork the picker's cursor goes to once the
	// sessions are listed again.
	selectAfter string
}

// forkDialog is the confirmation, a dialog.Dialog on the panel's stack:
// the planned fork and what follows it. Only its yes and no keys answer
// it; every other key is swallowed while it is open.
type forkDialog struct {
	com  *common.Common
	plan *session.Fork
	// pi is the pi executable found on PATH ("" when none: the command
	// is copied instead).
	pi      string
	project string
	confirm common.Confirm
}

type (
	// forkPlannedMsg is a plan for the dialog, or why there is none.
	forkPlannedMsg struct {
		seq     int
		plan    *session.Fork
		pi      string
		project string
		err     error
	}
	// forkWrittenMsg reports the write of a confirmed fork.
	forkWrittenMsg struct {
		dialog *forkDialog
		err    error
	}
	// piExitedMsg comes back when the Pi the workbench handed over to
	// exits.
	piExitedMsg struct {
		file string
		err  error
	}
)

// startFork plans the fork at the selected entry (C).
func (m *Model) startFork() tea.Cmd {
	idx := m.currentEntry()
	if m.ls == nil || idx < 0 || m.fork.writing {
		return nil
	}
	m.fork.next++
	m.fork.asked = m.fork.next
	seq, file, line := m.fork.asked, m.ls.file, m.ls.sess.Entries[idx].Line
	ws := m.com.Workspace
	now := m.com.Clock()
	from := m.focus
	m.fork.from = from
	return tea.Batch(m.setStatus(from, i18n.T("reading %s to plan the fork…", filepath.Base(file)), false), func() tea.Msg {
		plan, project, err := planFork(ws, file, line, now)
		msg := forkPlannedMsg{seq: seq, plan: plan, project: project, err: err}
		if err == nil {
			msg.pi, _ = exec.LookPath("pi")
		}
		return msg
	})
}

// planFork reads the session with every line Pi accepts and plans Pi's
// fork at the entry on line; the session's own project must be trusted
// (as for the CLI's session fork) and exist.
func planFork(ws resources.Workspace, file string, line int, now time.Time) (*session.Fork, string, error) {
	s, err := session.Open(file)
	if err != nil {
		return nil, "", err
	}
	project := s.Project(ws.Cwd)
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return nil, project, i18n.Errorf("the session belongs to project %s, which does not exist: Pi would not continue it there; nothing was written", project)
	}
	trust := ws.Trust
	if !session.SameProject(project, ws.Cwd) {
		override := resources.TrustFromPi
		if trust.Source == "flag" { // --trust/--no-trust hold for the run
			override = resources.TrustDeny
			if trust.Trusted {
				override = resources.TrustForce
			}
		}
		home, _ := os.UserHomeDir()
		trust = resources.ResolveTrust(project, ws.AgentDir, home, override)
	}
	if !trust.Trusted {
		return nil, project, i18n.Errorf("the session's project %s is not trusted (%s): forgebench does not fork its sessions", project, trust.Source)
	}
	i := sort.Search(len(s.Entries), func(i int) bool { return s.Entries[i].Line >= line })
	if i == len(s.Entries) || s.Entries[i].Line != line {
		return nil, project, i18n.Errorf("line %d of %s is no longer an entry: reload", line, filepath.Base(file))
	}
	plan, err := session.PlanFork(s, i, session.ForkOptions{Now: now, Cwd: project, NewSessionID: newForkSessionID})
	return plan, project, err
}

// newForkSessionID makes a fork's session id (tests fix it).
var newForkSessionID = session.NewSessionID

// applyForkPlanned opens the dialog for the plan asked last.
func (m *Model) applyForkPlanned(msg forkPlannedMsg) tea.Cmd {
	if msg.seq != m.fork.asked {
		return nil // asked again, or cancelled
	}
	m.fork.asked = 0
	if msg.err != nil {
		text := msg.err.Error()
		if errors.Is(msg.err, session.ErrCannotFork) {
			text = i18n.T("%s; nothing was written", text)
		}
		return m.setStatus(m.fork.from, i18n.T("fork: %s", text), true)
	}
	m.status[m.fork.from].Clear() // "reading …": the dialog answers it
	k := m.com.Keys.Confirm
	yes := i18n.Mark("write it and run pi")
	if msg.pi == "" {
		yes = i18n.Mark("write it and copy the command")
	}
	d := &forkDialog{com: m.com, plan: msg.plan, pi: msg.pi, project: msg.project}
	d.confirm = common.Confirm{
		Title: i18n.T("Continue in Pi from entry %s?", sanitize.Clip(msg.plan.LeafID, 40)),
		Body:  forkDialogBody(d),
		Yes:   key.NewBinding(key.WithKeys(k.Yes.Keys()...), key.WithHelp(k.Yes.Help().Key, yes)),
		No:    key.NewBinding(key.WithKeys(k.No.Keys()...), key.WithHelp(k.No.Help().Key, i18n.Mark("write nothing"))),
	}
	m.dialogs.Replace(d)
	return nil
}

// forkDialogBody says what answering yes will do, in that order.
func forkDialogBody(d *forkDialog) string {
	p := d.plan
	labels := 0
	for _, e := range p.Entries {
		if e.Relabel {
			labels++
		}
	}
	var b strings.Builder
	b.WriteString(forkWhat(p, labels))
	b.WriteString("\n\n")
	if p.LastMessage.Kind != "" {
		b.WriteString(i18n.T("Last message (%s): %s", p.LastMessage.Kind, sanitize.Clip(p.LastMessage.Text, 160)))
	} else {
		b.WriteString(i18n.T("The path holds no message yet."))
	}
	b.WriteString("\n\n" + i18n.T("New file:") + "\n" + sanitize.Line(p.File) + "\n\n")
	if d.pi != "" {
		b.WriteString(i18n.T("Then Pi opens it here (the workbench waits until Pi exits):"))
	} else {
		b.WriteString(i18n.T("pi is not on PATH: this command will be copied to continue it:"))
	}
	b.WriteString("\n" + sanitize.Line(p.Command()))
	return b.String()
}

// forkWhat is the dialog's first sentence: what the fork writes. Each case
// is one whole sentence in the catalog; the counts are phrases of their own
// (plural entries) so each takes its own plural form.
func forkWhat(p *session.Fork, labels int) string {
	entries := i18n.T("%d entries", len(p.Entries))
	leaf := sanitize.Clip(p.LeafID, 40)
	isLabel := p.LeafType == session.TypeLabel
	switch {
	case isLabel && labels > 0:
		return i18n.T("This will write a new session of %s: the path from the root to entry %s (a label, which Pi writes after the path), with its %s re-written after it, as Pi's /fork does. The session you are reading is not changed.",
			entries, leaf, i18n.T("%d labels", labels))
	case isLabel:
		return i18n.T("This will write a new session of %s: the path from the root to entry %s (a label, which Pi writes after the path), as Pi's /fork does. The session you are reading is not changed.",
			entries, leaf)
	case labels > 0:
		return i18n.T("This will write a new session of %s: the path from the root to entry %s, with its %s re-written after it, as Pi's /fork does. The session you are reading is not changed.",
			entries, leaf, i18n.T("%d labels", labels))
	}
	return i18n.T("This will write a new session of %s: the path from the root to entry %s, as Pi's /fork does. The session you are reading is not changed.",
		entries, leaf)
}

// Update implements dialog.Dialog: yes writes the fork, no writes
// nothing; the answer is the panel's to carry out.
func (d *forkDialog) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil, nil
	}
	switch d.confirm.Answer(k) {
	case common.Yes:
		return true, answer(d.write), nil
	case common.No:
		return true, answer(forkCancelled), nil
	}
	return false, nil, nil
}

// View implements dialog.Dialog.
func (d *forkDialog) View(width, height int) string {
	return d.confirm.View(&d.com.Styles, width, height)
}

// ShortHelp implements dialog.Dialog: the footer while the dialog asks.
func (d *forkDialog) ShortHelp() []key.Binding { return []key.Binding{d.confirm.Yes, d.confirm.No} }

// write is yes: the fork is written in a command.
func (d *forkDialog) write(m *Model) tea.Cmd {
	m.fork.writing = true
	return tea.Batch(m.setStatus(m.focus, i18n.T("writing the fork %s…", filepath.Base(d.plan.File)), false), writeForkCmd(d))
}

// forkCancelled is no.
func forkCancelled(m *Model) tea.Cmd {
	return m.setStatus(m.focus, i18n.T("fork cancelled: nothing was written"), false)
}

// openForkDialog is the fork dialog while it asks (nil otherwise).
func (m *Model) openForkDialog() *forkDialog {
	d, _ := m.dialogs.Top().(*forkDialog)
	return d
}

// writeForkCmd writes the planned fork with an exclusive create (never
// over an existing file) and the source's permissions.
func writeForkCmd(d *forkDialog) tea.Cmd {
	return func() tea.Msg {
		perm := fs.FileMode(0o644)
		if fi, err := os.Stat(d.plan.Source); err == nil {
			perm = fi.Mode().Perm()
		}
		err := resources.WriteFileExclusive(d.plan.File, d.plan.Data, perm)
		if errors.Is(err, fs.ErrExist) {
			err = i18n.Errorf("%s already exists; nothing was written", d.plan.File)
		}
		return forkWrittenMsg{dialog: d, err: err}
	}
}

// applyForkWritten lists the sessions again (the fork appears under its
// parent, the picker's cursor on it) and hands the fork to Pi, or copies
// the command.
func (m *Model) applyForkWritten(msg forkWrittenMsg) tea.Cmd {
	m.fork.writing = false
	if msg.err != nil {
		return m.setStatus(m.focus, i18n.T("fork: %s", msg.err.Error()), true)
	}
	p := msg.dialog.plan
	m.fork.selectAfter = p.File
	cmds := []tea.Cmd{m.reload()}
	if msg.dialog.pi == "" {
		cmds = append(cmds, tea.SetClipboard(p.Command()),
			m.setStatus(m.focus, i18n.T("pi is not on PATH: copied pi --session …/%s (the fork is written)", filepath.Base(p.File)), false))
		return tea.Batch(cmds...)
	}
	cmd := exec.Command(msg.dialog.pi, "--session", p.File)
	cmd.Dir = msg.dialog.project
	file := p.File
	cmds = append(cmds, m.setStatus(m.focus, i18n.T("running pi --session %s (the fork is written)", filepath.Base(file)), false),
		tea.ExecProcess(cmd, func(err error) tea.Msg { return piExitedMsg{file: file, err: err} }))
	return tea.Batch(cmds...)
}

// applyPiExited says how Pi ended and reads the sessions again (Pi wrote
// to the fork).
func (m *Model) applyPiExited(msg piExitedMsg) tea.Cmd {
	m.fork.selectAfter = msg.file
	if msg.err != nil {
		return tea.Batch(m.reload(), m.setStatus(m.focus, "pi --session "+filepath.Base(msg.file)+": "+msg.err.Error(), true)) //i18n:raw the command Pi was run with and its error
	}
	return tea.Batch(m.reload(), m.setStatus(m.focus, i18n.T("back from Pi (%s)", filepath.Base(msg.file)), false))
}
