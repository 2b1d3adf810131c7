package sessions

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/session/catalog"
	"github.com/forgebench/forgebench/ui/common"
)

// copiedMsg is a text ready for the clipboard (Y: the context), or the
// note of a copy the kit made (y: common.Copy), or why it failed; the
// note goes to the pane where the copy was asked for.
type copiedMsg struct {
	pane pane
	text string
	note string
	err  error
}

// copyEntry copies entry idx (entryWhole) through the kit; the note goes
// to pane from.
func (m *Model) copyEntry(idx int, from pane) tea.Cmd {
	w, ok := m.entryWhole(idx)
	if !ok {
		return nil
	}
	return common.Copy(w, func(note string, err error) tea.Msg { return copiedMsg{pane: from, note: note, err: err} })
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

// applyCopied puts a ready text on the clipboard (the kit's OSC 52,
// sanitised: clipboards end up pasted into terminals) and says so in the
// pane it was asked from.
func (m *Model) applyCopied(msg copiedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setStatus(msg.pane, "copy: "+msg.err.Error(), true)
	}
	if msg.text == "" {
		return m.setStatus(msg.pane, msg.note, false) // common.Copy put it there
	}
	return tea.Batch(common.Clipboard(msg.text), m.setStatus(msg.pane, msg.note, false))
}
