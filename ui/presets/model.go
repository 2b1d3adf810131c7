// Package presets is panel 1 of the workbench: the Preset (prompt stack)
// library with scope badges, the active marker of the selected session and
// diagnostics counts; the item list of the open Preset with reorder, add,
// duplicate and delete; an editor (inline block text, $EDITOR hand-off and
// the forms of ui/components/forms); live validation; a preview dock compiled
// against the selected session entry; guarded save, fork, new from the
// default mirror and undo; and a profiles view.
//
// The open Preset is a draft (ui/components/draft): the file's JSON tree,
// replaced on every edit, and its typed view. The lists are common.List
// values whose rows are built from the typed view when it changes. Files
// are read, parsed and written only in commands.
package presets

import (
	"errors"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/forms"
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
	i18n.Mark("Properties"), i18n.Mark("Parameters"), i18n.Mark("Tool policy"), i18n.Mark("Skill policy"), i18n.Mark("Regex rules"),
	i18n.Mark("Context options"), i18n.Mark("Capability bindings"), i18n.Mark("Advanced (raw JSON)"),
}

// Model is the Presets panel. It keeps the focus, the parts and the
// dialog stack, and routes. The parts are sub-models, one per thing on
// screen, each with its own Update, View, ShortHelp and CapturesInput on
// its own state and the shared Common: the library list (library.go), the
// draft editor (editorpart.go: items, block editor and forms), the
// preview dock (preview.go) and the profiles view (profiles.go); the
// dialogs are on a ui/components/dialog stack (dialog.go). A part never
// acts on the panel or on another part: what it sets off there it asks
// for as an intent, which run (intents.go) carries out. focused (focus.go)
// says which part has the keys; the panel routes keys, and builds its
// help, from that one answer.
type Model struct {
	com  *common.Common
	keys keymap.Presets

	width, height int
	focus         pane

	libraryList
	draftEditor
	previewDock
	profilesView
	overlays
	panelStatus
}

// New returns the Presets panel. Keys default to keymap.DefaultPresets.
func New(com *common.Common) *Model {
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = ""
	ta.CharLimit = 0
	ta.MaxHeight = 0
	m := &Model{com: com, keys: keymap.DefaultPresets(),
		libraryList:  libraryList{com: com, presets: newPresetList()},
		draftEditor:  draftEditor{com: com, ta: ta, taItem: -1, formRow: -1, items: newItemList()},
		previewDock:  previewDock{com: com, showPreview: true},
		profilesView: profilesView{com: com, profiles: newProfileList()}}
	m.libraryList.keys = &m.keys
	m.draftEditor.keys = &m.keys
	m.profilesView.keys = &m.keys
	m.previewDock.keys = &m.keys
	m.dialogs.Dismiss = m.keys.Dismiss
	return m
}

// SetKeys replaces the panel's bindings (user overrides).
func (m *Model) SetKeys(k keymap.Presets) {
	m.keys = k
	m.dialogs.Dismiss = k.Dismiss
}

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
	m.layoutParts()
}

// Title implements common.Panel.
func (m *Model) Title() string { return i18n.T("Presets") }

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

// onSetting reports whether the item cursor is on a settings row.
func (m *Model) onSetting() bool {
	return m.d != nil && m.items.Cursor() >= m.d.Len()
}

// Update implements common.Panel; a status message set on the way
// expires by itself (status.go).
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	p, cmd := m.update(msg)
	m.layoutParts()
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
		// block editor holds styles of its own. The open forms hold text
		// translated when they were built: after a language switch they
		// are built again, unless a field is being typed in.
		m.styleEditor()
		m.retranslateForms()
	case forms.EditMsg:
		if m.showProfile && m.prof != nil {
			cmds = append(cmds, m.run(nil, m.profilesView.applyProfileEdit(msg)))
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
			rc := *m.rc // the run context with the user's macro values
			rc.macros, rc.slots = m.macros, m.customSlots
			return m.previewRun.start(msg.version, m.d.Stack(), &rc)
		}
	case previewMsg:
		if m.d != nil && msg.version == m.d.Version() {
			m.previewDock.install(msg, m.d)
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
			return m.run(nil, m.refreshProfileRows())
		}
	case sessionPlannedMsg:
		return m.openWriteDialog(msg)
	case sessionAppendedMsg:
		return m.applyAppended(msg)
	case capturedMsg:
		return m.confirmCaptured(msg)
	case exportedMsg:
		m.applyExported(msg)
	case profileEditedMsg:
		return m.run(m.profilesView.applyProfileEdited(msg))
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
	case common.CopiedMsg:
		if msg.Owner == common.PanelPresets {
			m.setStatus(msg.Status())
		}
		return nil
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
			return m.confirmDiscard(i18n.T("Open %s?", p.Key()), func() tea.Cmd {
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
