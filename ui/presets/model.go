// Package presets is panel 1 of the workbench: the Preset (prompt stack)
// library with scope badges, the active marker of the selected session and
// diagnostics counts; the item list of the open Preset with reorder, add,
// duplicate and delete; an editor (inline block text, $EDITOR hand-off and
// the forms of ui/presets/forms); live validation; a preview dock compiled
// against the selected session entry; guarded save, fork, new from the
// default mirror and undo; and a profiles view.
//
// The open Preset is a draft (ui/presets/draft): the file's JSON tree,
// replaced on every edit, and its typed view. The lists are common.List
// values whose rows are built from the typed view when it changes. Files
// are read, parsed and written only in commands.
package presets

import (
	"errors"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/presets/draft"
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
	"Properties", "Parameters", "Tool policy", "Skill policy", "Regex rules", "Context options", "Capability bindings",
	"Advanced (raw JSON)",
}

// Model is the Presets panel.
type Model struct {
	com  *common.Common
	keys keymap.Presets

	width, height int
	focus         pane

	lib    *resources.Library
	libErr error
	// presets and profiles list the library; showProfile swaps the
	// profiles in for the Presets and the draft's panes.
	presets     *common.List[presetRow]
	profiles    *common.List[profileRow]
	showProfile bool
	// prof is the profile being edited, profForm its form (profFocus: the
	// form has the keys; profRaw: the form is the raw JSON view),
	// profStatus the selected entry's profile status (profiles_edit.go).
	prof       *profileDraft
	profForm   forms.Form
	profFocus  bool
	profRaw    bool
	profStatus *replay.ProfileStatus

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
	// wantOpen is the scoped key to open after the next library load.
	wantOpen string
	// wantProfile is the profile to put the cursor on after the next
	// library load (one just created or forked).
	wantProfile string
	// focusNewDraft moves focus to the items once a preset just created
	// (new, fork) has opened, so editing can start at once.
	focusNewDraft bool
	// unparsed is true when the open file is not a JSON object: its draft
	// is the fallback stack and is never saved over the file.
	unparsed bool
	// conflict says the open file changed on disk under the draft: a save
	// was refused, or the watcher saw it.
	conflict conflictState

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

	rc        *runContext
	rcPending bool
	// active is the session's Preset at the entry, resolved in the
	// library as pi-forge and the CLI do (a bare id included); nil when
	// none is recorded, Presets are off, or it does not resolve.
	active      *resources.Preset
	preview     *previewMsg
	previewGen  int // counts installed previews (the preview cache key)
	previewRun  previewRun
	showPreview bool
	previewOff  int
	previewText renderedLines

	dlg *dialog
	// diff is the open draft diff (draftdiff.go); nil when closed.
	diff *draftDiff
	// wantItem is an item id a jump to this panel points at
	// (common.JumpTarget.ItemID), shown once its Preset is open.
	wantItem string
	// following waits for the selection to rest before the run context
	// at its entry is read (common.Debounce): a burst of cursor moves in
	// the Session panel reads it, and compiles the preview, once.
	following common.Debounce

	status    string
	statusErr bool
	// wholeNote is the message the last key found, which v shows whole
	// (copy.go) after the key cleared the line.
	wholeNote string
	// statusClock expires the message (status.go).
	statusClock common.StatusClock

	// watchOn starts a watcher of the library directories (watch.go);
	// watch is the running one and diskChanged marks a reload it caused.
	watchOn     bool
	watch       *libraryWatch
	diskChanged bool
}

// dialogKind says what a dialog asks.
type dialogKind string

const (
	dialogConfirm dialogKind = "confirm"
	dialogPrompt  dialogKind = "prompt"
	dialogSlots   dialogKind = "slots"
)

// dialog is a modal over the panel: a yes/no question (common.Confirm), a
// text prompt or the slot picker.
type dialog struct {
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
	// conflict is the save-conflict dialog's state (conflict.go).
	conflict *conflictDialog
}

// New returns the Presets panel. Keys default to keymap.DefaultPresets.
func New(com *common.Common) *Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	return &Model{com: com, keys: keymap.DefaultPresets(), ta: ta, taItem: -1, formRow: -1, showPreview: true,
		presets: newPresetList(), profiles: newProfileList(), items: newItemList()}
}

// SetKeys replaces the panel's bindings (user overrides).
func (m *Model) SetKeys(k keymap.Presets) { m.keys = k }

