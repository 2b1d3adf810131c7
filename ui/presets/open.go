package presets

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// conflictState says why the open file no longer matches the draft's
// revision.
type conflictState int

const (
	noConflict     conflictState = iota
	conflictOnSave               // a save was refused
	conflictOnDisk               // the watcher saw the file change under an edited draft
)

// conflictText explains a refused save; the draft stays.
var conflictText = i18n.Mark("the file changed on disk since you opened it; your draft is kept — ctrl+s again offers the difference, overwrite, fork or reload")

// reloadingText is the status while r re-reads the library; the new
// snapshot replaces it.
var reloadingText = i18n.Mark("reloading…")

// untrustedText explains why project Presets are read-only.
var untrustedText = i18n.Mark("this project is not trusted, so its Presets are read-only; fork to global (f) to keep your draft")

// applyLibrary installs a new snapshot. The open draft stays; its source
// entry is refreshed so the revision shown is current, but the revision
// the draft saves against is the one the user loaded.
func (m *Model) applyLibrary(msg libraryMsg) tea.Cmd {
	m.libErr = msg.err
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	m.lib, m.profilesView.snap = msg.lib, msg.lib
	m.resolveActive()
	m.run(nil, m.refreshProfileRows())
	var status tea.Cmd
	if m.showProfile { // a profile file may have changed: so may its state
		status = loadProfileStatusCmd(m.lib, m.com.Selection.SessionFile, m.com.Selection.EntryID)
	}
	if m.status == i18n.T(reloadingText) {
		m.setStatus(i18n.T("reloaded from disk: %d presets, %d profiles", len(m.lib.Presets), len(m.lib.Profiles)), false)
	}
	if m.open != nil {
		notice := m.noticeDiskChange()
		if p := m.findPreset(m.open.Scope, m.open.ID); p != nil {
			m.open = p
		}
		return tea.Batch(notice, status)
	}
	if len(m.lib.Presets) == 0 {
		return nil
	}
	i := m.initialPreset()
	m.presets.SetCursor(i)
	how := openHow{auto: m.com.Selection.PresetID == ""}
	if m.wantOpen != "" {
		how = openHow{announce: true, focusItems: m.focusNewDraft}
	}
	m.wantOpen, m.focusNewDraft = "", false
	return m.openPreset(m.lib.Presets[i], how)
}

// initialPreset picks what opens first: the selection's Preset, else the
// one the selection runs with (autoTarget), else the first in the list.
func (m *Model) initialPreset() int {
	target := ""
	if p := m.autoTarget(); p != nil {
		target = p.Key()
	}
	for _, want := range []string{m.wantOpen, m.com.Selection.PresetID, target} {
		for i, p := range m.lib.Presets {
			if want != "" && (p.Key() == want || p.ID == want) {
				return i
			}
		}
	}
	return 0
}

// autoTarget is the Preset the selection runs with, which the panel opens
// by itself (and the header names): the one the session's branch records,
// else the one pi-forge would auto-activate there — the fresh-session
// choice (auto-activating profile, then Preset) on a fresh branch or with
// no session, the auto-activating Preset alone elsewhere; nil when
// Presets are switched off, the project is untrusted or none applies.
func (m *Model) autoTarget() *resources.Preset {
	if m.active != nil {
		return m.active
	}
	sel := m.com.Selection
	switch {
	case m.lib == nil || !m.com.Workspace.Trust.Trusted:
		return nil
	case m.rc != nil && m.rc.active.Choice != replay.PresetUnrecorded:
		return nil // switched off, or a selection the library does not hold
	case m.rc == nil && sel.ActivePreset != "":
		return nil // recorded: resolved once the run context is read
	case sel.SessionFile == "" || sel.FreshBranch:
		p, _ := m.lib.FreshSessionPreset()
		return p
	}
	return m.lib.AutoActivatePreset()
}

// findPreset looks a Preset up in the current snapshot.
func (m *Model) findPreset(scope preset.Scope, id string) *resources.Preset {
	if m.lib == nil {
		return nil
	}
	for _, p := range m.lib.Presets {
		if p.Scope == scope && p.ID == id {
			return p
		}
	}
	return nil
}

