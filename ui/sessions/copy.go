package sessions

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/components/transcript"
)

// copyEntry copies entry idx to the system clipboard (OSC 52): a message's
// text (tool output for tool results), otherwise the entry's JSON line.
// Decoding runs in a command; the text is sanitised first because
// clipboards end up pasted into terminals.
func (m *Model) copyEntry(idx int) tea.Cmd {
	if m.ls == nil || idx < 0 || idx >= len(m.ls.rows) {
		return nil
	}
	ls := m.ls
	m.setStatus(fmt.Sprintf("copied %s", ls.rows[idx].id), false)
	return func() tea.Msg {
		return tea.SetClipboard(transcript.Text(&ls.sess.Entries[idx]))()
	}
}
