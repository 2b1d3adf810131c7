// Package agents is panel 5 of the workbench: the pi-subagent tree of the
// root session selected in the Session panel, as pi-subagent's /subagents
// dashboard shows it — the tree on the left (path, role, current task,
// status, cost, run time, requests/tool calls, tokens, creation time), the
// selected agent's details, usage and recent activity on the right, a
// list → detail layout on narrow terminals — plus a read-only transcript
// with earlier pages, follow mode and expandable tool output, without
// thinking.
//
// Files are read in tea.Cmds (tree, activity, transcript pages, the live
// tail); Update moves cursors and View draws the visible window of rows
// and lines built beforehand.
package agents

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/session/subagent"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/follower"
)

// screen is what the panel shows.
type screen int

const (
	screenDashboard screen = iota
	// screenDetail is the narrow layout's full-width detail.
	screenDetail
	screenTranscript
	// screenTimeline draws every agent on one time axis (timeline.go).
	screenTimeline
)

// pane is a pane of the wide dashboard, in focus order.
type pane int

const (
	paneList pane = iota
	paneDetail
	paneCount
)

// wideMin is the width from which the list and the detail sit side by side.
const wideMin = 110

// Model is the Agents panel.
type Model struct {
	com  *common.Common
	keys keymap.Agents
	// tail follows the open transcript's file (followTranscript).
	tail follower.Follower

	width, height int
	screen        screen
	focus         pane

	// live is the root session's tree as loaded, and its files watched
	// for changes (live.go).
	live *liveTree

	// agents is the dashboard's tree list (agentlist.go).
	agents *agentList

	detail detailState
	// roots are the sessions with a tree, offered while none is shown
	// (roots.go).
	roots      rootsState
	activity   map[string]activityResult
	activityAt map[string]bool // requests in flight, by activity key
	tr         transcriptState
	timeline   timelineState
	// jump is a requested jump to an agent's transcript not taken yet
	// (jump.go).
	jump *jumpTarget
	// status is a message under the panes; it expires by itself
	// (statusClock; statusErr: it is an error, so it stays longer).
	status      string
	statusErr   bool
	statusClock common.StatusClock

	// now is the time the live run time is computed for (Common.Clock);
	// clockOn is true while a tick is on its way.
	now     time.Time
	clockOn bool
}

// detailState is the selected agent's detail pane: where it is scrolled
// to, whether the task shows whole, and the lines laid out for it
// (layoutDetail) with the last offset they allow.
// It answers its own keys (Update) and gives its help; the panel draws it
// for the agent the list has.
type detailState struct {
	offset       int
	taskExpanded bool
	// cacheKey and lines are the detail as laid out, maxOffset the last
	// offset its lines allow in the pane (the keys and the wheel stop
	// there). The offset is not cut when the lines shrink for a moment
	// (the activity read again after every poll): the view shows their
	// end until they grow back.
	cacheKey  string
	lines     []string
	maxOffset int
}

// reset shows another agent: from the top, the task folded.
func (d *detailState) reset() { d.offset, d.taskExpanded = 0, false }

// scroll moves the detail by delta lines within its text.
func (d *detailState) scroll(delta int) {
	d.offset = common.Clamp(min(d.offset, d.maxOffset)+delta, 0, d.maxOffset)
}

// Update scrolls the detail (page lines a page) within its text, so a
// key up after keys pressed past the end moves it at once, and expands
// the task; back is asked of the panel (the list takes the keys).
func (d *detailState) Update(msg tea.KeyPressMsg, k *keymap.Agents, page int) intent {
	switch {
	case key.Matches(msg, k.Open):
		d.taskExpanded = !d.taskExpanded
	case key.Matches(msg, k.Back):
		return backIntent{}
	default:
		d.offset, _ = common.NavMove(msg, k.Nav, min(d.offset, d.maxOffset), page, d.maxOffset)
	}
	return nil
}

// ShortHelp is the detail's keys: on the narrow layout's own screen, or
// as the wide dashboard's focused pane.
func (d *detailState) ShortHelp(k *keymap.Agents, view key.Binding, ownScreen bool) []key.Binding {
	if ownScreen {
		return []key.Binding{k.Transcript, k.Back, k.Open, view, k.PageDown}
	}
	return []key.Binding{k.Transcript, k.Open, view, k.Lifecycle, k.PageDown}
}

// New returns the Agents panel with the Agents keys of com.Keys.
func New(com *common.Common) *Model {
	m := &Model{com: com, keys: keymap.DefaultAgents(), live: newLiveTree(), roots: newRoots(),
		activity: map[string]activityResult{}, activityAt: map[string]bool{}}
	if com.Keys != nil {
		m.keys = com.Keys.Agents
	}
	m.agents = newAgentList()
	m.tail = follower.New(tailOwner)
	m.tail.Prepare(tailLines)
	return m
}

// Init loads the tree of the session already selected, if any.
func (m *Model) Init() tea.Cmd { return m.follow(m.com.Selection.SessionFile) }

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layoutParts()
}

// Title implements common.Panel.
func (m *Model) Title() string { return i18n.T("Agents") }

// wide is true when the list and the detail fit side by side.
func (m *Model) wide() bool { return m.width >= wideMin }

// FocusNext implements common.Panel (tab switches the dashboard's panes).
func (m *Model) FocusNext() {
	if m.screen == screenDashboard && m.wide() {
		m.focus = (m.focus + 1) % paneCount
		m.layoutParts()
	}
}

// FocusPrev implements common.Panel.
func (m *Model) FocusPrev() { m.FocusNext() }

// CapturesInput implements common.Panel: the panel has no text input.
func (m *Model) CapturesInput() bool { return false }

// ShortHelp implements common.Panel: the keys that act where the user is,
// actions first (a narrow footer leaves out the last: moving is known).
func (m *Model) ShortHelp() []key.Binding {
	k := &m.keys
	view := m.com.Keys.View
	switch {
	case m.showsRoots():
		return []key.Binding{keymap.WithHelp(k.Open, i18n.Mark("show its tree")), k.Up, k.Down, k.Reload}
	case m.live.tree == nil && m.screen != screenTranscript:
		return []key.Binding{k.Reload}
	case m.screen == screenTimeline:
		return m.timeline.ShortHelp(k)
	case m.screen == screenTranscript:
		return m.tr.ShortHelp(k, view)
	case m.screen == screenDetail:
		return m.detail.ShortHelp(k, view, true)
	case m.focus == paneDetail:
		return m.detail.ShortHelp(k, view, false)
	}
	open := keymap.WithHelp(k.Open, i18n.Mark("details"))
	if m.wide() {
		open = keymap.WithHelp(k.Open, i18n.Mark("expand task"))
	}
	return m.agents.ShortHelp(k, m.com, open)
}

// FullHelp implements common.Panel.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Open, k.Back, k.Transcript, k.Timeline, k.Lifecycle, k.Hidden, k.Reload},
		{k.Follow, k.Earlier, k.Expand},
		{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
	}
}

// selected is the agent under the list cursor (nil when none).
func (m *Model) selected() *subagent.Agent { return m.agents.selected(m.live.tree) }
