package agents

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/follower"
)

// Update implements common.Panel.
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	if exp, ok := msg.(common.StatusExpiredMsg); ok {
		if m.statusClock.Expired(exp) {
			m.status = ""
		}
		return m, nil
	}
	cmd := m.update(msg)
	m.layoutParts()
	// Whatever moved the cursor or the screen may have put a running
	// agent's detail on screen: its run time then ticks. A message set on
	// the way expires by itself (issue 15).
	return m, tea.Batch(cmd, m.ensureClock(), m.statusClock.Schedule(m.com, m.status != "", m.statusErr))
}

// setStatus shows a message under the panes until it expires
// (common.StatusClock) or the next key.
func (m *Model) setStatus(text string, isErr bool) {
	m.status, m.statusErr = text, isErr
	m.statusClock.Set()
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m.handleMouse(msg.(tea.MouseMsg))
	case common.SelectionChangedMsg:
		return tea.Batch(m.follow(msg.Selection.SessionFile), m.rootGrew(msg.Selection))
	case common.JumpMsg:
		return m.onJump(msg)
	case common.AgentTreesMsg:
		m.setRoots(msg.Sessions)
	case treeLoadedMsg:
		return m.applyTree(msg)
	case pollTickMsg:
		return m.applyPollTick(msg)
	case pollResultMsg:
		return m.applyPollResult(msg)
	case clockMsg:
		return m.applyClock()
	case activityMsg:
		m.applyActivity(msg)
	case transcriptLoadedMsg:
		return m.applyTranscript(msg)
	case transcriptRenderedMsg:
		return m.applyRendered(msg)
	case follower.StartedMsg:
		return m.applyTailStarted(msg)
	case follower.EventMsg:
		return m.applyTail(msg)
	case common.CopiedMsg:
		if msg.Owner == common.PanelAgents {
			m.setStatus(msg.Status())
		}
	case tea.WindowSizeMsg, common.ThemeChangedMsg:
		// The transcript is laid out for a width and a theme.
		if m.screen == screenTranscript {
			return m.renderTranscript()
		}
	}
	return nil
}

// reloadByUser is r: the tree read again with the list's run times
// sampled anew.
func (m *Model) reloadByUser() tea.Cmd {
	m.agents.resample()
	return m.reload()
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.focusKey(msg); ok { // before the status goes: v shows it whole
		return cmd
	}
	m.status = ""
	switch m.screen {
	case screenTranscript:
		return m.transcriptKey(msg)
	case screenDetail:
		return m.detailScreenKey(msg)
	case screenTimeline:
		return m.timelineKey(msg)
	}
	k := &m.keys
	switch {
	case key.Matches(msg, k.Reload):
		return m.reloadByUser()
	case m.showsRoots():
		return m.rootsKey(msg)
	}
	if moved, ok := m.agents.filterKey(msg, k, m.live.tree, m.now); ok {
		if moved {
			m.detail.reset()
		}
		return m.requestActivity()
	}
	switch {
	case key.Matches(msg, k.Transcript):
		return m.openTranscript()
	case key.Matches(msg, k.Timeline):
		m.openTimeline()
		return nil
	}
	if m.focus == paneDetail && m.wide() {
		return m.detailKey(msg)
	}
	switch {
	case key.Matches(msg, k.Open):
		return m.openSelected()
	case m.agents.rows.HandleNav(msg, k.Nav):
		return m.selectionMoved()
	}
	return nil
}

// openSelected is enter on the list: the full-width detail on a narrow
// screen, the whole task in the wide detail pane.
func (m *Model) openSelected() tea.Cmd {
	if m.selected() == nil {
		return nil
	}
	if !m.wide() {
		m.screen = screenDetail
		m.detail.offset = 0
		return m.requestActivity()
	}
	m.detail.taskExpanded = !m.detail.taskExpanded
	return nil
}

// selectionMoved shows the agent the list cursor moved to: its detail
// from the top, its activity read.
func (m *Model) selectionMoved() tea.Cmd {
	m.detail.reset()
	return m.requestActivity()
}

// detailKey hands a key to the detail pane; back gives the list the
// keys.
func (m *Model) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	if _, back := m.detail.Update(msg, &m.keys, max(1, m.height-3)).(backIntent); back {
		m.focus = paneList
	}
	return nil
}

// detailScreenKey handles the narrow layout's full-width detail.
func (m *Model) detailScreenKey(msg tea.KeyPressMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Back):
		m.screen = screenDashboard
		return nil
	case key.Matches(msg, k.Transcript):
		return m.openTranscript()
	case key.Matches(msg, k.Reload):
		return m.reloadByUser()
	}
	return m.detailKey(msg)
}

// transcriptKey hands a key to the transcript and acts on what it asks.
func (m *Model) transcriptKey(msg tea.KeyPressMsg) tea.Cmd {
	switch in := m.tr.Update(msg, &m.keys, m.transcriptHeight()).(type) {
	case backIntent:
		followed := m.tr.followed > 0
		m.stopTranscript()
		m.screen = screenDashboard
		if !m.wide() && m.selected() != nil {
			m.screen = screenDetail
		}
		if followed { // the agent wrote more: its numbers changed
			return m.reload()
		}
	case followIntent:
		return m.followTranscript()
	case renderIntent:
		return m.renderTranscript()
	case statusIntent:
		m.setStatus(in.text, in.isErr)
	}
	return nil
}
