// Package sessions is panel 3 of the workbench: a session picker with
// incremental search, the branch tree of the open session (fold/unfold,
// labels, active-branch marker), the timeline of one branch, the detail
// of the selected entry (markdown, collapsed tool output, thinking toggle),
// the rebuilt model context at that entry and session stats; the open
// session is live — its file is tailed and the selection follows its leaf
// (follow.go) — and the picker marks the sessions being written (live.go).
//
// Every file is read in a tea.Cmd; Update and View only move cursors and
// draw the visible window of precomputed rows. Text from sessions passes
// through Sanitize before it reaches the screen.
package sessions

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/dialog"
	"github.com/forgebench/forgebench/ui/components/follower"
)

// pane is one of the panel's four panes, in focus order.
type pane int

const (
	panePicker pane = iota
	paneTree
	paneTimeline
	paneDetail
	paneCount
)

// mode is what the detail pane shows.
type mode int

const (
	modeEntry mode = iota
	modeContext
	modeStats
	modeSkipped     // the lines the reader dropped, and why
	modeSpend       // what the listed sessions cost per day (spend.go)
	modeCompare     // two branches after their fork point (compareview.go)
	modeComposition // what fills the request at the entry (compositionview.go)
)

// hugeFileBytes is the size from which opening a session shows a spinner.
const hugeFileBytes = 8 << 20

// detailCacheMax bounds the rendered-entry cache; it is cleared when full.
const detailCacheMax = 256

// Model is the Session panel. It keeps the size, the focus, which view
// the detail pane shows (mode) and the parts, and routes: the picker, the
// tree and the timeline (lists.go, tree.go), the open session and its
// selected entry (opened), the find line and the entry prompt
// (finder), the detail pane's views (detailPane), the live tail and the
// picker's live marks (watching), and a dialog stack (dialog.go). Which
// part has the keys is decided once, in focused (focus.go): the keys,
// the footer and CapturesInput all ask it. View only draws what Update
// laid out (laid.go).
type Model struct {
	com  *common.Common
	keys keymap.Session

	width, height int
	focus         pane
	mode          mode

	picker picker
	tree   treeView
	tl     timeline
	opened
	finder
	detailPane
	watching
	// status is each pane's own transient message.
	status [paneCount]common.Status
	// fork is "continue in Pi from here" on its way (fork.go); its
	// question is on dialogs, the panel's modals (dialog.go).
	fork    forkState
	dialogs dialog.Stack
}

// opened is the session the panel has open and the entry selected
// in it: what the tree, the timeline and the detail show, and what the
// panel writes into the shared selection (selection.go).
type opened struct {
	ls *loadedSession
	// gen counts session loads; results of older loads are ignored.
	gen int
	// loading is the file being read ("sessions": the discovery); the
	// spinner turns while a huge one is.
	loading  string
	spinning bool
	spin     spinner.Model
	// selEntry is the entry id last announced or jumped to ("" before the
	// first); atLeaf is true while the selection follows the leaf. selIdx
	// is the selected entry's index in ls (-1: none) and selFrom the load
	// it was announced from.
	selEntry string
	atLeaf   bool
	selIdx   int
	selFrom  *loadedSession
	// presetMemo remembers the Preset selection each entry's branch
	// records (presetmemo.go).
	presetMemo presetMemo
}

// finder is the search of the tree and the timeline and the "go to
// entry" prompt (find.go, textsearch.go): while either types it has the
// keys (promptFocus, searchFocus).
type finder struct {
	// search is the query and its matches; treeOrder are the entries in
	// the tree's display order, folds ignored (what the search walks).
	search common.Search
	// searchPane is the pane the search was started in (where n/N step);
	// text is its full-text part (textsearch.go).
	searchPane pane
	text       textState
	treeOrder  []int
	// gotoID is the "go to entry" prompt while it is open.
	gotoID *common.LineInput
}

// detailPane is the detail pane's state, one field per view: the entry,
// the Context view (context, and sent, the requests rebuilt), the stats,
// the cost of the listed sessions, the skipped lines, the comparison and
// the composition (views), and laid, what View draws of them.
type detailPane struct {
	detail  detailState
	views   detailViews
	context contextState
	sent    sentState
	stats   statsState
	spend   spendState
	// laid is the detail's view laid out for View (laid.go).
	laid laidDetail
}

// watching is what keeps the panel live: the tail of the open session
// (follow.go) and the picker's marks of sessions being written (live.go).
type watching struct {
	follow followState
	// watch lets the panel tail the open session (EnableWatch).
	watch bool
	// live keeps the picker's marks of sessions being written (live.go).
	live liveState
}

