package presets

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// defaultMirror returns a fresh tree of the project's default Pi mirror
// (resources.DefaultMirror: no auto-activation, so it never competes with
// an existing auto-activating preset).
func defaultMirror() *jsonv.Object {
	return preset.ToJSON(resources.DefaultMirror("new-preset"))
}

// dialogKind says what a dialog asks.
type dialogKind string

const (
	dialogConfirm dialogKind = "confirm"
	dialogPrompt  dialogKind = "prompt"
	dialogSlots   dialogKind = "slots"
	// dialogNotice says why nothing can be done; any answer closes it.
	dialogNotice dialogKind = "notice"
)

// dialog is a modal over the panel: a yes/no question (common.Confirm), a
// text prompt or the slot picker.
type dialog struct {
	com  *common.Common
	keys *keymap.Presets
	// width and height are the screen's the dialog is drawn over.
	width, height int

	kind    dialogKind
	confirm common.Confirm
	title   string
	body    string
	input   textinput.Model
	slots   *common.List[common.TextRow]
	onYes   func(m *Model, text string) tea.Cmd
	// A create prompt writes to scope (tab switches it); text is its body
	// without the scope line. freeText prompts take any text (a path),
	// not only an id.
	text     string
	scope    preset.Scope
	freeText bool
	// emptyOK lets a free-text prompt submit an empty line (a value
	// removed).
	emptyOK bool
	// conflict is the save-conflict dialog's state (conflict.go).
	conflict *conflictDialog
}

// A dialog is a modal on the panel's stack (ui/components/dialog): a
// yes/no question (common.Confirm), a text prompt, the slot picker or the
// save conflict (conflict.go). It holds its own state and the panel's
// keys; what it decides goes back to the panel as an answer, which the
// panel runs on itself (answerDialog). Opening one replaces the question
// on top rather than stacking it: each answer acts on the draft as it was
// when asked, and a question left under a newer one (a jump, a refused
// save) could act on another draft later.

// answer is a dialog's decision, run by the panel on itself.
type answer func(m *Model) tea.Cmd

// newConfirm is a yes/no question answered with the panel's confirm keys.
func newConfirm(m *Model, title, body string, onYes func(*Model, string) tea.Cmd) *dialog {
	return &dialog{com: m.com, keys: &m.keys, kind: dialogConfirm, title: title, body: body, onYes: onYes,
		confirm: common.Confirm{Title: title, Body: body, Yes: m.keys.Confirm, No: m.keys.Cancel}}
}

// newNotice is a dialog that only informs: the confirm and cancel keys
// close it.
func newNotice(m *Model, title, body string) *dialog {
	return &dialog{com: m.com, keys: &m.keys, kind: dialogNotice, title: title, body: body}
}

// newPrompt is a one-line question ("id: …") answered with the panel's
// submit key; its input is the kit's (common.NewTextInput).
func newPrompt(m *Model, title, body, value string, onYes func(*Model, string) tea.Cmd) *dialog {
	in := common.NewTextInput(m.com, "id: ", value)
	return &dialog{com: m.com, keys: &m.keys, kind: dialogPrompt, title: title, body: body, input: in, onYes: onYes}
}

// openDialog puts d on top of the panel's dialog stack, in place of the
// question there (see above).
func (m *Model) openDialog(d *dialog) {
	m.dialogs.Replace(d)
	m.layoutDialog()
}

// topDialog is the open dialog, nil when none is.
func (m *Model) topDialog() *dialog {
	d, _ := m.dialogs.Top().(*dialog)
	return d
}

// dialogKey hands a key or a paste to the dialog stack and runs the
// answer it gives back.
func (m *Model) dialogKey(msg tea.Msg) tea.Cmd {
	ans, cmd := m.dialogs.Update(msg)
	if run, ok := ans.(answer); ok && run != nil {
		return tea.Batch(cmd, run(m))
	}
	return cmd
}

// layoutDialog sizes the open dialog for the panel.
func (m *Model) layoutDialog() {
	if d := m.topDialog(); d != nil {
		d.setSize(m.width, m.height)
	}
}

// setSize fits the prompt's input and the conflict's difference view into
// a dialog on a screen of width×height cells.
func (d *dialog) setSize(width, height int) {
	d.width, d.height = width, height
	switch {
	case d.kind == dialogPrompt:
		// the label and the cursor cell share the row with the text
		d.input.SetWidth(max(10, common.DialogInner(width)-ansi.StringWidth(d.input.Prompt)-2))
	case d.conflict != nil:
		d.conflict.view.SetSize(max(10, width-6), max(3, height-8))
	}
}

