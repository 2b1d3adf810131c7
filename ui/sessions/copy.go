package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session"
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
		return tea.SetClipboard(entryText(&ls.sess.Entries[idx]))()
	}
}

// entryText is the copyable text of an entry.
func entryText(e *session.Entry) string {
	p, err := e.Payload()
	if err != nil {
		return Sanitize(string(e.Raw))
	}
	msg, ok := p.(*session.Message)
	if !ok {
		return Sanitize(prettyJSON(e.Raw))
	}
	var parts []string
	switch msg.Role {
	case session.RoleBashExecution:
		parts = append(parts, "$ "+msg.Command, msg.Output)
	case session.RoleBranchSummary, session.RoleCompactionSummary:
		parts = append(parts, msg.Summary)
	default:
		if msg.Content.IsString {
			parts = append(parts, msg.Content.Text)
		}
		for _, b := range msg.Content.Blocks {
			switch b.Type {
			case session.BlockText:
				parts = append(parts, b.Text)
			case session.BlockToolCall:
				parts = append(parts, b.Name+" "+prettyJSON(b.Arguments))
			}
		}
	}
	return Sanitize(strings.Join(parts, "\n\n"))
}
