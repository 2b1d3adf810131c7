package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The quit guard: q, ctrl+c and the palette's Quit quit at once unless a
// panel holds unsaved work (common.Guard); then the root asks first, a
// question on its dialog stack (Model.dialogs) over the whole screen. It
// takes every key and gives the footer; y quits, n (or esc) keeps
// working. The stack's Dismiss binding is left empty: the question is
// answered by the confirm keys only.

// answer is a root dialog's decision, run by the root on itself.
type answer func(m *Model) tea.Cmd

// quitQuestion is "Quit forgebench?", naming what quitting discards.
type quitQuestion struct {
	com     *common.Common
	confirm common.Confirm
}

// Update implements dialog.Dialog: yes quits, no closes the question.
func (q *quitQuestion) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil, nil
	}
	switch q.confirm.Answer(k) {
	case common.Yes:
		return true, answer(func(*Model) tea.Cmd { return tea.Quit }), nil
	case common.No:
		return true, nil, nil
	}
	return false, nil, nil
}

// View implements dialog.Dialog.
func (q *quitQuestion) View(width, height int) string {
	return q.confirm.View(&q.com.Styles, width, height)
}

// ShortHelp implements dialog.Dialog: the answers, the footer while it asks.
func (q *quitQuestion) ShortHelp() []key.Binding {
	return []key.Binding{q.confirm.Yes, q.confirm.No}
}

// requestQuit quits at once unless a panel holds unsaved work; then it
// asks first, naming what would be discarded (in place of a question
// already open).
func (m *Model) requestQuit() tea.Cmd {
	var unsaved []string
	for _, p := range m.panels {
		if g, ok := p.(common.Guard); ok {
			if what, dirty := g.Unsaved(); dirty {
				unsaved = append(unsaved, what)
			}
		}
	}
	if len(unsaved) == 0 {
		return tea.Quit
	}
	m.dialogs.Replace(&quitQuestion{com: m.com, confirm: common.Confirm{
		Title: i18n.T("Quit forgebench?"),
		Body:  i18n.T("Quitting now discards %s. Answer %s to keep working and save first.", joinAnd(unsaved), m.keys.Confirm.No.Help().Key),
		Yes:   m.keys.Confirm.Yes,
		No:    m.keys.Confirm.No,
	}})
	return nil
}

// openQuitQuestion is the quit question while it asks (nil otherwise).
func (m *Model) openQuitQuestion() *quitQuestion {
	q, _ := m.dialogs.Top().(*quitQuestion)
	return q
}

// dialogKey hands a key to the root's dialog stack and runs the answer
// it gives back.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	ans, cmd := m.dialogs.Update(msg)
	if run, ok := ans.(answer); ok && run != nil {
		return tea.Batch(cmd, run(m))
	}
	return cmd
}