// detailState is the entry detail: a cache of rendered entries and the
// scroll position of the one on screen.
type detailState struct {
	cache    map[detailKey][]string
	pending  map[detailKey]bool
	offset   int
	expanded map[int]bool
	thinking bool
	shownIdx int
	// highlight memoises the visible lines with the search's words marked.
	highlight detailHighlight
	// reveal is the search hit the user landed on (highlight.go).
	reveal detailReveal
	// render waits for the cursor to rest before want is rendered;
	// shown is the last rendering drawn, kept on screen until the one
	// wanted arrives.
	render common.Debounce
	want   detailKey
	shown  detailKey
}

// contextState is the Context view's layout: its scroll position and
// the lines of the request on screen (sentState holds the requests).
// Lines are laid out in a command (a long branch is thousands of
// messages); the last ones stay on screen until the next arrive.
type contextState struct {
	offset int
	lines  []string
	// linesKey is what lines were laid out for; laying the layout on
	// its way (zero: none).
	linesKey, laying contextLinesKey
	full             bool // every line of every message, not the first few
}

// New returns the Session panel with the Session keys of com.Keys (the
// defaults when com has none).
func New(com *common.Common) *Model {
	m := &Model{
		com:    com,
		keys:   keymap.DefaultSession(),
		picker: newPicker(),
		tree:   newTreeView(),
		tl:     newTimeline(),
		opened: opened{spin: spinner.New(spinner.WithSpinner(spinner.Dot)), selIdx: -1},
	}
	m.detail.cache = map[detailKey][]string{}
	m.detail.pending = map[detailKey]bool{}
	m.detail.expanded = map[int]bool{}
	m.detail.shownIdx = -1
	m.follow.tail = follower.New(tailOwner)
	if com.Keys != nil {
		m.keys = com.Keys.Session
	}
	return m
}

// SetKeys replaces the panel's bindings (user overrides).
func (m *Model) SetKeys(k keymap.Session) { m.keys = k }

// Init discovers the sessions of the workspace's cwd and opens the one
// the selection names, else the newest.
func (m *Model) Init() tea.Cmd {
	if sel := m.com.Selection; sel.SessionFile != "" {
		m.selEntry, m.atLeaf = sel.EntryID, sel.AtLeaf || sel.EntryID == ""
	}
	m.gen++
	m.loading = "sessions"
	return discoverCmd(m.com.Services(), m.gen, m.com.Selection, false)
}

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layDetail()
}

// Title implements common.Panel.
func (m *Model) Title() string { return i18n.T("Session") }

// FocusNext implements common.Panel; the narrow layout changes with the
// focus, so the detail is laid out again.
func (m *Model) FocusNext() {
	m.focus = (m.focus + 1) % paneCount
	m.layDetail()
}

// FocusPrev implements common.Panel.
func (m *Model) FocusPrev() {
	m.focus = (m.focus + paneCount - 1) % paneCount
	m.layDetail()
}

// filtering is true while the picker's or the timeline's filter line has
// the keyboard.
func (m *Model) filtering() bool {
	return m.picker.list.Filtering() || m.tl.list.Filtering()
}

// followHint is F as the footer offers it: "pause" while the selection
// follows the leaf, "follow" otherwise.
func (m *Model) followHint() key.Binding {
	f := m.keys.Follow
	if !m.following() {
		return f
	}
	return key.NewBinding(key.WithKeys(f.Keys()...), key.WithHelp(f.Help().Key, i18n.Mark("pause")))
}

// treeSearchKey is the filter key as the tree and the timeline use it:
// search.
func (m *Model) treeSearchKey() key.Binding {
	return keymap.WithHelp(m.keys.Filter, i18n.Mark("search"))
}

// FullHelp implements common.Panel.
func (m *Model) FullHelp() [][]key.Binding {
	k := &m.keys
	sk := &m.com.Keys.Search
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Open, k.Back, k.Filter, k.Scope, k.Fold, k.Unfold, k.TreeFilter},
		{m.treeSearchKey(), sk.Next, sk.Prev, sk.Clear, k.MatchesOnly, k.GotoEntry, k.ToLeaf},
		{k.Expand, k.Thinking, k.Context, k.Stats, k.Follow, k.Reload, k.Skipped},
		{m.com.Keys.Copy, k.CopyContext, k.PiContext, m.com.Keys.View, m.com.Keys.Pager, k.ContinueInPi},
		{k.Mark, k.Compare, k.Composition},
	}
}

