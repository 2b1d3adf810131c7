package capabilities

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// Update implements common.Panel.
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	if exp, ok := msg.(common.StatusExpiredMsg); ok {
		if m.statusClock.Expired(exp) {
			m.status, m.statusErr = "", false
		}
		return m, nil
	}
	p, cmd := m.update(msg)
	m.sizeBindings()
	m.layoutDialog()
	// A message set on the way expires by itself (issue 15).
	return p, tea.Batch(cmd, m.statusClock.Schedule(m.com, m.status != "", m.statusErr))
}

func (m *Model) update(msg tea.Msg) (common.Panel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		if m.dialogs.Open() {
			return m, m.dialogKey(msg)
		}
		if m.edit != nil && m.focus == paneDetail {
			return m, m.edit.update(msg)
		}
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m, m.handleMouse(msg.(tea.MouseMsg))
	case common.SelectionChangedMsg:
		return m, m.follow(msg.Selection)
	case common.JumpMsg:
		return m, m.onJump(msg)
	case common.CopiedMsg:
		if msg.Owner == common.PanelCapabilities {
			m.setStatus(msg.Status())
		}
	case common.DueMsg:
		if due, again := m.following.Due(msg); due {
			return m, m.followEntry()
		} else if again != nil {
			return m, again
		}
	case common.ThemeChangedMsg:
		m.bindings, m.bindingsFor = nil, "" // the form keeps the old styles
		return m, m.requestDetail()
	case tea.WindowSizeMsg:
		return m, m.requestDetail()
	case libraryMsg:
		return m, m.onLibrary(msg)
	case sessionMsg:
		return m, m.onSession(msg)
	case stateMsg:
		m.onState(msg)
	case detailMsg:
		delete(m.detailPending, msg.key)
		if len(m.detail) >= detailCacheMax {
			clear(m.detail)
		}
		m.detail[msg.key] = msg.lines
	case planMsg:
		m.onPlan(msg)
	case appliedMsg:
		return m, m.onApplied(msg)
	case savedMsg:
		return m, m.onSaved(msg)
	case deletedMsg:
		if msg.err != nil {
			m.setStatus(sanitize.Fold(msg.err.Error()), true)
			return m, nil
		}
		m.setStatus("deleted "+msg.key, false)
		return m, m.reloadLibrary()
	case editorDoneMsg:
		if msg.err != nil {
			m.setStatus(sanitize.Fold(msg.err.Error()), true)
		} else if m.edit != nil {
			m.edit.setContent(msg.content)
		}
	}
	return m, nil
}

// reloadLibrary starts a library load.
func (m *Model) reloadLibrary() tea.Cmd {
	m.libGen++
	return libraryCmd(m.com.Services(), m.libGen)
}

// follow makes the session view track the shared selection: a new file is
// opened, a new entry recomputed once the selection rests
// (common.FollowDelay), so a burst of cursor moves computes the state
// once, where it ends.
func (m *Model) follow(sel common.Selection) tea.Cmd {
	v := &m.view
	if sel.SessionFile == "" {
		return nil
	}
	v.name, v.atLeaf = sel.SessionName, sel.AtLeaf
	if sel.SessionFile != v.file || m.sess == nil {
		v.file, v.entryID, v.state, v.err = sel.SessionFile, sel.EntryID, nil, ""
		v.loading = true
		m.following.Cancel() // the state is computed once the file is read
		m.sessGen++
		return sessionCmd(sel.SessionFile, m.com.Workspace.Cwd, m.sessGen)
	}
	if sel.EntryID != v.entryID {
		v.entryID = sel.EntryID
		v.loading = true
		return m.following.Ask(m.com, common.FollowDelay)
	}
	return nil
}

// followEntry computes the state at the followed entry, once the
// selection rested there.
func (m *Model) followEntry() tea.Cmd {
	v := &m.view
	if m.sess == nil {
		return nil // the session is being read; its state follows
	}
	if _, known := m.sess.IndexOf(v.entryID); !known && v.entryID != "" {
		return m.reopenSession() // the session grew (follow mode): read it again
	}
	return m.recompute()
}

// recompute starts the state computation at the followed entry.
func (m *Model) recompute() tea.Cmd {
	if m.sess == nil || m.lib == nil {
		return nil
	}
	m.sessGen++
	m.view.loading = true
	return stateCmd(m.sess, m.view.file, m.view.at(), m.lib, m.com.Services(), m.sessGen)
}

