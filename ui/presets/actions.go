package presets

import (
	tea "charm.land/bubbletea/v2"

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
		{Title: "Presets: new preset from the default mirror", Hint: k.New.Help().Key, Msg: actionNew},
		{Title: "Presets: reload from disk", Hint: k.Reload.Help().Key, Msg: actionReload},
		{Title: "Presets: show/hide agent profiles", Hint: k.Profiles.Help().Key, Msg: actionProfiles},
	}
	if m.d == nil {
		return out
	}
	return append(out,
		palette.Action{Title: "Presets: save " + m.d.stack.ID, Hint: k.Save.Help().Key, Msg: actionSave},
		palette.Action{Title: "Presets: fork the draft to a new id", Hint: k.Fork.Help().Key, Msg: actionFork},
		palette.Action{Title: "Presets: undo the last edit", Hint: k.Undo.Help().Key, Msg: actionUndo},
		palette.Action{Title: "Presets: show/hide the preview", Hint: k.Preview.Help().Key, Msg: actionPreview},
	)
}

// runAction performs a palette action by pressing the key it stands for.
func (m *Model) runAction(a actionMsg) tea.Cmd {
	m.stopEditing()
	k := &m.keys
	binding := map[actionMsg]string{
		actionSave: firstKey(k.Save.Keys()), actionFork: firstKey(k.Fork.Keys()), actionNew: firstKey(k.New.Keys()),
		actionUndo: firstKey(k.Undo.Keys()), actionReload: firstKey(k.Reload.Keys()),
		actionPreview: firstKey(k.Preview.Keys()), actionProfiles: firstKey(k.Profiles.Keys()),
	}[a]
	if binding == "" {
		return nil
	}
	if m.focus == paneEditor && m.form != nil {
		m.focus = paneItems // the key must reach the panel, not the form
	}
	return m.handleKey(keyPress(binding))
}

func firstKey(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}

// keyPress builds the key message a binding's key name stands for.
func keyPress(name string) tea.KeyPressMsg {
	if name == "ctrl+s" {
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	}
	r := []rune(name)
	if len(r) == 1 {
		return tea.KeyPressMsg{Code: r[0], Text: name}
	}
	return tea.KeyPressMsg{}
}