// Init loads the library and the run context of the selection.
func (m *Model) Init() tea.Cmd {
	m.rcPending = true
	var watch tea.Cmd
	if m.watchOn {
		watch = startWatchCmd(m.com.Workspace)
	}
	return tea.Batch(loadLibraryCmd(m.com.Services()),
		loadContextCmd(m.com.Services(), m.com.Selection.SessionFile, m.com.Selection.EntryID), watch)
}

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.sizeDraftDiff()
}

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
	if m.dlg != nil || m.editing || m.presets.Filtering() {
		return true
	}
	if m.showProfile {
		return m.profFocus && m.profForm != nil && m.profForm.CapturesInput()
	}
	return m.focus == paneEditor && m.form != nil && m.form.CapturesInput()
}

// onSetting reports whether the item cursor is on a settings row.
func (m *Model) onSetting() bool {
	return m.d != nil && m.items.Cursor() >= m.d.Len()
}

// ShortHelp implements common.Panel: the keys that act in the focused pane.
func (m *Model) ShortHelp() []key.Binding {
	k := &m.keys
	switch {
	case m.diff != nil && m.dlg == nil:
		return m.draftDiffHelp()
	case m.dlg != nil && m.dlg.kind == dialogConflict:
		return m.conflictHelp()
	case m.dlg != nil && m.dlg.kind == dialogSlots:
		return []key.Binding{k.Up, k.Down, k.Submit, k.Dismiss}
	case m.dlg != nil && m.dlg.kind == dialogPrompt && m.dlg.scope != "" && m.com.Workspace.Trust.Trusted:
		return []key.Binding{k.Submit, k.Scope, k.Dismiss}
	case m.dlg != nil && m.dlg.kind == dialogPrompt:
		return []key.Binding{k.Submit, k.Dismiss}
	case m.presets.Filtering():
		return []key.Binding{k.Submit, k.Dismiss}
	case m.dlg != nil:
		return []key.Binding{k.Confirm, k.Cancel}
	case m.editing:
		return []key.Binding{k.Back, k.Save}
	case m.focus == paneEditor && m.form != nil && m.form.CapturesInput():
		return append(m.form.ShortHelp(), k.Save) // esc and u reach the form, not the panel
	case m.focus == paneEditor && m.form != nil:
		return append(m.form.ShortHelp(), k.Back, k.Save, k.Undo)
	case m.showProfile && m.profFocus && m.profForm != nil && m.profForm.CapturesInput():
		return append(m.profForm.ShortHelp(), k.Save)
	case m.showProfile && m.profFocus && m.profForm != nil:
		return append(m.profForm.ShortHelp(), m.profileViewToggle(), k.Edit, k.Save, k.Undo, k.Back)
	case m.showProfile:
		k := m.profileKeys()
		return []key.Binding{k.Item, k.RawJSON, k.Edit, k.New, k.Fork, k.Delete, k.Save, k.Open, k.Back, k.Profiles}
	case m.focus == paneList:
		var bs []key.Binding
		if m.presets.Len() > 0 {
			bs = append(bs, k.Open)
		}
		bs = append(bs, k.New)
		if m.d != nil {
			bs = append(bs, k.Fork) // fork copies the open draft
		}
		return append(m.listShortHelp(bs), k.Profiles, k.Reload)
	case m.focus == paneItems && m.onSetting():
		// A settings row: the item keys (toggle, move, duplicate, delete) do nothing here.
		return []key.Binding{k.Open, k.AddBlock, k.AddSlot, k.Undo, k.Save, m.com.Keys.View}
	case m.focus == paneItems:
		return []key.Binding{k.Open, k.Toggle, k.MoveDown, k.MoveUp, k.AddBlock, k.AddSlot, k.Duplicate, k.Delete, k.Undo, k.Save, m.com.Keys.View}
	case m.focus == panePreview:
		return []key.Binding{k.Up, k.Down, m.com.Keys.Copy, m.com.Keys.View, k.Preview, k.Back}
	default:
		return []key.Binding{k.Open, k.Edit, m.com.Keys.View, k.Undo, k.Save, k.Back}
	}
}

