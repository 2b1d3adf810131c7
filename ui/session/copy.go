package session

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	pis "github.com/forgebench/forgebench/session"
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
func entryText(e *pis.Entry) string {
	p, err := e.Payload()
	if err != nil {
		return sanitize.Text(string(e.Raw))
	}
	msg, ok := p.(*pis.Message)
	if !ok {
		return sanitize.Text(prettyJSON(e.Raw))
	}
	var parts []string
	switch msg.Role {
	case pis.RoleBashExecution:
		parts = append(parts, "$ "+msg.Command, msg.Output)
	case pis.RoleBranchSummary, pis.RoleCompactionSummary:
		parts = append(parts, msg.Summary)
	default:
		if msg.Content.IsString {
			parts = append(parts, msg.Content.Text)
		}
		for _, b := range msg.Content.Blocks {
			switch b.Type {
			case pis.BlockText:
				parts = append(parts, b.Text)
			case pis.BlockToolCall:
				parts = append(parts, b.Name+" "+prettyJSON(b.Arguments))
			}
		}
	}
	return sanitize.Text(strings.Join(parts, "\n\n"))
}
