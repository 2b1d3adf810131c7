// Package presets is panel 1 of the workbench: the Preset (prompt stack)
// library with scope badges, the active marker of the selected session and
// diagnostics counts; the item list of the open Preset with reorder, add,
// duplicate and delete; an editor (inline block text, $EDITOR hand-off and
// the forms of ui/presets/forms); live validation; a preview dock compiled
// against the selected session entry; guarded save, fork, new from the
// default mirror and undo; and a profiles view.
//
// The open Preset is a draft: an immutable ordered JSON tree replaced on
// every edit (see draft.go). Files are read and written only in commands.
package presets

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/presets/forms"
)

// pane is one of the panel's panes, in focus order.
type pane int

const (
	paneList pane = iota
	paneItems
	paneEditor
	panePreview
	paneCount
)

// settingsRows are the Preset-wide editors listed after the items.
var settingsRows = []string{
	"Parameters", "Tool policy", "Skill policy", "Regex rules", "Context options", "Capability bindings",
}

// Model is the Presets panel.
type Model struct {
	com  *common.Common
	keys keymap.Presets

	width, height int
	focus         pane

	lib    *resources.Library
	libErr error
	// listCursor indexes lib.Presets (or lib.Profiles in the profiles view).
	listCursor  int
	listOffset  int
	showProfile bool
	profCursor  int

	// open is the loaded Preset the draft came from (nil = none open).
	open     *resources.Preset
	revision string
	d        *draft
	// autoOpened is true while the open Preset was picked by the panel
	// (not the user) and is untouched, so the session's active Preset may
	// replace it when the run context arrives.
	autoOpened bool
	// wantOpen is the scoped key to open after the next library load.
	wantOpen string
	// focusNewDraft moves focus to the items once a preset just created
	// (new, fork) has opened, so editing can start at once.
	focusNewDraft bool
	// unparsed is true when the open file is not a JSON object: its draft
	// is the fallback stack and is never saved over the file.
	unparsed bool
	// conflict is true after a save found the file changed on disk.
	conflict bool

	itemCursor int
	itemOffset int

	editing bool
	ta      textarea.Model
	// taItem is the item index whose content the textarea holds (-1 none).
	taItem int

	form     forms.Form
	formRow  int // the item or settings row the form edits (-1 none)
	formKind string

	rc        *runContext
	rcPending bool
	preview   *previewMsg
	// previewGen counts installed previews (the preview render cache key).
	previewGen  int
	showPreview bool
	previewOff  int

	dlg *dialog

	status    string
	statusErr bool

	cache renderCache
}

// dialog is a modal over the panel: a yes/no confirmation, a text prompt
// or the slot picker.
type dialog struct {
	kind   string // "confirm", "prompt", "slots"
	title  string
	body   string
	input  textinput.Model
	cursor int
	onYes  func(m *Model, text string) tea.Cmd
}

// New returns the Presets panel. Keys default to keymap.DefaultPresets.
func New(com *common.Common) *Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	m := &Model{com: com, keys: keymap.DefaultPresets(), ta: ta, taItem: -1, formRow: -1, showPreview: true}
	return m
}

// SetKeys replaces the panel's bindings (user overrides).
func (m *Model) SetKeys(k keymap.Presets) { m.keys = k }

// Init loads the library and the run context of the selection.
func (m *Model) Init() tea.Cmd {
	m.rcPending = true
	return tea.Batch(loadLibraryCmd(m.com.Workspace),
		loadContextCmd(m.com.Workspace, m.com.Selection.SessionFile, m.com.Selection.EntryID))
}

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Title implements common.Panel.
func (m *Model) Title() string { return "Presets" }

// FocusNext implements common.Panel.
func (m *Model) FocusNext() { m.moveFocus(1) }

// FocusPrev implements common.Panel.
func (m *Model) FocusPrev() { m.moveFocus(-1) }

