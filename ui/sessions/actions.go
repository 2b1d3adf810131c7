package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/palette"
)

// actionMsg is what the panel's palette entries send; the root routes it
// to the focused panel, which is this one while its actions are offered.
type actionMsg int

const (
	actionContext actionMsg = iota
	actionStats
	actionFollow
	actionThinking
	actionReload
	actionGoto
	actionToLeaf
	actionCopyEntry
	actionCopyContext
	actionSkipped
	actionPiContext
)

// Actions implements ui.ActionProvider: the panel's commands in the `:`
// palette, each hinted with the key that does the same.
func (m *Model) Actions() []palette.Action {
	k := &m.keys
	out := []palette.Action{
		{Title: "Session: reload sessions", Hint: k.Reload.Help().Key, Msg: actionReload},
	}
	if m.ls == nil {
		return out
	}
	follow := "Session: back to the leaf and follow it as the session grows"
	if m.following() {
		follow = "Session: pause at this entry while the session grows"
	}
	if m.mode == modeContext {
		other := "Session: show Pi's context (before pi-forge's rewrite)"
		if m.sent.pi {
			other = "Session: show the request as sent"
		}
		out = append(out, palette.Action{Title: other, Hint: k.PiContext.Help().Key, Msg: actionPiContext})
	}
	return append(out,
		palette.Action{Title: "Session: context at the selected entry (the request as sent)", Hint: k.Context.Help().Key, Msg: actionContext},
		palette.Action{Title: "Session: stats", Hint: k.Stats.Help().Key, Msg: actionStats},
		palette.Action{Title: follow, Hint: k.Follow.Help().Key, Msg: actionFollow},
		palette.Action{Title: "Session: show/hide thinking", Hint: k.Thinking.Help().Key, Msg: actionThinking},
		palette.Action{Title: "Session: go to entry by id…", Hint: k.GotoEntry.Help().Key, Msg: actionGoto},
		palette.Action{Title: "Session: back to the leaf", Hint: k.ToLeaf.Help().Key, Msg: actionToLeaf},
		palette.Action{Title: "Session: copy the entry's text", Hint: m.com.Keys.Copy.Help().Key, Msg: actionCopyEntry},
		palette.Action{Title: "Session: copy the request at the entry as sent (in the Context view: what it shows)", Hint: k.CopyContext.Help().Key, Msg: actionCopyContext},
		palette.Action{Title: "Session: skipped lines of the file", Hint: k.Skipped.Help().Key, Msg: actionSkipped},
	)
}

// runAction performs a palette action.
func (m *Model) runAction(a actionMsg) tea.Cmd {
	switch a {
	case actionContext:
		return m.openContext()
	case actionStats:
		return m.openStats()
	case actionFollow:
		return m.followKey()
	case actionThinking:
		m.detail.thinking = !m.detail.thinking
	case actionReload:
		return m.reload()
	case actionGoto:
		m.openGoto()
	case actionToLeaf:
		m.focus = paneTimeline
		return m.toLeaf()
	case actionCopyEntry:
		return m.copyEntry(m.currentEntry(), m.focus)
	case actionCopyContext:
		return m.copyContext(m.currentEntry(), m.focus)
	case actionSkipped:
		m.openSkipped()
	case actionPiContext:
		if m.mode == modeContext {
			return m.togglePiContext()
		}
	}
	return nil
}
