package payloads

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// Update implements common.Panel.
func (m *Model) Update(msg tea.Msg) (common.Panel, tea.Cmd) {
	if exp, ok := msg.(common.StatusExpiredMsg); ok {
		if m.statusClock.Expired(exp) {
			m.status, m.isErr = "", false
		}
		return m, nil
	}
	p, cmd := m.update(msg)
	// A message set on the way expires by itself (issue 15).
	return p, tea.Batch(cmd, m.statusClock.Schedule(m.com, m.status != "", m.isErr))
}

func (m *Model) update(msg tea.Msg) (common.Panel, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		if m.picker != nil && m.picker.typing {
			return m, m.run(m.picker.Update(msg))
		}
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m, m.handleMouse(msg.(tea.MouseMsg))
	case common.SelectionChangedMsg:
		if m.auto {
			return m, m.follow(msg.Selection)
		}
	case common.DueMsg:
		due, again := m.following.Due(msg)
		if due && m.auto {
			return m, m.followNow(m.com.Selection)
		}
		return m, again
	case defaultsMsg:
		return m, m.applyDefaults(msg)
	case compareMsg:
		return m, m.applyComparison(msg)
	case pickerItemsMsg:
		if m.picker != nil && msg.gen == m.pickGen {
			m.picker.loading = false
			if msg.err != nil {
				m.picker.err = sanitize.Line(msg.err.Error())
			}
			m.picker.list.SetItems(msg.items)
		}
	case requestsMsg:
		return m, m.reqs.apply(msg, m.env, m.predictReach())
	case breaksMsg:
		m.brk.apply(msg)
	case common.JumpMsg:
		if ref := msg.Target.CacheBreaksOf; ref != "" && msg.Target.Panel == common.PanelPayloads {
			return m, m.openBreaks(ref)
		}
		if refs := msg.Target.CompareRefs; refs[0] != "" && refs[1] != "" && msg.Target.Panel == common.PanelPayloads {
			m.mode, m.auto = modeDiff, false // the two sides no longer follow the selection
			cmd := m.compare(refs)
			m.locate = msg.Target.LocateText
			return m, cmd
		}
	case predictedMsg:
		return m, m.reqs.applyPredicted(msg, m.env, m.predictReach())
	case common.ThemeChangedMsg:
		return m, tea.Batch(m.relabel(), m.run(m.pairView.Update(msg)))
	case common.CopiedMsg:
		if msg.Owner == common.PanelPayloads {
			m.setStatus(msg.Status())
		}
	default:
		return m, m.run(m.pairView.Update(msg)) // its line diffs
	}
	return m, nil
}

// follow computes the default pair for sel once the selection rests
// (common.FollowDelay): a burst of cursor moves rebuilds the requests
// once, for where it ends.
func (m *Model) follow(sel common.Selection) tea.Cmd {
	if m.followed.SessionFile == sel.SessionFile && m.followed.EntryID == sel.EntryID && m.cmp != nil {
		m.following.Cancel() // back where it was built: nothing to do
		m.pending = m.follows.Busy()
		return nil
	}
	m.pending = true
	return m.following.Ask(m.com, common.FollowDelay)
}

// followNow computes the default pair for sel now.
func (m *Model) followNow(sel common.Selection) tea.Cmd {
	m.following.Cancel()
	if m.followed.SessionFile == sel.SessionFile && m.followed.EntryID == sel.EntryID && m.cmp != nil {
		return nil
	}
	m.followed = sel
	m.pending = true
	return m.follows.Ask(sel, m.startFollow)
}

// startFollow starts building the default pair of sel (nothing once the
// pair no longer follows the selection).
func (m *Model) startFollow(sel common.Selection) (int, tea.Cmd) {
	if !m.auto {
		return 0, nil
	}
	m.gen++
	m.pending = true
	return m.gen, defaultsCmd(m.env, m.gen, sel)
}

// applyDefaults compares the default pair of the followed selection; the
// comparison is the same run of following (follows).
func (m *Model) applyDefaults(msg defaultsMsg) tea.Cmd {
	cmd, comparing := m.showDefaults(msg)
	if comparing {
		m.follows.Continue(msg.gen, m.gen) // the same run goes on
		return cmd
	}
	return tea.Batch(cmd, m.follows.Done(msg.gen, m.startFollow))
}

// showDefaults takes the default pair: shown empty when there is none,
// else compared (comparing reports that a comparison started).
func (m *Model) showDefaults(msg defaultsMsg) (cmd tea.Cmd, comparing bool) {
	if msg.gen != m.gen || !m.auto {
		return nil, false
	}
	if msg.err != nil || msg.refs[1] == "" {
		m.pending = false
		m.cmp = nil
		m.refs = msg.refs
		m.note = msg.note
		if msg.err != nil {
			m.setStatus(msg.err.Error(), true)
		}
		return m.view.SetDiff(diffviewEmpty), false
	}
	return m.compare(msg.refs), true
}

// applyComparison shows a comparison's result and, when it ended a run of
// following the selection, starts the newest waiting one.
func (m *Model) applyComparison(msg compareMsg) tea.Cmd {
	return tea.Batch(m.showComparison(msg), m.follows.Done(msg.gen, m.startFollow))
}

// compare starts comparing refs.
func (m *Model) compare(refs [2]string) tea.Cmd {
	m.locate = "" // a Locate waits only for the comparison its jump starts
	m.refs = refs
	m.gen++
	m.pending = true
	m.note = ""
	m.picked = nil
	return compareCmd(m.env, m.gen, refs)
}