func (m *Model) moveFocus(delta int) {
	m.stopEditing()
	for range paneCount {
		m.focus = (m.focus + pane(delta) + paneCount) % paneCount
		if m.paneVisible(m.focus) {
			return
		}
	}
}

// paneVisible reports whether a pane can take focus now.
func (m *Model) paneVisible(p pane) bool {
	switch p {
	case paneItems, paneEditor:
		return m.d != nil && !m.showProfile
	case panePreview:
		return m.d != nil && !m.showProfile && m.showPreview
	}
	return true
}

// CapturesInput implements common.Panel: true while text is typed into
// the block editor, a form field or a dialog.
func (m *Model) CapturesInput() bool {
	if m.dlg != nil || m.editing {
		return true
	}
	return m.focus == paneEditor && m.form != nil && m.form.CapturesInput()
}

// ShortHelp implements common.Panel: the keys that act in the focused pane.
func (m *Model) ShortHelp() []key.Binding {
	k := &m.keys
	switch {
	case m.dlg != nil && m.dlg.kind == "slots":
		return []key.Binding{k.Up, k.Down, k.Submit, k.Dismiss}
	case m.dlg != nil && m.dlg.kind == "prompt":
		return []key.Binding{k.Submit, k.Dismiss}
	case m.dlg != nil:
		return []key.Binding{k.Confirm, k.Cancel}
	case m.editing:
		return []key.Binding{k.Back, k.Save}
	case m.focus == paneEditor && m.form != nil && m.form.CapturesInput():
		return append(m.form.ShortHelp(), k.Save) // esc and u reach the form, not the panel
	case m.focus == paneEditor && m.form != nil:
		return append(m.form.ShortHelp(), k.Back, k.Save, k.Undo)
	case m.showProfile:
		return []key.Binding{k.Open, k.Back, k.Profiles, k.Reload}
	case m.focus == paneList:
		var bs []key.Binding
		if m.lib != nil && len(m.lib.Presets) > 0 {
			bs = append(bs, k.Open)
		}
		bs = append(bs, k.New)
		if m.d != nil {
			bs = append(bs, k.Fork) // fork copies the open draft
		}
		return append(bs, k.Profiles, k.Reload)
	case m.focus == paneItems && m.d != nil && m.itemCursor >= len(m.d.items()):
		// A settings row: the item keys (toggle, move, duplicate, delete) do nothing here.
		return []key.Binding{k.Open, k.AddBlock, k.AddSlot, k.Undo, k.Save}
	case m.focus == paneItems:
		return []key.Binding{k.Open, k.Toggle, k.MoveDown, k.MoveUp, k.AddBlock, k.AddSlot, k.Duplicate, k.Delete, k.Undo, k.Save}
	case m.focus == panePreview:
		return []key.Binding{k.Up, k.Down, k.Preview, k.Back}
	default:
		return []key.Binding{k.Open, k.Edit, k.Undo, k.Save, k.Back}
	}
}

// FullHelp implements common.Panel: the panel's keys; while a form has
// focus only its own keys and the three the panel keeps (esc, save, undo)
// act, so only those are listed.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.keys
	if m.focus == paneEditor && m.form != nil && m.dlg == nil && !m.editing {
		return [][]key.Binding{m.form.ShortHelp(), {k.Back, k.Save, k.Undo}}
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.Back},
		{k.Toggle, k.MoveUp, k.MoveDown, k.AddBlock, k.AddSlot, k.Duplicate, k.Delete, k.Edit},
		{k.Save, k.Fork, k.New, k.Undo, k.Preview, k.Profiles, k.Reload},
	}
}

// Update implements common.Panel.
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmds = append(cmds, m.handleKey(msg))
	case tea.PasteMsg:
		cmds = append(cmds, m.handlePaste(msg))
	case tea.MouseWheelMsg:
		m.handleWheel(msg)
	case common.SelectionChangedMsg:
		cmds = append(cmds, m.followSelection(msg.Selection))
	case forms.EditMsg:
		cmds = append(cmds, m.applyFormEdit(msg))
	default:
		cmds = append(cmds, m.handle(msg))
		if m.form != nil && m.focus == paneEditor {
			var cmd tea.Cmd
			m.form, cmd = m.form.Update(msg)
			cmds = append(cmds, cmd)
		}
	}
	return m, tea.Batch(cmds...)
}