func (m *Model) onLibrary(msg libraryMsg) tea.Cmd {
	if msg.gen != m.libGen {
		return nil
	}
	if msg.err != nil {
		m.libErr = sanitize.Fold(msg.err.Error())
		return nil
	}
	m.lib, m.libErr = msg.lib, ""
	m.bindings, m.bindingsFor = nil, ""
	m.list.SetItems(m.markActive(msg.rows))
	return tea.Batch(m.showJump(), m.requestDetail(), m.recompute())
}

func (m *Model) onSession(msg sessionMsg) tea.Cmd {
	if msg.gen != m.sessGen || msg.file != m.view.file {
		return nil
	}
	if msg.err != nil {
		m.sess, m.view.loading, m.view.err = nil, false, sanitize.Fold(msg.err.Error())
		return nil
	}
	m.sess = msg.sess
	m.view.abandoned, m.view.foreign = msg.abandoned, msg.foreign
	return m.recompute()
}

func (m *Model) onState(msg stateMsg) {
	if msg.gen != m.sessGen || msg.file != m.view.file {
		return
	}
	v := &m.view
	v.loading = false
	if msg.err != nil {
		v.state, v.err = nil, sanitize.Fold(msg.err.Error())
		return
	}
	v.state, v.err, v.declared = msg.st, "", msg.declared
	v.cursor = min(v.cursor, max(0, len(msg.st.Active())-1))
	m.bindings, m.bindingsFor = nil, ""
	m.list.SetItems(m.markActive(m.list.Items()))
	m.showJump()
}

// markActive flags the library rows whose capability is active (unbound
// or bound) in the session at the followed entry.
func (m *Model) markActive(rows []libRow) []libRow {
	active := map[string]bool{}
	if st := m.view.state; st != nil {
		for _, a := range st.Active() {
			if a.Snapshot.Source.Kind == capability.SourceCapability {
				active[a.Snapshot.Source.Key.String()] = true
			}
		}
	}
	out := make([]libRow, len(rows))
	for i, r := range rows {
		r.active = active[r.key]
		out[i] = r
	}
	return out
}

// handleKey routes a key: dialog, filter, editor, panel keys, pane keys.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if m.dialogs.Open() {
		return m.dialogKey(msg)
	}
	if m.list.Filtering() {
		m.list.FilterKey(msg, k.Submit, k.Dismiss, common.TextKeys(m.com))
		return m.requestDetail()
	}
	if m.edit != nil && m.focus == paneDetail {
		return m.editorKey(msg)
	}
	if cmd, ok := m.focusKey(msg); ok { // before the status goes: v shows it whole
		return cmd
	}
	m.status = ""
	switch {
	case key.Matches(msg, k.Reload):
		return tea.Batch(m.reloadLibrary(), m.reopenSession())
	case key.Matches(msg, k.Bindings):
		if m.mode == modeCapability {
			m.mode = modeBindings
		} else {
			m.mode = modeCapability
		}
		m.detailOffset = 0
		return m.requestDetail()
	case key.Matches(msg, k.EnableBound):
		return m.chooseBinding()
	case key.Matches(msg, k.Add):
		m.openDialog(newPrompt(m, promptAddText, "Add a manual directive",
			"Type the directive, kept verbatim (source manual, actor user, no tool changes): enter shows what will be appended, and nothing is written before you confirm.", "directive: "))
		return nil
	case key.Matches(msg, k.Reset):
		return m.startAction(capstate.Operation{Kind: capstate.OpReset})
	}
	switch m.focus {
	case paneLibrary:
		return m.libraryKey(msg)
	case paneDetail:
		return m.detailKey(msg)
	}
	return m.sessionKey(msg)
}

func (m *Model) reopenSession() tea.Cmd {
	if m.view.file == "" {
		return nil
	}
	m.sess = nil
	m.view.loading = true
	m.sessGen++
	return sessionCmd(m.view.file, m.com.Workspace.Cwd, m.sessGen)
}

func (m *Model) libraryKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if m.list.HandleNav(msg, k.Nav) {
		m.detailOffset = 0
		return m.requestDetail()
	}
	switch {
	case key.Matches(msg, k.Filter):
		m.list.StartFilter()
	case key.Matches(msg, k.Open):
		return m.openEditor()
	case key.Matches(msg, k.New):
		m.openDialog(newPrompt(m, promptNewID, "New capability",
			"enter opens an empty editor for it; "+k.Save.Help().Key+" there creates its file, and saving never activates it.", "id: "))
	case key.Matches(msg, k.Delete):
		return m.confirmDelete()
	case key.Matches(msg, k.Enable):
		if r, ok := m.list.Selected(); ok {
			return m.startAction(capstate.Operation{Kind: capstate.OpEnable, Arg: r.key})
		}
	}
	return nil
}