// openHow says how a Preset comes to be opened.
type openHow struct {
	// announce emits the selection so the header and the other panels
	// follow; focusItems gives the items the focus once it is open.
	announce, focusItems bool
	// auto: the panel picked it, so the session's active Preset may take
	// its place while it is untouched.
	auto bool
}

var (
	openQuiet  = openHow{}
	openAuto   = openHow{auto: true}
	openByUser = openHow{announce: true, focusItems: true}
	// openJump opens what a jump points at; the item it names, if any,
	// takes the focus (focusWantedItem).
	openJump = openHow{announce: true}
)

// openPreset asks for p to be opened; the file is parsed into a draft in
// a command and installed by applyOpened.
func (m *Model) openPreset(p *resources.Preset, how openHow) tea.Cmd {
	m.opening++
	return openCmd(m.opening, p, how)
}

// applyOpened starts editing a parsed Preset, unless another open was
// asked for since.
func (m *Model) applyOpened(msg openedMsg) tea.Cmd {
	if msg.seq != m.opening {
		return nil
	}
	p := msg.p
	m.open, m.revision, m.conflict, m.autoOpened = p, p.SourceRevision, noConflict, msg.how.auto
	m.unparsed = !msg.parsed
	m.d = msg.d
	m.formMemory = &forms.Memory{}
	m.stopEditing()
	m.taItem, m.previewOff, m.preview = -1, 0, nil
	m.closeForm()
	m.refreshItems()
	m.items.SetCursor(0)
	m.focusWantedItem()
	m.syncEditor()
	if msg.how.focusItems {
		m.focus = paneItems
	}
	cmds := []tea.Cmd{m.schedulePreview()}
	if msg.how.auto {
		// The run context may have named the session's Preset meanwhile.
		cmds = append(cmds, m.openActiveIfAuto())
	}
	if msg.how.announce { // the header and the other panels follow
		m.com.Selection.PresetID = p.Key()
		if m.unparsed && !p.Legacy && p.Raw != nil {
			cmds = append(cmds, m.fixUnparsed(string(p.Raw)))
		}
	}
	return tea.Batch(cmds...)
}

// fixUnparsed opens the raw JSON editor of the Advanced row on the text
// of a Preset file that did not parse, so it is fixed here: once the text
// parses it becomes the draft (applyFormEdit), which ctrl+s writes over
// the file against the revision read.
func (m *Model) fixUnparsed(text string) tea.Cmd {
	m.items.SetCursor(m.d.Len() + len(settingsRows) - 1)
	m.openForm(true)
	raw, ok := m.form.(interface{ StartWith(string) tea.Cmd })
	if !ok || m.formKind != formRaw {
		return nil
	}
	m.setStatus(m.unparsedText(), true)
	return raw.StartWith(text)
}

// refreshItems rebuilds the item rows from the draft's typed view and the
// diagnostics (after an edit, a check or a preview).
func (m *Model) refreshItems() {
	if m.d == nil {
		m.items.SetItems(nil)
		return
	}
	m.items.SetItems(itemRows(m.d.Stack().Items, m.draftEditor.itemDiagCounts(m.compiled())))
}

// save writes the draft with the revision the user loaded.
func (m *Model) save() tea.Cmd {
	if m.d == nil || m.open == nil {
		return nil
	}
	if m.open.Legacy {
		m.setStatus(i18n.T("legacy .pi/prompt-stacks files are read-only; fork (f) to keep your draft"), true)
		return nil
	}
	if m.unparsed {
		m.setStatus(m.unparsedText(), true)
		return nil
	}
	if problem := forms.Unparsed(m.form); problem != "" {
		m.setStatus(rawUnparsedText(problem), true)
		return nil
	}
	if name := m.open.FileName(); name != m.open.ID+".json" {
		m.setStatus(i18n.T("pi-forge saves a preset only as <id>.json and this one is %s; fork (f) to keep your draft as %s.json", name, m.open.ID), true)
		return nil
	}
	m.setStatus(i18n.T("saving %s…", m.open.Key()), false)
	return m.preflightSave(saveCmd(m.com.Workspace, m.open.Scope, m.open.ID, m.d.Snapshot(), m.revision))
}