// Update implements dialog.Dialog: a key answers the question, moves in
// the slot list, types into the prompt; a paste goes into the prompt.
// The dismiss key never reaches it (the stack pops the dialog).
func (d *dialog) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if d.kind != dialogPrompt {
			return false, nil, nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return false, nil, cmd
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return false, nil, nil
}

// yes is the answer that runs the dialog's onYes with text.
func (d *dialog) yes(text string) answer {
	return func(m *Model) tea.Cmd { return d.onYes(m, text) }
}

func (d *dialog) key(msg tea.KeyPressMsg) (bool, any, tea.Cmd) {
	k := d.keys
	switch d.kind {
	case dialogConfirm:
		switch d.confirm.Answer(msg) {
		case common.Yes:
			return true, d.yes(""), nil
		case common.No:
			return true, nil, nil
		}
		return false, nil, nil
	case dialogConflict:
		return d.conflictKey(msg)
	case dialogNotice:
		return key.Matches(msg, k.Confirm, k.Cancel), nil, nil
	case dialogSlots:
		switch {
		case d.slots.HandleNav(msg, k.Nav):
		case key.Matches(msg, k.Submit):
			if slot, ok := d.slots.Selected(); ok {
				return true, d.yes(slot.Text), nil
			}
			return true, nil, nil
		}
		return false, nil, nil
	}
	switch {
	case d.scope != "" && key.Matches(msg, k.Scope):
		d.switchScope()
		return false, nil, nil
	case key.Matches(msg, k.Submit) && d.freeText:
		text := jsonv.TrimJS(d.input.Value())
		if text == "" && !d.emptyOK {
			return false, nil, nil
		}
		return true, d.yes(text), nil
	case key.Matches(msg, k.Submit):
		id := jsonv.TrimJS(d.input.Value())
		if !preset.IsValidResourceID(id) {
			d.body = i18n.T("“%s” is not a valid id: start with a letter or digit, then letters, digits, . _ -", id)
			return false, nil, nil
		}
		return true, d.yes(id), nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return false, nil, cmd
}

// Dismissed implements dialog.Dismisser: a dismissed save conflict says
// the file was not saved; the other dialogs just close.
func (d *dialog) Dismissed() any {
	if d.kind != dialogConflict {
		return nil
	}
	return answer(func(m *Model) tea.Cmd {
		m.setStatus(i18n.T(conflictText), true)
		return nil
	})
}

// ShortHelp implements dialog.Dialog: the keys that answer it.
func (d *dialog) ShortHelp() []key.Binding {
	k := d.keys
	switch {
	case d.kind == dialogConflict:
		return d.conflictHelp()
	case d.kind == dialogSlots:
		return []key.Binding{k.Up, k.Down, k.Submit, k.Dismiss}
	case d.kind == dialogNotice:
		closeKey := k.Cancel
		closeKey.SetHelp(closeKey.Help().Key, i18n.Mark("close"))
		return []key.Binding{closeKey}
	case d.kind == dialogPrompt && d.scope != "" && d.com.Workspace.Trust.Trusted:
		return []key.Binding{k.Submit, k.Scope, k.Dismiss}
	case d.kind == dialogPrompt:
		return []key.Binding{k.Submit, k.Dismiss}
	}
	return []key.Binding{k.Confirm, k.Cancel}
}

// create writes tree under a new id as a new Preset file.
func (m *Model) create(tree *jsonv.Object, id string, scope preset.Scope, verb string) tea.Cmd {
	m.setStatus(i18n.T("writing %s:%s…", string(scope), id), false)
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

// View implements dialog.Dialog: the dialog in the kit's dialog frame.
func (d *dialog) View(width, height int) string {
	st := &d.com.Styles
	if d.kind == dialogConfirm {
		return d.confirm.View(st, width, height)
	}
	if d.kind == dialogConflict {
		return d.conflictBox(width, height)
	}
	inner := common.DialogInner(width)
	body := common.WrapWhole(d.body, inner)
	switch d.kind {
	case dialogPrompt: // its input is sized by setSize
		body = append(body, "", d.input.View())
	case dialogSlots:
		body = append(body, "")
		body = append(body, d.slots.View(st, inner, d.slots.Len(), true)...)
	}
	return common.DialogBox(st, width, height, d.title, body, common.KeyHint(d.ShortHelp()))
}
