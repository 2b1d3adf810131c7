package presets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// draftEditor is the open Preset: its draft, the item list, the inline
// block editor and the form of the row under the cursor.
//
// It is a sub-model of the panel: its own Update (the item list's and
// the editor pane's keys, the block editor's typing, the form's keys),
// ShortHelp, FullHelp and CapturesInput on its own state and the shared
// Common. What an edit sets off elsewhere (the rows' diagnostics and the
// preview follow the draft, a form is built against the library and the
// run context, a dialog asks, the file is saved) it asks of the panel as
// an intent.
type draftEditor struct {
	com  *common.Common
	keys *keymap.Presets

	// open is the loaded Preset the draft came from (nil = none open).
	open     *resources.Preset
	revision string
	d        *draft.Draft
	// opening numbers open requests: the file is parsed in a command and
	// only the latest request's result is installed.
	opening int
	// autoOpened is true while the open Preset was picked by the panel
	// (not the user) and is untouched, so the session's active Preset may
	// replace it when the run context arrives.
	autoOpened bool
	// focusNewDraft moves focus to the items once a preset just created
	// (new, fork) has opened, so editing can start at once.
	focusNewDraft bool
	// unparsed is true when the open file is not a JSON object: its draft
	// is the fallback stack and is never saved over the file.
	unparsed bool
	// conflict says the open file changed on disk under the draft: a save
	// was refused, or the watcher saw it.
	conflict conflictState
	// wantItem is an item id a jump to this panel points at
	// (common.JumpTarget.ItemID), shown once its Preset is open.
	wantItem string

	// items lists the draft's items, then the settings rows.
	items *common.List[itemRow]

	editing bool
	ta      textarea.Model
	// blockScroll is the wheel's scroll of the block being read and
	// blockWrap its wrapped lines (mouse.go).
	blockScroll blockScroll
	blockWrap   blockWrap
	// taItem is the item index whose content the textarea holds (-1 none).
	taItem int

	form     forms.Form
	formRow  int // the item or settings row the form edits (-1 none)
	formKind string
	// formMemory is what forms remember for the open draft.
	formMemory *forms.Memory
	// gate holds keys while a form's edit is on its way (formgate.go).
	gate formGate
}

// The intents of the draft editor.
type (
	// editedIntent: the draft was edited (err: it was refused); the rows,
	// the cursor (on row cur), the form and the preview follow it.
	editedIntent struct {
		cur int
		err error
	}
	// draftTypedIntent: text was typed into a block; the preview and the
	// check follow it.
	draftTypedIntent struct{}
	// itemMovedIntent: the item cursor moved; the block editor and the
	// form of the row follow it.
	itemMovedIntent struct{}
	// activateItemIntent: type into the block under the cursor, or open
	// the form of its row.
	activateItemIntent struct{}
	// startEditingIntent: type into the block under the cursor.
	startEditingIntent struct{}
	// externalEditIntent: hand the row under the cursor to $EDITOR.
	externalEditIntent struct{}
	// itemFormIntent: open the item's properties.
	itemFormIntent struct{}
	// addBlockIntent asks for a new block's name, added after row at.
	addBlockIntent struct{ at int }
	// addSlotIntent offers the built-in slots.
	addSlotIntent struct{}
	// deleteItemIntent asks before deleting item cur.
	deleteItemIntent struct{ cur int }
	// saveIntent saves the draft.
	saveIntent struct{}
	// bothIntent is two intents, acted on in order.
	bothIntent [2]intent
)

func (editedIntent) isIntent()       {}
func (draftTypedIntent) isIntent()   {}
func (itemMovedIntent) isIntent()    {}
func (activateItemIntent) isIntent() {}
func (startEditingIntent) isIntent() {}
func (externalEditIntent) isIntent() {}
func (itemFormIntent) isIntent()     {}
func (addBlockIntent) isIntent()     {}
func (addSlotIntent) isIntent()      {}
func (deleteItemIntent) isIntent()   {}
func (saveIntent) isIntent()         {}
func (bothIntent) isIntent()         {}

// Update implements the part for a key press or a paste with pane at
// focus: the block editor takes it while a block is typed in, the form
// while the editor pane shows one (but the keys the panel keeps, which it
// passes back), else the item list's or the editor pane's keys act
// (paneUpdate).
func (e *draftEditor) Update(msg tea.Msg, at pane) (tea.Cmd, intent) {
	switch {
	case e.editing:
		return e.updateBlock(msg)
	case at == paneEditor && e.form != nil:
		return e.updateForm(msg)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return e.paneUpdate(k, at)
	}
	return nil, nil
}

