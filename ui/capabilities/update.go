package capabilities

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/ui/common"
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
	m.layoutParts()
	// A message set on the way expires by itself (issue 15).
	return p, tea.Batch(cmd, m.statusClock.Schedule(m.com, m.status != "", m.statusErr))
}

func (m *Model) update(msg tea.Msg) (common.Panel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		if p := m.overPanes(); p != nil {
			return m, m.run(p.Update(msg))
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
		if due, again := m.view.following.Due(msg); due {
			return m, m.followEntry()
		} else if again != nil {
			return m, again
		}
	case common.ThemeChangedMsg:
		m.bindings.reset() // the form keeps the old styles
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
		m.detail.install(msg)
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
func (m *Model) reloadLibrary() tea.Cmd { return m.libraryList.reload() }

// follow makes the session view track the shared selection (sessionView.follow).
func (m *Model) follow(sel common.Selection) tea.Cmd { return m.view.follow(sel) }

// followEntry computes the state at the followed entry, once the
// selection rested there.
func (m *Model) followEntry() tea.Cmd {
	v := &m.view
	if v.sess == nil {
		return nil // the session is being read; its state follows
	}
	if _, known := v.sess.IndexOf(v.entryID); !known && v.entryID != "" {
		return m.reopenSession() // the session grew (follow mode): read it again
	}
	return m.recompute()
}

// recompute starts the state computation at the followed entry.
func (m *Model) recompute() tea.Cmd { return m.view.compute(m.lib) }

func (m *Model) onLibrary(msg libraryMsg) tea.Cmd {
	if !m.libraryList.install(msg, m.view.activeKeys()) {
		return nil
	}
	m.bindings.reset()
	return tea.Batch(m.showJump(), m.requestDetail(), m.recompute())
}

func (m *Model) onSession(msg sessionMsg) tea.Cmd {
	if !m.view.installSession(msg) {
		return nil
	}
	return m.recompute()
}

func (m *Model) onState(msg stateMsg) {
	if !m.view.installState(msg) {
		return
	}
	m.bindings.reset()
	m.list.SetItems(markActive(m.list.Items(), m.view.activeKeys()))
	m.showJump()
}

// handleKey routes a key: a part over the panes (dialog, filter, editor)
// takes it whole; else y/v/o, the panel keys, then the focused pane.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	if p := m.overPanes(); p != nil {
		return m.run(p.Update(msg))
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
		m.detail.offset = 0
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
	return m.run(m.focusedPane().Update(msg))
}

func (m *Model) reopenSession() tea.Cmd { return m.view.reopen() }

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
	case v.loading || v.state == nil || v.sess == nil:
		return "the session is still being read"
	case v.at() != "" && v.sess.Entries[v.sess.LeafIndex()].ID != v.entryID:
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
	return planCmd(m.view.sess, m.view.file, op, m.lib, m.com.Services(), m.now, m.newID, m.view.lastWrite)
}

func (m *Model) onPlan(msg planMsg) {
	if msg.err != nil {
		m.setStatus(sanitize.Fold(msg.err.Error()), true)
		return
	}
	p := &preview{op: msg.op, plan: msg.plan}
	if m.view.sess != nil {
		p.sessionID = m.view.sess.Header.ID
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
	m.view.lastWrite = msg.wrote
	m.setStatus(sanitize.Fold(didText(msg.plan)), false)
	// The Session panel reads the file again and shows the new leaf.
	appended := common.SessionWrittenMsg{File: msg.file}
	return tea.Batch(m.reopenSession(), func() tea.Msg { return appended })
}

// requestDetail asks for the selected capability's detail when it is not
// rendered yet.
func (m *Model) requestDetail() tea.Cmd {
	_, w := m.detailInner()
	r, _ := m.list.Selected()
	return m.detail.request(m.selectedCapability(), r.boundBy, w)
}