func (m *Model) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if m.mode == modeBindings {
		f := m.bindingsForm()
		switch {
		case f == nil:
		case isFormNav(msg, k):
			m.bindings, _ = f.Update(msg) // read-only: only moving is forwarded
		case key.Matches(msg, k.Enable, k.EnableBound):
			if id := m.bindingUnderCursor(); id != "" {
				return m.startAction(capstate.Operation{Kind: capstate.OpEnableBound, Arg: id})
			}
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Up):
		m.detailOffset = max(0, m.detailOffset-1)
	case key.Matches(msg, k.Down):
		m.detailOffset++
	case key.Matches(msg, k.PageUp):
		m.detailOffset = max(0, m.detailOffset-10)
	case key.Matches(msg, k.PageDown):
		m.detailOffset += 10
	case key.Matches(msg, k.Top):
		m.detailOffset = 0
	case key.Matches(msg, k.Open):
		return m.openEditor()
	case key.Matches(msg, k.Enable):
		if r, ok := m.list.Selected(); ok {
			return m.startAction(capstate.Operation{Kind: capstate.OpEnable, Arg: r.key})
		}
	}
	return nil
}

// isFormNav reports whether a key only moves inside the bindings form.
func isFormNav(msg tea.KeyPressMsg, k *keymap.Capabilities) bool {
	switch msg.String() {
	case "left", "right":
		return true
	}
	return key.Matches(msg, k.Up, k.Down)
}

func (m *Model) sessionKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	v := &m.view
	n := 0
	if v.state != nil {
		n = len(v.state.Active())
	}
	switch {
	case key.Matches(msg, k.Up):
		v.cursor = max(0, v.cursor-1)
	case key.Matches(msg, k.Down):
		v.cursor = min(max(0, n-1), v.cursor+1)
	case key.Matches(msg, k.Top):
		v.cursor = 0
	case key.Matches(msg, k.Bottom):
		v.cursor = max(0, n-1)
	case key.Matches(msg, k.Expand):
		if a, ok := v.selectedActive(); ok {
			v.expanded[a.Snapshot.ActivationID] = !v.expanded[a.Snapshot.ActivationID]
		}
	case key.Matches(msg, k.Disable):
		if a, ok := v.selectedActive(); ok {
			return m.startAction(capstate.Operation{Kind: capstate.OpDisable, Arg: a.Snapshot.ActivationID})
		}
	case key.Matches(msg, k.Enable):
		if r, ok := m.list.Selected(); ok {
			return m.startAction(capstate.Operation{Kind: capstate.OpEnable, Arg: r.key})
		}
	}
	return nil
}

// chooseBinding opens the enable-bound chooser over the Preset in force.
func (m *Model) chooseBinding() tea.Cmd {
	if problem := m.actionProblem(); problem != "" {
		m.setStatus(problem, true)
		return nil
	}
	choices, msg := bindingChoices(&m.view)
	if msg == "" {
		msg = "enter shows what enabling the binding will do; nothing is written before you confirm."
	}
	m.openDialog(&choiceDialog{com: m.com, keys: &m.keys, title: "Enable a binding of " + presetLabel(m.view.state), choices: choices, body: msg})
	return nil
}

func presetLabel(st *capstate.State) string {
	if st == nil || st.Preset == nil {
		return "(no active preset)"
	}
	return st.Preset.Key.String()
}

// actionProblem says why no action can start from the session view now.
func (m *Model) actionProblem() string {
	v := &m.view
	switch {
	case v.file == "":
		return "no session selected: pick one in the Session panel (3)"
	case v.loading || v.state == nil || m.sess == nil:
		return "the session is still being read"
	case v.at() != "" && m.sess.Entries[m.sess.LeafIndex()].ID != v.entryID:
		return "changes append at the end of the session: select its leaf in the Session panel (G) first"
	case m.lib == nil:
		return "the library is still loading"
	}
	return ""
}

// startAction plans an operation; the preview opens when the plan is back.
func (m *Model) startAction(op capstate.Operation) tea.Cmd {
	if problem := m.actionProblem(); problem != "" {
		m.setStatus(problem, true)
		return nil
	}
	m.setStatus("working out what “"+strings.TrimSuffix(opTitle(op), "?")+"” will do…", false)
	return planCmd(m.sess, m.view.file, op, m.lib, m.com.Services(), m.now, m.newID, m.lastWrite)
}

