package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
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
		palette.Titled(i18n.Mark("Session: reload sessions"), actionReload, k.Reload.Help().Key),
	}
	if m.ls == nil {
		return out
	}
	follow := i18n.Mark("Session: back to the leaf and follow it as the session grows")
	if m.following() {
		follow = i18n.Mark("Session: pause at this entry while the session grows")
	}
	if m.mode == modeContext {
		other := i18n.Mark("Session: show Pi's context (before pi-forge's rewrite)")
		if m.sent.pi {
			other = i18n.Mark("Session: show the request as sent")
		}
		out = append(out, palette.Titled(other, actionPiContext, k.PiContext.Help().Key))
	}
	return append(out,
		palette.Titled(i18n.Mark("Session: context at the selected entry (the request as sent)"), actionContext, k.Context.Help().Key),
		palette.Titled(i18n.Mark("Session: stats"), actionStats, k.Stats.Help().Key),
		palette.Titled(follow, actionFollow, k.Follow.Help().Key),
		palette.Titled(i18n.Mark("Session: show/hide thinking"), actionThinking, k.Thinking.Help().Key),
		palette.Titled(i18n.Mark("Session: go to entry by id…"), actionGoto, k.GotoEntry.Help().Key),
		palette.Titled(i18n.Mark("Session: back to the leaf"), actionToLeaf, k.ToLeaf.Help().Key),
		palette.Titled(i18n.Mark("Session: copy the entry's text"), actionCopyEntry, m.com.Keys.Copy.Help().Key),
		palette.Titled(i18n.Mark("Session: copy the request at the entry as sent (in the Context view: what it shows)"), actionCopyContext, k.CopyContext.Help().Key),
		palette.Titled(i18n.Mark("Session: skipped lines of the file"), actionSkipped, k.Skipped.Help().Key),
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
