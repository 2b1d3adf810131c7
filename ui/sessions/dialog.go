package sessions

import tea "charm.land/bubbletea/v2"

// The panel's modals sit on a ui/components/dialog stack (Model.dialogs):
// today the fork's question (fork.go). The top dialog takes every key and
// gives the footer; what it decides comes back as an answer the panel
// runs on itself. The stack's Dismiss binding is left empty: a question
// is answered by its own keys only (confirm.no holds esc by default).

// answer is a dialog's decision, run by the panel on itself.
type answer func(m *Model) tea.Cmd

// dialogKey hands a key to the dialog stack and runs the answer it gives
// back.
func (m *Model) dialogKey(msg tea.Msg) tea.Cmd {
	ans, cmd := m.dialogs.Update(msg)
	if run, ok := ans.(answer); ok && run != nil {
		return tea.Batch(cmd, run(m))
	}
	return cmd
}
