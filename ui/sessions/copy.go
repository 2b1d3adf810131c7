package sessions

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/i18n"
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

// copyContext copies the request at entry idx as JSON, the request
// document `payload show session:FILE#ENTRY --json` prints as
// request.payload: in the Context view the one it shows (as sent or Pi's
// context), elsewhere the one sent. A request not rebuilt yet is rebuilt
// first (in a command) and copied when it arrives.
func (m *Model) copyContext(idx int, from pane) tea.Cmd {
	if m.ls == nil || idx < 0 || idx >= len(m.ls.rows) {
		return nil
	}
	ask := copyAsk{pane: from, pi: m.mode == modeContext && m.sent.pi}
	k := m.contextKeyFor(idx)
	if res, ok := m.sent.cache[k]; ok {
		return copyResult(res, ask)
	}
	if m.sent.copies == nil {
		m.sent.copies = map[contextKey]copyAsk{}
	}
	m.sent.copies[k] = ask
	return m.rebuildNow(idx)
}

// copyResult copies one side of a rebuilt request in a command (the JSON
// of a long branch is big) and says which it copied.
func copyResult(res *contextResult, ask copyAsk) tea.Cmd {
	return func() tea.Msg {
		if res.err != nil {
			return copiedMsg{pane: ask.pane, err: res.err}
		}
		side := res.side(ask.pi)
		if side == nil {
			return copiedMsg{pane: ask.pane, err: errors.New(res.sentErr)}
		}
		what := i18n.T("the request as sent")
		switch {
		case ask.pi && !res.same:
			what = i18n.T("Pi's context")
		case res.presetID != "":
			what = i18n.T("the request as sent (Preset %s)", res.presetID)
		}
		text := jsonv.StringifyIndent(side.payload, "  ")
		return copiedMsg{pane: ask.pane, text: text,
			note: i18n.T("copied %s at %s (%d messages, %d chars)", what, res.entry, len(side.messages), len([]rune(text)))}
	}
}

// applyCopied puts a ready text on the clipboard (the kit's OSC 52,
// sanitised: clipboards end up pasted into terminals) and says so in the
// pane it was asked from.
func (m *Model) applyCopied(msg copiedMsg) tea.Cmd {
	if msg.err != nil {
		return m.setStatus(msg.pane, i18n.T("copy: %s", msg.err.Error()), true)
	}
	if msg.text == "" {
		return m.setStatus(msg.pane, msg.note, false) // common.Copy put it there
	}
	return tea.Batch(common.Clipboard(msg.text), m.setStatus(msg.pane, msg.note, false))
}
