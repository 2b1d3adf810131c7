package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/components/forms"
)

// A form never edits the draft itself: a key that changes a value returns
// a command whose message (forms.EditMsg) the panel applies, rebuilding the
// form from the new draft. Keys are read ahead of command results, so a
// key typed before that message is back would reach the old form and act on
// the old value (m m m or space space space cycled from the same value each
// time). The form gate holds such keys: a form's answer to a key while no
// text is typed is wrapped, and until every wrapped answer is back the keys
// that follow wait in order, then run against the rebuilt form. Text being
// typed is not held (the raw JSON view keeps its own text across rebuilds).

// formGate counts the form answers on their way and the keys waiting.
type formGate struct {
	waiting int
	queue   []tea.KeyPressMsg
}

// formReplyMsg brings back the message of a wrapped form command.
type formReplyMsg struct{ msg tea.Msg }

// updateForm hands a key to form; an answer while no text is typed is
// wrapped so the keys after it wait for it.
func (m *Model) updateForm(form forms.Form, msg tea.KeyPressMsg) (forms.Form, tea.Cmd) {
	form, cmd := form.Update(msg)
	if cmd == nil || form.CapturesInput() {
		return form, cmd
	}
	return form, m.gateCmd(cmd)
}

// gateCmd wraps cmd so the keys after it wait for its message.
func (m *Model) gateCmd(cmd tea.Cmd) tea.Cmd {
	m.gate.waiting++
	return func() tea.Msg { return formReplyMsg{msg: cmd()} }
}

// holdKey queues a key while a form answer is on its way.
func (m *Model) holdKey(msg tea.KeyPressMsg) bool {
	if m.gate.waiting == 0 {
		return false
	}
	m.gate.queue = append(m.gate.queue, msg)
	return true
}

// applyFormReply handles the message a wrapped form command produced, then
// runs the keys that waited for it (until one of them waits again).
func (m *Model) applyFormReply(msg formReplyMsg) tea.Cmd {
	m.gate.waiting = max(0, m.gate.waiting-1)
	var cmds []tea.Cmd
	switch inner := msg.msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range inner { // an edit inside a batch holds the keys too
			if c != nil {
				cmds = append(cmds, m.gateCmd(c))
			}
		}
	default:
		_, cmd := m.Update(inner)
		cmds = append(cmds, cmd)
	}
	for m.gate.waiting == 0 && len(m.gate.queue) > 0 {
		k := m.gate.queue[0]
		m.gate.queue = m.gate.queue[1:]
		cmds = append(cmds, m.handleKey(k))
	}
	return tea.Batch(cmds...)
}
