package sessions

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// copiedMsg is a text ready for the clipboard, or why it is not; the
// note goes to the pane where the copy was asked for.
type copiedMsg struct {
	pane pane
	text string
	note string
	err  error
}

// copyEntry copies entry idx to the system clipboard (OSC 52): a message's
// text (tool output for tool results), otherwise the entry's JSON line.
// Decoding runs in a command; the text is sanitised first because
// clipboards end up pasted into terminals.
func (m *Model) copyEntry(idx int, from pane) tea.Cmd {
	if m.ls == nil || idx < 0 || idx >= len(m.ls.rows) {
		return nil
	}
	ls := m.ls
	return func() tea.Msg {
		text := transcript.Text(&ls.sess.Entries[idx])
		return copiedMsg{pane: from, text: text, note: fmt.Sprintf("copied entry %s (%d chars)", ls.entryID(idx), len([]rune(text)))}
	}
}

// copyContext copies the context at entry idx as the provider receives
// it: the provider messages as JSON, with the system prompt as Pi
// presents it to the entry's model (session.SystemPromptAt).
func (m *Model) copyContext(idx int, from pane) tea.Cmd {
	if m.ls == nil || idx < 0 || idx >= len(m.ls.rows) {
		return nil
	}
	ls, agentDir := m.ls, m.com.Workspace.AgentDir
	return func() tea.Msg {
		cat, _ := catalog.Shared(agentDir) // the root reports models.json problems
		msgs, err := providerMessages(ls, idx, cat)
		if err != nil {
			return copiedMsg{pane: from, err: err}
		}
		text := jsonv.StringifyIndent(msgs, "  ")
		return copiedMsg{pane: from, text: text,
			note: fmt.Sprintf("copied the context at %s (%d messages, %d chars)", ls.entryID(idx), len(msgs), len([]rune(text)))}
	}
}

// providerMessages are the messages the provider receives at entry idx:
// convertToLlm's output with each system message replaced by the text Pi
// renders for it.
func providerMessages(ls *loadedSession, idx int, cat *catalog.Catalog) ([]any, error) {
	ctx, err := ls.sess.Context(idx)
	if err != nil {
		return nil, fmt.Errorf("rebuild context at entry %d: %w", idx, err)
	}
	msgs := ctx.LLMMessages()
	if sp, err := session.SystemPromptAt(ls.sess, idx); err == nil {
		pres := sp.PresentationIn(cat)
		msgs = append([]any(nil), pres.Messages...)
		for _, ps := range pres.System {
			if ps.Position >= 0 && ps.Position < len(msgs) {
				sys := jsonv.NewObject()
				sys.Set("role", session.RoleSystem)
				sys.Set("content", ps.Text)
				msgs[ps.Position] = sys
			}
		}
	}
	return msgs, nil
}

// applyCopied puts a ready text on the clipboard and says so in the pane
// it was asked from.
func (m *Model) applyCopied(msg copiedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setStatus(msg.pane, "copy: "+msg.err.Error(), true)
	}
	return tea.Batch(tea.SetClipboard(msg.text), m.setStatus(msg.pane, msg.note, false))
}