// rawUnparsedText refuses a save while the raw JSON being typed does not
// parse: the draft kept its last valid state, which is not what is shown.
func rawUnparsedText(problem string) string {
	return i18n.T("not saved: the raw JSON you are typing does not parse (%s); fix it, or esc drops it", problem)
}

// applySaved reports a save; a conflict keeps the draft and explains.
func (m *Model) applySaved(msg savedMsg) tea.Cmd {
	switch {
	case msg.err == nil:
		if m.d != nil && m.open != nil && m.open.Key() == msg.key {
			m.revision, m.conflict = msg.res.SourceRevision, noConflict
			m.d.MarkSaved(msg.tree)
			if pv := m.previewDock.preview; !m.d.Dirty() && pv != nil && pv.version == m.d.Version() {
				m.previewDock.rebase(m.d) // what is saved is the what-if's new baseline
			}
		}
		m.setStatus(i18n.T("saved %s", msg.key), false)
		if msg.errors > 0 {
			m.setStatus(i18n.T("saved %s — it has %d error(s), so pi-forge will not use it until they are fixed",
				msg.key, msg.errors), true)
		}
		return loadLibraryCmd(m.com.Services())
	case errors.Is(msg.err, resources.ErrConflict):
		m.conflict = conflictOnSave
		m.setStatus(i18n.T(conflictText), true)
		if m.d != nil && m.open != nil && m.open.Key() == msg.key {
			return readConflictCmd(msg.key, m.open.Path, m.d.Snapshot())
		}
	case errors.Is(msg.err, resources.ErrUntrusted):
		m.setStatus(i18n.T(untrustedText), true)
	default:
		m.setStatus(i18n.T("save %s: %v", msg.key, msg.err), true)
	}
	return nil
}

// applyCreated opens a forked or new Preset once the library shows it.
func (m *Model) applyCreated(msg createdMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(createFailed(msg.verb, string(msg.scope), msg.id, msg.err), true)
		return nil
	}
	m.setStatus(createdStatus(msg.verb, string(msg.scope), msg.id), false)
	m.closeDraft()
	m.wantOpen = string(msg.scope) + ":" + msg.id
	m.focusNewDraft = true
	return loadLibraryCmd(m.com.Services())
}

// createdStatus is what a create did, for its status, one whole
// sentence per verb: "forked the draft to project:x; it is open now".
func createdStatus(verb, scope, id string) string {
	switch verb {
	case "fork":
		return i18n.T("forked the draft to %s:%s; it is open now", scope, id)
	case "new":
		return i18n.T("created %s:%s; it is open now", scope, id)
	case "import":
		return i18n.T("imported %s:%s; it is open now", scope, id)
	}
	return fmt.Sprintf("%s %s:%s", verb, scope, id)
}

// createFailed says why a create (fork, new, import) wrote nothing.
func createFailed(verb, scope, id string, err error) string {
	switch verb {
	case "fork":
		return i18n.T("fork %s:%s: %v", scope, id, err)
	case "new":
		return i18n.T("new %s:%s: %v", scope, id, err)
	case "import":
		return i18n.T("import %s:%s: %v", scope, id, err)
	}
	return fmt.Sprintf("%s %s:%s: %v", verb, scope, id, err)
}

// reload re-reads the library and reopens the Preset from disk,
// discarding the draft.
func (m *Model) reload() tea.Cmd {
	if m.open != nil {
		m.wantOpen = m.open.Key()
	}
	m.closeDraft()
	m.setStatus(i18n.T(reloadingText), false)
	return tea.Batch(loadLibraryCmd(m.com.Services()),
		loadContextCmd(m.com.Services(), m.com.Selection.SessionFile, m.com.Selection.EntryID))
}

// closeDraft drops the open Preset and its draft.
func (m *Model) closeDraft() {
	m.open, m.d, m.conflict = nil, nil, noConflict
	m.opening++ // an open still running is no longer wanted
	m.stopEditing()
	m.closeForm()
	m.refreshItems()
}