// FullHelp implements common.Panel: the panel's keys; while a form has
// focus only its own keys and the three the panel keeps (esc, save, undo)
// act, so only those are listed.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.keys
	if m.focus == paneEditor && m.form != nil && m.dlg == nil && !m.editing {
		return [][]key.Binding{m.form.ShortHelp(), {k.Back, k.Save, k.Undo}, m.com.Keys.Forms.Text.Help()}
	}
	if m.showProfile && m.profFocus && m.profForm != nil && m.dlg == nil {
		return [][]key.Binding{m.profForm.ShortHelp(), {m.profileViewToggle(), k.Edit, k.Back, k.Save, k.Undo}, m.com.Keys.Forms.Text.Help()}
	}
	if m.showProfile {
		k := m.profileKeys()
		return [][]key.Binding{
			{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.Back},
			{k.Item, k.RawJSON, k.Edit, k.New, k.Fork, k.Delete},
			{k.Save, k.Undo, k.Profiles, k.Reload},
			{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
		}
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Open, k.Back, m.com.Keys.Filter}, // / filters the Presets list
		{k.Toggle, k.MoveUp, k.MoveDown, k.AddBlock, k.AddSlot, k.Duplicate, k.Delete, k.Item, k.Edit},
		{k.Save, k.Fork, k.New, k.Import, k.Undo, k.Redo, k.Preview, k.DraftDiff, k.Profiles, k.Reload},
		{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
	}
}

// Update implements common.Panel; a status message set on the way
// expires by itself (status.go).
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	p, cmd := m.update(msg)
	return p, tea.Batch(cmd, m.expireStatus())
}

func (m *Model) update(msg tea.Msg) (common.Panel, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if m.holdKey(msg) {
			return m, nil
		}
		cmds = append(cmds, m.handleKey(msg))
	case formReplyMsg:
		cmds = append(cmds, m.applyFormReply(msg))
	case tea.PasteMsg:
		cmds = append(cmds, m.handlePaste(msg))
	case tea.MouseMsg:
		cmds = append(cmds, m.handleMouse(msg))
	case common.StatusExpiredMsg:
		if m.statusClock.Expired(msg) {
			m.status, m.statusErr = "", false
		}
	case common.SelectionChangedMsg:
		cmds = append(cmds, m.followSelection(msg.Selection))
	case common.JumpMsg:
		cmds = append(cmds, m.onJump(msg))
	case common.DueMsg:
		due, again := m.following.Due(msg)
		if due {
			again = m.followNow(m.com.Selection)
		}
		cmds = append(cmds, again)
	case common.ThemeChangedMsg:
		// Rows and the preview are cached under the theme; only the
		// block editor holds styles of its own.
		m.styleEditor()
	case forms.EditMsg:
		if m.showProfile && m.prof != nil {
			cmds = append(cmds, m.applyProfileEdit(msg))
		} else {
			cmds = append(cmds, m.applyFormEdit(msg))
		}
	default:
		if cmd, ok := m.draftDiffUpdate(msg); ok {
			return m, cmd
		}
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
	case openedMsg:
		return m.applyOpened(msg)
	case checkedMsg:
		if m.d != nil && m.d.Install(msg.check) {
			m.refreshItems()
		}
	case contextMsg:
		if sel := m.com.Selection; msg.ctx.file != sel.SessionFile || msg.ctx.entry != sel.EntryID {
			return nil // the selection moved on (it does with every cursor move); its context is coming
		}
		m.rc, m.rcPending = msg.ctx, false
		if msg.ctx.err != nil {
			m.setStatus(msg.ctx.err.Error(), true)
		}
		m.resolveActive()
		m.refreshForm() // the tool picker follows the session's tools
		if cmd := m.openActiveIfAuto(); cmd != nil {
			return cmd
		}
		return m.schedulePreview()
	case previewDueMsg:
		if m.d != nil && msg.version == m.d.Version() && m.rc != nil {
			return m.previewRun.start(msg.version, m.d.Stack(), m.rc)
		}
	case previewMsg:
		if m.d != nil && msg.version == m.d.Version() {
			p := msg
			m.preview = &p
			m.previewGen++
			m.refreshItems() // the compile's template errors count on the rows
		}
	case savedMsg:
		return m.applySaved(msg)
	case createdMsg:
		return m.applyCreated(msg)
	case profileSavedMsg:
		return m.applyProfileSaved(msg)
	case profileStatusMsg:
		if m.com.Selection.SessionFile == msg.file {
			m.profStatus = msg.status
			m.refreshProfileRows()
		}
	case profileEditedMsg:
		return m.applyProfileEdited(msg)
	case watchStartedMsg:
		return m.applyWatchStarted(msg)
	case libraryChangedMsg:
		return m.applyLibraryChanged(msg)
	case conflictReadMsg:
		return m.openConflict(msg)
	case deletedMsg:
		return m.applyDeleted(msg)
	case importReadMsg:
		return m.applyImportRead(msg)
	case copiedMsg:
		m.applyCopied(msg)
		return nil
	case editorReadyMsg:
		return m.runEditor(msg)
	case editorDoneMsg:
		return m.applyEditorDone(msg)
	case actionMsg:
		return m.runAction(msg)
	}
	return nil
}