func (m *Model) onPlan(msg planMsg) {
	if msg.err != nil {
		m.setStatus(sanitize.Fold(msg.err.Error()), true)
		return
	}
	p := &preview{op: msg.op, plan: msg.plan}
	if m.sess != nil {
		p.sessionID = m.sess.Header.ID
	}
	switch {
	case len(msg.blocked) > 0:
		p.plan, p.problems = nil, msg.blocked
	case msg.plan.Refusal != nil:
		p.problems = append(p.problems, msg.plan.Refusal.Notice())
	case msg.plan.Changes():
		p.problems = append(p.problems, msg.live...)
	}
	if p.plan != nil && p.plan.Result.Warning != "" {
		p.warnings = append(p.warnings, p.plan.Result.Warning)
	}
	m.status = ""
	m.openDialog(&previewDialog{com: m.com, keys: &m.keys, title: previewTitle(msg.op, p.plan), preview: p})
}

func (m *Model) onApplied(msg appliedMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(sanitize.Fold(msg.err.Error()), true)
		return m.reopenSession()
	}
	m.lastWrite = msg.wrote
	m.setStatus(sanitize.Fold(didText(msg.plan)), false)
	// The Session panel reads the file again and shows the new leaf.
	appended := common.SessionWrittenMsg{File: msg.file}
	return tea.Batch(m.reopenSession(), func() tea.Msg { return appended })
}

// bindingsForm is the read-only bindings view of the selected Preset: the
// Presets panel's bindings form over the Preset the selection names, else
// the one in force in the session.
func (m *Model) bindingsForm() forms.Form {
	p := m.selectedPreset()
	if p == nil {
		return nil
	}
	want := p.Key() + "@" + p.SourceRevision
	if m.bindings == nil || m.bindingsFor != want {
		m.bindings = forms.NewBindings(forms.Context{Com: m.com, Draft: preset.ToJSON(p.Stack), Library: m.lib, Scope: p.Scope})
		m.bindingsFor = want
	}
	return m.bindings
}

// sizeBindings builds the bindings form of the selected Preset and lays
// it out for the detail pane View draws it in (forms.Form.SetSize);
// Update and SetSize call it, so View only draws.
func (m *Model) sizeBindings() {
	if m.mode != modeBindings || m.width <= 0 || m.height <= 1 {
		return
	}
	if d := m.layout().detail; d.h > 0 {
		if f := m.bindingsForm(); f != nil {
			f.SetSize(d.w-4, d.h-2)
		}
	}
}

// bindingUnderCursor is the binding id the bindings view points at, when
// that view shows the Preset in force in the followed session (only its
// bindings can be enabled there).
func (m *Model) bindingUnderCursor() string {
	p := m.selectedPreset()
	st := m.view.state
	if p == nil || st == nil || st.Preset == nil || st.Preset.Key.String() != p.Key() {
		m.setStatus("only bindings of the session's active Preset can be enabled", true)
		return ""
	}
	res := m.lib.ResolvePresetCapabilities(p)
	row := forms.CursorOf(m.bindings).Row
	if row < 0 || row >= len(res.Bindings) {
		return ""
	}
	return res.Bindings[row].ID
}

// selectedPreset is the Preset whose bindings show: the shared
// selection's, else the one in force at the followed entry.
func (m *Model) selectedPreset() *resources.Preset {
	if m.lib == nil {
		return nil
	}
	keys := []string{m.com.Selection.PresetID}
	if st := m.view.state; st != nil && st.Preset != nil {
		keys = append(keys, st.Preset.Key.String())
	}
	for _, want := range keys {
		if want == "" {
			continue
		}
		for _, p := range m.lib.Presets {
			if p.Key() == want {
				return p
			}
		}
	}
	return nil
}

// requestDetail asks for the selected capability's detail when it is not
// rendered yet.
func (m *Model) requestDetail() tea.Cmd {
	c := m.selectedCapability()
	_, w := m.detailInner()
	if c == nil || w <= 0 {
		return nil
	}
	k := detailKey{key: c.Key(), revision: c.SourceRevision, width: w, theme: common.ThemeKey(&m.com.Styles)}
	if _, ok := m.detail[k]; ok || m.detailPending[k] {
		return nil
	}
	m.detailPending[k] = true
	r, _ := m.list.Selected()
	return detailCmd(k, c, r.boundBy, m.com.Workspace, m.com.Styles, m.com.Markdown())
}

// selectedCapability is the library capability under the cursor.
func (m *Model) selectedCapability() *resources.Capability {
	r, ok := m.list.Selected()
	if !ok || m.lib == nil {
		return nil
	}
	for _, c := range m.lib.Capabilities {
		if c.Key() == r.key {
			return c
		}
	}
	return nil
}
