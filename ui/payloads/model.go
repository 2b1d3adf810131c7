// Package payloads is panel 4 of the workbench: two requests side by side
// — saved payloads, requests rebuilt from a session, presets compiled at
// an entry — as pi-forge's run diff sees them (block list with status,
// token deltas and the cache boundary drawn as a rule, line diff of the
// selected block, unified or split with three context modes), what broke
// the cache where the data says so, the provider's recorded cache use next
// to the predicted boundary, and jumps to the cause in panels 1–3.
//
// By default the pair follows the shared selection: the selected entry's
// request against the previous request on its branch (without a session,
// the two newest saved payloads of the project). Every reference is
// resolved, and every diff computed, in a tea.Cmd; Update and View only
// move cursors and draw.
package payloads

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/ui/common"
)

// mode is what the panel shows.
type mode int

const (
	modeDiff mode = iota
	modeRequests
	modeBreaks
)

// Model is the Payloads panel.
type Model struct {
	com  *common.Common
	keys keymap.Payloads
	env  env

	width, height int
	mode          mode

	// pairView is the request pair view with its cause line (pair.go).
	pairView
	// followed is the selection the pair was built for while it follows
	// the selection (pairView.auto).
	followed common.Selection
	// follows keeps following the selection to one comparison at a time:
	// while the cursor moves faster than requests rebuild, only the newest
	// selection is compared next.
	follows common.Latest[common.Selection]
	// following waits for the selection to rest before follows starts
	// (common.Debounce).
	following common.Debounce
	// gen counts comparisons; results of older ones are dropped.
	gen     int
	pending bool
	status  string
	isErr   bool
	// statusClock expires the message (common.StatusClock).
	statusClock common.StatusClock

	// picker chooses a side's reference, over the rest while open.
	picker  *picker
	pickGen int

	// reqs is the per-request cache view (requests.go), brk the
	// project-wide one (breaks.go).
	reqs *branchRequests
	brk  *cacheView
	// locate is a jump's LocateText, waiting for its comparison (locate.go).
	locate string
}

// New returns the Payloads panel with the Payloads keys of com.Keys (the
// defaults when com has none).
func New(com *common.Common) *Model {
	m := &Model{
		com:  com,
		keys: keymap.DefaultPayloads(),
		env:  env{svc: com.Services(), cache: newSessionCache()},
		reqs: newBranchRequests(),
		brk:  newCacheView(),
	}
	if com.Keys != nil {
		m.keys = com.Keys.Payloads
	}
	m.pairView = newPairView(com, &m.keys)
	return m
}

// SetKeys replaces the panel's bindings (user overrides).
func (m *Model) SetKeys(k keymap.Payloads) { m.keys = k }

// Init computes the default pair for the current selection.
func (m *Model) Init() tea.Cmd { return m.followNow(m.com.Selection) }

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.layout()
}

// Title implements common.Panel.
func (m *Model) Title() string { return i18n.T("Payloads") }

// FocusNext implements common.Panel: blocks ⇄ line diff.
func (m *Model) FocusNext() { m.view.ToggleFocus() }

// FocusPrev implements common.Panel.
func (m *Model) FocusPrev() { m.view.ToggleFocus() }

// FullHelp implements common.Panel.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.keys
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.PickA, k.PickB, k.Swap, k.Reload, k.Requests},
		{k.Open, k.Back, k.NextChange, k.PrevChange, k.Jump},
		{k.Layout, k.Context, k.Wrap, m.com.Keys.Filter},
		{m.com.Keys.Copy, m.com.Keys.View, m.com.Keys.Pager},
	}
}