// relabel compares the pair again after a language switch: its labels
// and block names are made with the comparison. The cursor's block, the
// note and the cache-break mark stay.
func (m *Model) relabel() tea.Cmd {
	if m.cmp == nil || m.pending || m.cmp.lang == i18n.Current() {
		return nil
	}
	m.gen++
	m.pending = true
	return compareCmd(m.env, m.gen, m.cmp.refs)
}

// reload compares the current pair again (the default pair anew when it
// follows the selection).
func (m *Model) reload() tea.Cmd {
	m.env.cache = newSessionCache()
	m.env.svc.Invalidate() // presets and pi-forge's rewrite read the library again
	if m.auto {
		m.followed = common.Selection{}
		m.cmp = nil
		return m.followNow(m.com.Selection)
	}
	return m.compare(m.refs)
}

func (m *Model) showComparison(msg compareMsg) tea.Cmd {
	if msg.gen != m.gen {
		return nil
	}
	m.pending = false
	locate := m.locate
	m.locate = ""
	if msg.err != nil {
		m.cmp = nil
		m.setStatus(msg.err.Error(), true)
		return m.view.SetDiff(diffviewEmpty)
	}
	samePair := m.cmp != nil && m.cmp.refs == msg.cmp.refs
	m.cmp = msg.cmp
	m.status, m.isErr = "", false
	var show tea.Cmd
	switch {
	case locate != "":
		show = tea.Batch(m.view.SetDiff(m.cmp.view), m.locateBlock(locate))
	case samePair:
		// A reload keeps the cursor's block; a new pair opens on its
		// first changed block, which is what the user came for.
		show = m.view.Refresh(m.cmp.view)
	default:
		show = m.view.SetDiff(m.cmp.view)
	}
	// A language switch while it was compared: compare again in the new one.
	return tea.Batch(show, m.relabel())
}

func (m *Model) setStatus(text string, isErr bool) {
	m.status, m.isErr = sanitize.Line(text), isErr
	m.statusClock.Set()
}

// handleKey routes a key to the part that has it (focused): y, v and o
// first unless the picker is open or the part takes typed text.
func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.focused()
	if m.picker == nil && !p.CapturesInput() {
		if cmd, ok := m.focusKey(msg); ok {
			return cmd
		}
	}
	return m.run(p.Update(msg))
}

// openPicker opens the reference picker for side (0 = A, 1 = B).
func (m *Model) openPicker(side int) tea.Cmd {
	m.picker = newPicker(m.com, &m.keys, side, m.refs[side])
	m.pickGen++
	return pickerItemsCmd(m.env, m.pickGen, side, m.com.Selection)
}

// choose applies a picked row to the picker's side and compares.
func (m *Model) choose(it pickItem) tea.Cmd {
	side := m.picker.side
	m.picker = nil
	if it.kind == pickFollow {
		m.auto = true
		m.followed = common.Selection{}
		m.cmp = nil
		return m.followNow(m.com.Selection)
	}
	refs := m.refs
	refs[side] = it.ref
	m.auto = false
	if refs[1] == "" {
		m.refs = refs
		m.note = i18n.T("pick B (%s)", m.keys.PickB.Help().Key)
		return nil
	}
	return m.compare(refs)
}

// openRequests shows the branch's requests with their cache figures.
func (m *Model) openRequests() tea.Cmd {
	m.mode = modeRequests
	return m.reqs.load(m.env, m.com.Selection)
}

// openBreaks shows the project's cache breaks, those caused by only when
// it is set, computing the report anew.
func (m *Model) openBreaks(only string) tea.Cmd {
	m.mode = modeBreaks
	return m.brk.open(m.env, only)
}

// nextPredictions predicts the drops around the requests view's cursor,
// only while the requests are on show.
func (m *Model) nextPredictions() tea.Cmd {
	if m.mode != modeRequests {
		return nil
	}
	return m.reqs.predictNear(m.env, m.predictReach())
}

// predictReach is how far from the cursor drops are predicted: a screen
// of rows either side.
func (m *Model) predictReach() int { return m.height }

// run acts on what a part asked and batches it with its command.
func (m *Model) run(cmd tea.Cmd, in intent) tea.Cmd {
	switch in := in.(type) {
	// The pair view's and its cause line's.
	case pickIntent:
		return tea.Batch(cmd, m.openPicker(in.side))
	case reloadIntent:
		return tea.Batch(cmd, m.reload())
	case openBreaksIntent:
		return tea.Batch(cmd, m.openBreaks(""))
	case jumpIntent:
		return tea.Batch(cmd, m.jump())
	case statusIntent:
		m.setStatus(in.text, in.isErr)

	// The picker's.
	case chooseIntent:
		return tea.Batch(cmd, m.choose(in.item))
	case closePickerIntent:
		m.picker = nil

	// The cache views' (and the pair view's swap: a pair of its own).
	case backIntent:
		m.mode = modeDiff
	case openRequestsIntent:
		return tea.Batch(cmd, m.openRequests())
	case compareIntent:
		m.mode = modeDiff
		m.auto = false
		if in.brk != nil { // a break's pair: the selection no longer matters
			m.following.Cancel()
		}
		cmp := m.compare(in.refs)
		m.picked = in.brk
		return tea.Batch(cmd, cmp)
	}
	return cmd
}

// activateRequest is a click on a request: as enter.
func (m *Model) activateRequest() tea.Cmd { return m.run(nil, m.reqs.selectedPair()) }

// activateBreak is a click on a break: as enter.
func (m *Model) activateBreak() tea.Cmd { return m.run(nil, m.brk.selectedPair()) }

// choosePicked is a click on the picker's selected row: as enter.
func (m *Model) choosePicked() tea.Cmd { return m.run(m.picker.choose()) }