// handle applies one command result.
func (m *Model) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case libraryMsg:
		return m.applyLibrary(msg)
	case contextMsg:
		m.rc, m.rcPending = msg.ctx, false
		if msg.ctx.err != nil {
			m.setStatus(msg.ctx.err.Error(), true)
		}
		m.cache.bump()
		m.refreshForm() // the tool picker follows the session's tools
		if cmd := m.openActiveIfAuto(); cmd != nil {
			return cmd
		}
		return m.schedulePreview()
	case previewDueMsg:
		if m.d != nil && msg.version == m.d.version && m.rc != nil {
			return previewCmd(m.d.version, m.d.stack, m.rc)
		}
	case previewMsg:
		if m.d != nil && msg.version == m.d.version {
			p := msg
			m.preview = &p
			m.previewGen++
			m.cache.bump()
		}
	case savedMsg:
		return m.applySaved(msg)
	case createdMsg:
		return m.applyCreated(msg)
	case editorReadyMsg:
		return m.runEditor(msg)
	case editorDoneMsg:
		return m.applyEditorDone(msg)
	case actionMsg:
		return m.runAction(msg)
	}
	return nil
}

// openActiveIfAuto opens the session's active Preset in place of one the
// panel picked by itself, as long as the user has not touched it.
func (m *Model) openActiveIfAuto() tea.Cmd {
	if !m.autoOpened || m.lib == nil || m.d == nil || m.d.dirty || m.activeKey() == "" {
		return nil
	}
	if m.open != nil && m.open.Key() == m.activeKey() {
		return nil
	}
	for i, p := range m.lib.Presets {
		if p.Key() == m.activeKey() {
			m.listCursor = i
			cmd := m.openPreset(p, false)
			m.autoOpened = true
			return cmd
		}
	}
	return nil
}

// followSelection reloads the run context when the session or entry
// changes, and opens a Preset another panel selected when the draft has
// no unsaved changes; the preview follows.
func (m *Model) followSelection(sel common.Selection) tea.Cmd {
	var open tea.Cmd
	if sel.PresetID != "" && m.lib != nil && (m.open == nil || m.open.Key() != sel.PresetID) && (m.d == nil || !m.d.dirty) {
		for i, p := range m.lib.Presets {
			if p.Key() == sel.PresetID {
				m.listCursor = i
				open = m.openPreset(p, false)
			}
		}
	}
	return tea.Batch(open, m.followContext(sel))
}

// followContext reloads the run context when the session or entry changed.
func (m *Model) followContext(sel common.Selection) tea.Cmd {
	if m.rc != nil && m.rc.file == sel.SessionFile && m.rc.entry == sel.EntryID {
		return nil
	}
	if m.rcPending && m.rc == nil && sel.SessionFile == "" {
		return nil
	}
	m.rcPending = true
	return loadContextCmd(m.com.Workspace, sel.SessionFile, sel.EntryID)
}

// schedulePreview asks for a debounced preview of the current draft.
func (m *Model) schedulePreview() tea.Cmd {
	if m.d == nil || m.rc == nil {
		return nil
	}
	return previewDue(m.d.version)
}

// setStatus shows a one-line message under the panes.
func (m *Model) setStatus(s string, isErr bool) { m.status, m.statusErr = s, isErr }

// activeKey is the session's Preset selection ("" when unknown).
func (m *Model) activeKey() string {
	if m.rc == nil {
		return ""
	}
	return m.rc.active
}

// previewParts returns the current preview, if it matches the draft.
func (m *Model) previewParts() *compile.PreviewResult {
	if m.preview == nil || m.d == nil || m.preview.version != m.d.version {
		return nil
	}
	return &m.preview.res
}
