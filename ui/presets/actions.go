package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/palette"
)

// actionMsg is what the panel's palette entries send; the root routes it
// to the focused panel, which is this one while its actions are offered.
type actionMsg int

const (
	actionSave actionMsg = iota
	actionFork
	actionNew
	actionUndo
	actionReload
	actionPreview
	actionProfiles
)

// Actions implements ui.ActionProvider: the panel's commands in the `:`
// palette, each hinted with the key that does the same.
func (m *Model) Actions() []palette.Action {
	k := &m.keys
	out := []palette.Action{
		{Title: i18n.T("Presets: new preset from the default mirror"), Hint: k.New.Help().Key, Msg: actionNew},
		{Title: i18n.T("Presets: reload from disk"), Hint: k.Reload.Help().Key, Msg: actionReload},
		{Title: i18n.T("Presets: show/hide agent profiles"), Hint: k.Profiles.Help().Key, Msg: actionProfiles},
	}
	if m.d == nil {
		return out
	}
	return append(out,
		palette.Action{Title: i18n.T("Presets: save %s", m.d.ID()), Hint: k.Save.Help().Key, Msg: actionSave},
		palette.Action{Title: i18n.T("Presets: fork the draft to a new id"), Hint: k.Fork.Help().Key, Msg: actionFork},
		palette.Action{Title: i18n.T("Presets: undo the last edit"), Hint: k.Undo.Help().Key, Msg: actionUndo},
		palette.Action{Title: i18n.T("Presets: show/hide the preview"), Hint: k.Preview.Help().Key, Msg: actionPreview},
	)
}

// runAction performs a palette action: what its key does, from any pane.
func (m *Model) runAction(a actionMsg) tea.Cmd {
	m.stopEditing()
	switch a {
	case actionSave:
		return m.save()
	case actionNew:
		return m.promptNew()
	case actionReload:
		return m.confirmDiscard(i18n.T("Reload from disk?"), m.reload)
	case actionPreview:
		return m.togglePreview()
	case actionProfiles:
		return m.toggleProfiles()
	}
	if m.d == nil {
		return nil
	}
	switch a {
	case actionFork:
		return m.promptFork()
	case actionUndo:
		return m.undo()
	}
	return nil
}