// resolveActive finds the session's Preset in the library as pi-forge
// restores it: a scoped key, or a bare id from an older entry resolved
// like a selector (project first); a Preset with errors still counts.
func (m *Model) resolveActive() {
	m.active = nil
	if m.rc != nil && m.lib != nil && m.rc.active.Choice == replay.PresetSelected {
		if p, err := m.lib.ResolvePreset(m.rc.active.Selector); p != nil && (err == nil || errors.Is(err, resources.ErrUnusable)) {
			m.active = p
		}
	}
	if m.lib != nil {
		m.presets.SetItems(presetRows(m.lib, m.active))
	}
}

// openActiveIfAuto opens the Preset the selection runs with (the
// session's active one, else the auto-activated one: autoTarget) in place
// of one the panel picked by itself, as long as the user has not touched
// it.
func (m *Model) openActiveIfAuto() tea.Cmd {
	target := m.autoTarget()
	if !m.autoOpened || m.d == nil || m.d.Dirty() || target == nil || m.open == nil || target.Path == m.open.Path {
		return nil
	}
	m.presets.Select(func(r presetRow) bool { return r.path == target.Path })
	return m.openPreset(target, openAuto)
}

// followSelection follows a new selection: the run context (and with it
// the preview) and the profile status are read again for its entry once
// the selection rests (common.FollowDelay).
func (m *Model) followSelection(sel common.Selection) tea.Cmd {
	if m.rc != nil && m.rc.file == sel.SessionFile && m.rc.entry == sel.EntryID && !m.showProfile {
		m.following.Cancel() // back where the context was read
		return nil
	}
	if m.rcPending && m.rc == nil && sel.SessionFile == "" {
		return nil // the first context, for no session, is being read
	}
	m.rcPending = true
	return m.following.Ask(m.com, common.FollowDelay)
}

// followNow reads the run context and the profile status of sel's entry.
func (m *Model) followNow(sel common.Selection) tea.Cmd {
	var status tea.Cmd
	if m.showProfile {
		status = loadProfileStatusCmd(m.lib, sel.SessionFile, sel.EntryID)
	}
	return tea.Batch(m.followContext(sel), status)
}

// onJump opens the Preset a jump points at (asking first when the open
// draft has unsaved changes) and puts the cursor on its item.
func (m *Model) onJump(msg common.JumpMsg) tea.Cmd {
	t := msg.Target
	if t.PresetID == "" {
		return nil
	}
	m.wantItem = t.ItemID
	if m.open != nil && m.open.Key() == t.PresetID {
		m.com.Selection.PresetID = t.PresetID // as if the user opened it
		m.focusWantedItem()
		return nil
	}
	if m.lib == nil {
		return nil
	}
	for _, p := range m.lib.Presets {
		if p.Key() == t.PresetID {
			// A dirty draft is never replaced unasked: the question says
			// what opening it discards.
			return m.confirmDiscard("Open "+p.Key(), func() tea.Cmd {
				m.presets.Select(func(r presetRow) bool { return r.path == p.Path })
				return m.openPreset(p, openJump)
			})
		}
	}
	return nil
}

// followContext reloads the run context when the session or entry changed.
func (m *Model) followContext(sel common.Selection) tea.Cmd {
	if m.rc != nil && m.rc.file == sel.SessionFile && m.rc.entry == sel.EntryID {
		m.rcPending = false
		return nil
	}
	m.rcPending = true
	return loadContextCmd(m.com.Services(), sel.SessionFile, sel.EntryID)
}

// schedulePreview asks for a debounced preview of the current draft.
func (m *Model) schedulePreview() tea.Cmd {
	m.previewRun.cancel() // the compile in flight, if any, is stale now
	if m.d == nil || m.rc == nil {
		return nil
	}
	return previewDue(m.d.Version())
}

// presetsOff reports whether the session switched Presets off.
func (m *Model) presetsOff() bool {
	return m.rc != nil && m.rc.active.Choice == replay.PresetDisabled
}