// updateBlock is the block editor's: save and back leave it, the rest
// types.
func (e *draftEditor) updateBlock(msg tea.Msg) (tea.Cmd, intent) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		return e.pasteIntoEditor(msg)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, e.keys.Save):
			e.stopEditing()
			return nil, saveIntent{}
		case key.Matches(msg, e.keys.Back):
			e.stopEditing()
			return nil, nil
		}
		return e.updateEditor(msg)
	}
	return nil, nil
}

// updateForm is the editor pane's form's. The panel keeps esc, undo and
// redo, save, and e ($EDITOR) for the raw JSON (passed back); a form
// typing into a field takes all but save.
func (e *draftEditor) updateForm(msg tea.Msg) (tea.Cmd, intent) {
	k := e.keys
	switch msg := msg.(type) {
	case tea.PasteMsg:
		var cmd tea.Cmd
		e.form, cmd = e.form.Update(msg)
		return cmd, nil
	case tea.KeyPressMsg:
		if key.Matches(msg, k.Save) {
			e.stopEditing()
			return nil, saveIntent{}
		}
		keep := key.Matches(msg, k.Back, k.Undo, k.Redo) || (e.formKind == formRaw && key.Matches(msg, k.Edit))
		if e.form.CapturesInput() || !keep {
			var cmd tea.Cmd
			e.form, cmd = e.form.Update(msg)
			return nil, formAnswerIntent{cmd: cmd, typing: e.form.CapturesInput()}
		}
		return nil, passIntent{}
	}
	return nil, nil
}

// paneUpdate is the keys of the item list (at paneItems) and of the
// editor pane without a form (at paneEditor); the panel's own keys went
// first.
func (e *draftEditor) paneUpdate(msg tea.KeyPressMsg, at pane) (tea.Cmd, intent) {
	if at == paneEditor {
		return e.editorPaneKey(msg)
	}
	k := e.keys
	if e.items.HandleNav(msg, k.Nav) {
		return nil, itemMovedIntent{}
	}
	cur := e.items.Cursor()
	n := e.d.Len()
	var err error
	switch {
	case key.Matches(msg, k.Open), key.Matches(msg, e.com.Keys.Select):
		return nil, activateItemIntent{}
	case key.Matches(msg, k.Edit):
		return nil, externalEditIntent{}
	case key.Matches(msg, k.Back):
		return nil, focusIntent{pane: paneList}
	case key.Matches(msg, k.AddBlock):
		return nil, addBlockIntent{at: min(cur, n-1)}
	case key.Matches(msg, k.AddSlot):
		return nil, addSlotIntent{}
	case cur >= n:
		return nil, nil // a settings row: the item keys do nothing
	case key.Matches(msg, k.Item):
		return nil, itemFormIntent{}
	case key.Matches(msg, k.Cost):
		return nil, itemCostIntent{}
	case key.Matches(msg, k.Toggle):
		err = e.d.ToggleItem(cur)
	case key.Matches(msg, k.MoveUp):
		cur, err = e.d.MoveItem(cur, -1)
	case key.Matches(msg, k.MoveDown):
		cur, err = e.d.MoveItem(cur, 1)
	case key.Matches(msg, k.Duplicate):
		cur, err = e.d.DuplicateItem(cur)
	case key.Matches(msg, k.Delete):
		return nil, deleteItemIntent{cur: cur}
	default:
		return nil, nil
	}
	return nil, editedIntent{cur: cur, err: err}
}

// editorPaneKey is the editor pane's keys when it shows no form.
func (e *draftEditor) editorPaneKey(msg tea.KeyPressMsg) (tea.Cmd, intent) {
	k := e.keys
	switch {
	case key.Matches(msg, k.Back):
		return nil, focusIntent{pane: paneItems}
	case key.Matches(msg, k.Open), key.Matches(msg, e.com.Keys.Select):
		return nil, startEditingIntent{}
	case key.Matches(msg, k.Edit):
		return nil, externalEditIntent{}
	}
	return nil, nil
}

// formHasKeys reports whether the editor pane's form has the keys (the
// pane at has focus).
func (e *draftEditor) formHasKeys(at pane) bool {
	return !e.editing && at == paneEditor && e.form != nil
}

// CapturesInput implements the part: true while a block is typed in or
// the form types into a field.
func (e *draftEditor) CapturesInput(at pane) bool {
	return e.editing || e.formHasKeys(at) && e.form.CapturesInput()
}

