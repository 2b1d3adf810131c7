package presets

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// defaultMirror returns a fresh tree of the project's default Pi mirror
// (resources.DefaultMirror: no auto-activation, so it never competes with
// an existing auto-activating preset).
func defaultMirror() *jsonv.Object {
	return preset.ToJSON(resources.DefaultMirror("new-preset"))
}

// newConfirm is a yes/no question answered with the panel's confirm keys.
func newConfirm(m *Model, title, body string, onYes func(*Model, string) tea.Cmd) *dialog {
	return &dialog{kind: dialogConfirm, title: title, body: body, onYes: onYes,
		confirm: common.Confirm{Title: title, Body: body, Yes: m.keys.Confirm, No: m.keys.Cancel}}
}

// newPrompt is a one-line question ("id: …") answered with the panel's
// submit key; its input is the kit's (common.NewTextInput).
func newPrompt(m *Model, title, body, value string, onYes func(*Model, string) tea.Cmd) *dialog {
	in := common.NewTextInput(m.com, "id: ", value)
	return &dialog{kind: dialogPrompt, title: title, body: body, input: in, onYes: onYes}
}

// dialogKey handles a key while a dialog is open.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	d := m.dlg
	k := &m.keys
	switch d.kind {
	case dialogConfirm:
		switch d.confirm.Answer(msg) {
		case common.Yes:
			m.dlg = nil
			return d.onYes(m, "")
		case common.No:
			m.dlg = nil
		}
		return nil
	case dialogConflict:
		return m.conflictKey(msg)
	case dialogSlots:
		switch {
		case d.slots.HandleNav(msg, k.Nav):
		case key.Matches(msg, k.Submit):
			m.dlg = nil
			if slot, ok := d.slots.Selected(); ok {
				return d.onYes(m, slot.Text)
			}
		case key.Matches(msg, k.Dismiss):
			m.dlg = nil
		}
		return nil
	}
	switch {
	case d.scope != "" && key.Matches(msg, k.Scope):
		m.switchScope()
		return nil
	case key.Matches(msg, k.Submit) && d.freeText:
		text := jsonv.TrimJS(d.input.Value())
		if text == "" {
			return nil
		}
		m.dlg = nil
		return d.onYes(m, text)
	case key.Matches(msg, k.Submit):
		id := jsonv.TrimJS(d.input.Value())
		if !preset.IsValidResourceID(id) {
			d.body = "“" + id + "” is not a valid id: start with a letter or digit, then letters, digits, . _ -"
			return nil
		}
		m.dlg = nil
		return d.onYes(m, id)
	case key.Matches(msg, k.Dismiss):
		m.dlg = nil
		return nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd
}

// create writes tree under a new id as a new Preset file.
func (m *Model) create(tree *jsonv.Object, id string, scope preset.Scope, verb string) tea.Cmd {
	m.setStatus("writing "+string(scope)+":"+id+"…", false)
	var had []string // a fork is refused only for errors its source does not have
	if verb == "fork" && m.d != nil {
		for _, d := range m.d.Diagnostics() {
			if d.Level == preset.LevelError {
				had = append(had, d.Message)
			}
		}
	}
	return createCmd(m.com.Workspace, verb, scope, tree, id, had)
}

// dialogBox draws the open dialog in the kit's dialog frame.
func (m *Model) dialogBox() string {
	st := &m.com.Styles
	d := m.dlg
	if d.kind == dialogConfirm {
		return d.confirm.View(st, m.width, m.height)
	}
	if d.kind == dialogConflict {
		return m.conflictBox()
	}
	inner := common.DialogInner(m.width)
	body := common.WrapWhole(d.body, inner)
	switch d.kind {
	case dialogPrompt: // its input is sized by layoutParts
		body = append(body, "", d.input.View())
	case dialogSlots:
		body = append(body, "")
		body = append(body, d.slots.View(st, inner, d.slots.Len(), true)...)
	}
	return common.DialogBox(st, m.width, m.height, d.title, body, common.KeyHint(m.ShortHelp()))
}
