package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
)

// Large session files are memory-mapped (session.GuardFaults explains the
// risk): if another process truncates one while a panel shows it, touching
// the lost bytes faults. The root runs Update, View and every command with
// faults turned into session.ErrFileChanged, so the workbench reports the
// change in the footer instead of crashing.

// fileChangedMsg carries the fault a command met.
type fileChangedMsg struct{ err error }

// fileChangedStatus is the footer text for a fault.
func fileChangedStatus(err error) string {
	return i18n.T("%s — reload it (r)", sanitize.Line(err.Error()))
}

// guardCmd runs cmd under session.GuardFaults. A batch it returns is
// guarded command by command, as bubbletea runs each on its own goroutine.
func guardCmd(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		var msg tea.Msg
		if err := session.GuardFaults(func() error { msg = cmd(); return nil }); err != nil {
			return fileChangedMsg{err: err}
		}
		if batch, ok := msg.(tea.BatchMsg); ok {
			guarded := make(tea.BatchMsg, len(batch))
			for i, c := range batch {
				guarded[i] = guardCmd(c)
			}
			return guarded
		}
		return msg
	}
}

// joinAnd joins what quitting would discard: "a and b and c".
func joinAnd(items []string) string {
	out := ""
	for i, it := range items {
		if i == 0 {
			out = it
			continue
		}
		out = i18n.T("%s and %s", out, it)
	}
	return out
}