// ShortHelp implements the part: the keys that act with pane at focused.
func (e *draftEditor) ShortHelp(at pane) []key.Binding {
	k, view := e.keys, e.com.Keys.View
	switch {
	case e.editing:
		return []key.Binding{k.Back, k.Save}
	case e.formHasKeys(at) && e.form.CapturesInput():
		return append(e.form.ShortHelp(), k.Save) // esc and u reach the form, not the panel
	case e.formHasKeys(at):
		return append(e.form.ShortHelp(), k.Back, k.Save, k.Undo)
	case at == paneItems && e.d != nil && e.items.Cursor() >= e.d.Len():
		// A settings row: the item keys (toggle, move, duplicate, delete) do nothing here.
		return []key.Binding{k.Open, k.AddBlock, k.AddSlot, k.Undo, k.Save, view}
	case at == paneItems:
		return []key.Binding{k.Open, k.Toggle, k.MoveDown, k.MoveUp, k.AddBlock, k.AddSlot, k.Duplicate, k.Delete, k.Cost, k.Undo, k.Save, view}
	}
	return []key.Binding{k.Open, k.Edit, view, k.Undo, k.Save, k.Back}
}

// FullHelp is the form's help while it has the keys; nil otherwise (the
// panel's help of its panes stands).
func (e *draftEditor) FullHelp(at pane) [][]key.Binding {
	if !e.formHasKeys(at) {
		return nil
	}
	k := e.keys
	return [][]key.Binding{e.form.ShortHelp(), {k.Back, k.Save, k.Undo}, e.com.Keys.Forms.Text.Help()}
}

// blockContent returns the content of block item i and whether i is a
// block the editor can type into.
func (e *draftEditor) blockContent(i int) (string, bool) {
	if e.d == nil {
		return "", false
	}
	it, editable, ok := e.d.Item(i)
	if !ok || !editable || it.Kind != preset.KindBlock {
		return "", false
	}
	return it.Content, true
}

// syncEditor loads the textarea with the block under the item cursor
// (unless the user is typing in it).
func (e *draftEditor) syncEditor() {
	if e.editing {
		return
	}
	cur := e.items.Cursor()
	content, ok := e.blockContent(cur)
	if !ok {
		e.taItem = -1
		e.ta.SetValue("")
		return
	}
	if e.taItem != cur || fromEditor(e.ta.Value()) != content {
		e.taItem = cur
		e.ta.SetValue(toEditor(content))
	}
}

// styleEditor gives the block editor the theme's styles with a steady
// cursor: no blink timer keeps redrawing while the user reads.
func (e *draftEditor) styleEditor() {
	styles := textarea.DefaultStyles(e.com.Styles.IsDark)
	styles.Cursor.Blink = false
	e.ta.SetStyles(styles)
}

// stopEditing leaves the inline editor (the text is already in the draft).
func (e *draftEditor) stopEditing() {
	if e.editing {
		e.editing = false
		e.ta.Blur()
	}
}

// updateEditor passes a message to the textarea and turns a changed value
// into a (coalesced) draft edit.
func (e *draftEditor) updateEditor(msg tea.Msg) (tea.Cmd, intent) {
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	return cmd, e.commitEditor()
}

// commitEditor writes the textarea's text into the draft when it differs.
// The draft patches its typed view; validation runs in a command.
func (e *draftEditor) commitEditor() intent {
	content, ok := e.blockContent(e.taItem)
	if !ok || fromEditor(e.ta.Value()) == content {
		return nil
	}
	it, _, _ := e.d.Item(e.taItem)
	if err := e.d.SetBlockText(e.taItem, fromEditor(e.ta.Value()), i18n.T("edit %s", it.ID), true); err != nil {
		return statusIntent{err.Error(), true}
	}
	return draftTypedIntent{}
}

// rowName names item-list row i for a message: the item's label, or the
// settings row's title.
func (e *draftEditor) rowName(i int) string {
	if it, _, ok := e.d.Item(i); ok {
		return itemLabel(it)
	}
	if j := i - e.d.Len(); j >= 0 && j < len(settingsRows) {
		return i18n.T(settingsRows[j])
	}
	return i18n.T("row %d", i+1)
}

// pasteIntoEditor types pasted text into the inline editor, its tabs kept
// (shown as tabMark), and says so.
func (e *draftEditor) pasteIntoEditor(msg tea.PasteMsg) (tea.Cmd, intent) {
	if !strings.Contains(msg.Content, "\t") {
		return e.updateEditor(msg)
	}
	msg.Content = toEditor(msg.Content)
	cmd, in := e.updateEditor(msg)
	return cmd, bothIntent{in, statusIntent{i18n.T("pasted tabs are kept as tabs (shown as %s)", tabMark), false}}
}