// Update implements common.Panel.
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmds = append(cmds, m.handleKey(msg))
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		if !m.dialogs.Open() { // the dialog takes only its answers
			cmds = append(cmds, m.handleMouse(msg.(tea.MouseMsg)))
		}
	case common.StatusExpiredMsg:
		for i := range m.status {
			m.status[i].Expire(msg)
		}
	case common.JumpMsg:
		cmds = append(cmds, m.onJump(msg))
	case common.DueMsg:
		cmds = append(cmds, m.renderDue(msg), m.contextDue(msg), m.liveDue(msg), m.compositionDue(msg))
	case tea.WindowSizeMsg, common.ThemeChangedMsg:
		// The rendered detail and context are keyed by width and theme;
		// the new markdown renderer is built off the UI goroutine.
		cmds = append(cmds, m.warmMarkdownCmd())
	case resultsMsg:
		for _, r := range msg {
			cmds = append(cmds, m.handle(r))
		}
	case spinner.TickMsg:
		if m.spinning {
			var cmd tea.Cmd
			m.spin, cmd = m.spin.Update(msg)
			cmds = append(cmds, cmd)
		}
	default:
		cmds = append(cmds, m.handle(msg))
	}
	m.applyReveal() // before ensureRendered: it may expand the entry
	cmds = append(cmds, m.ensureSummaries(), m.ensureRendered(), m.ensureContext(), m.ensureContextLines(), m.ensureComposition())
	m.layDetail() // last: View only draws what it laid out
	return m, tea.Batch(cmds...)
}

// handle applies one command result.
func (m *Model) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case discoveredMsg:
		if msg.all != m.picker.all {
			return nil // a scope switch made this listing stale
		}
		m.picker.err = msg.err
		m.picker.setItems(msg.items, m.ls, m.com.Clock())
		if m.fork.selectAfter != "" {
			m.picker.moveToPath(m.fork.selectAfter) // again after the load that follows
		}
		if m.loading == "sessions" {
			m.loading = ""
		}
		if msg.err != nil {
			return m.setStatus(panePicker, msg.err.Error(), true)
		}
		return tea.Batch(m.scheduleLiveExpiry(), m.announceTrees())
	case loadedMsg:
		return m.applyLoaded(msg)
	case treeBuiltMsg:
		m.applyTreeBuilt(msg)
	case textMatchesMsg:
		return m.applyTextMatches(msg)
	case detailMsg:
		delete(m.detail.pending, msg.key)
		if len(m.detail.cache) >= detailCacheMax {
			clear(m.detail.cache)
		}
		m.detail.cache[msg.key] = msg.lines
	case sentMsg:
		return m.applySent(msg)
	case comparedMsg:
		m.applyCompared(msg)
	case composedMsg:
		m.applyComposed(msg)
	case contextLinesMsg:
		m.applyContextLines(msg)
	case statsMsg:
		m.applyStats(msg)
	case spendMsg:
		m.applySpend(msg)
	case follower.StartedMsg:
		return m.applyFollowStarted(msg)
	case follower.EventMsg:
		return m.applyTail(msg)
	case followLoadedMsg:
		return m.applyFollowLoaded(msg)
	case followReloadMsg:
		return m.applyFollowReload(msg)
	case pickerUpdatesMsg:
		return m.applyPickerUpdates(msg)
	case liveExpiryMsg:
		return m.applyLiveExpiry(msg)
	case actionMsg:
		return m.runAction(msg)
	case copiedMsg:
		return m.applyCopied(msg)
	case forkPlannedMsg:
		return m.applyForkPlanned(msg)
	case forkWrittenMsg:
		return m.applyForkWritten(msg)
	case piExitedMsg:
		return m.applyPiExited(msg)
	case common.SessionWrittenMsg:
		if m.ls != nil && msg.File == m.ls.file && !m.follow.tail.Running() { // a running tail sees it anyway
			return m.reloadCmd()
		}
	case summariesMsg:
		if m.ls == msg.ls && m.ls.applySummaries(msg) {
			m.tl.refresh(m.ls)
			m.tree.sync(m.ls)
			m.refreshSearch()
		}
	}
	return nil
}

// ensureSummaries asks for the summaries of the rows a frame may show
// that are not decoded yet (the background pass after a load decodes the
// rest), so rows never decode JSON while drawing.
func (m *Model) ensureSummaries() tea.Cmd {
	if m.ls == nil {
		return nil
	}
	h := max(1, m.height)
	want := m.tl.visibleEntries(h)
	want = append(want, m.tree.visibleEntries(h)...)
	if idxs := m.ls.missing(want); len(idxs) > 0 {
		return summaryCmd(m.ls, idxs)
	}
	return nil
}

// setStatus shows a message in pane p's border until it expires; text
// from files is folded to one sanitised line.
func (m *Model) setStatus(p pane, s string, isErr bool) tea.Cmd {
	if isErr {
		return m.status[p].Error(m.com, sanitize.Fold(s))
	}
	return m.status[p].Info(m.com, sanitize.Fold(s))
}

// loadError is the error of the last failed load ("" when none): empty
// panes show it instead of a placeholder.
func (m *Model) loadError() string {
	if st := &m.status[paneTimeline]; st.IsError() {
		return st.Text()
	}
	return ""
}
