package sessions

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/components/follower"
)

// A session is live by default. While a session is open (and the panel
// watches files, EnableWatch) a tail runs on its file (session.Tail:
// fsnotify on its directory, with the tail's own one-second stat in case
// an event is lost — a goroutine that wakes nothing else). Tail events
// only say "the file grew": the panel re-reads the session in a command
// and replaces its snapshot whole, at most one read at a time. At the leaf
// the selection moves to each new leaf, so the header and the panels that
// follow the selection (Presets preview, Capabilities state, Payloads)
// follow the session without a key; off the leaf it stays where the user
// put it and the timeline says "paused at entry … · F follow". F at the
// leaf pauses there; F or L elsewhere goes back to the leaf and follows.
// The same watch reports the directory's other entries (the project's
// other sessions, new pi-subagent trees) to the picker (live.go).

// followState is the tail of the open session and whether the selection
// is held at the leaf.
type followState struct {
	// paused holds the selection on its entry while the session grows: F
	// at the leaf, or a tail that failed or ended. It ends when the
	// selection moves (at the leaf, it follows again), with F and with L.
	paused bool
	// tail follows the open file (File "" when no tail runs or starts);
	// gen numbers the tails, so a re-read that waited for an older one's
	// turn is dropped.
	tail follower.Follower
	gen  int
	// reloading: a re-read is running; dirty: the file grew meanwhile;
	// delayed: a re-read waits for its turn (followGap).
	reloading, dirty, delayed bool
	// took is how long the last re-read took and doneAt when it ended.
	took   time.Duration
	doneAt time.Time
	// updates counts the re-reads applied.
	updates int
}

// tailOwner names the panel's follower (follower.New).
const tailOwner = "sessions"

type (
	// followLoadedMsg is a re-read of the growing session and how long
	// it took.
	followLoadedMsg struct {
		loadedMsg
		took time.Duration
	}
	// followReloadMsg is a re-read that waited for its turn.
	followReloadMsg struct{ gen int }
)

// followGapMax bounds the pause between two re-reads of a growing
// session; a session read within followGapFrom is re-read at once.
const (
	followGapMax  = 10 * time.Second
	followGapFrom = 50 * time.Millisecond
)

// EnableWatch makes the panel tail the open session (the real program
// turns it on; tests drive the panel without background watchers and
// hand it tail messages).
func (m *Model) EnableWatch() { m.watch = true }

// following reports whether the selection moves with the leaf as the
// session grows: it is at the leaf and not held there.
func (m *Model) following() bool { return m.ls != nil && m.atLeaf && !m.held() }

// held reports whether the selection stays on its entry when the session
// grows: paused by F, or no tail runs although the panel watches files
// (it failed or ended; F starts it again).
func (m *Model) held() bool { return m.follow.paused || (m.watch && m.follow.tail.File() == "") }

// followKey is F: at the leaf it pauses there; paused or off the leaf it
// goes back to the leaf and follows (starting the tail again when it had
// failed or ended).
func (m *Model) followKey() tea.Cmd {
	if m.ls == nil {
		return nil
	}
	if m.following() {
		m.setPaused(true)
		return nil
	}
	m.focus = paneTimeline
	return m.toLeaf()
}

// setPaused holds the selection on its entry (or lets it follow again).
func (m *Model) setPaused(paused bool) {
	m.follow.paused = paused
	m.syncHeld()
}

// syncHeld tells the other panels, through the selection this panel
// owns, whether it is held (the header says "paused at entry …").
func (m *Model) syncHeld() {
	if m.ls != nil && m.com.Selection.SessionFile == m.ls.file {
		m.com.Selection.Paused = m.held()
	}
}

// ensureTail starts tailing the open session unless that tail runs.
func (m *Model) ensureTail() tea.Cmd {
	if !m.watch || m.ls == nil || m.follow.tail.File() == m.ls.file {
		return nil
	}
	m.stopTail()
	m.follow.gen++
	return m.follow.tail.Start(m.ls.file, m.ls.sess.Size, session.TailOptions{Siblings: true})
}

// stopTail ends the tail goroutine (it closes its channel when the
// context ends) and forgets the re-reads of the old file.
func (m *Model) stopTail() {
	f := &m.follow
	f.tail.Stop()
	m.follow = followState{tail: f.tail, gen: f.gen, paused: f.paused}
}

func (m *Model) applyFollowStarted(msg follower.StartedMsg) tea.Cmd {
	_, current, wait, err := m.follow.tail.Started(msg)
	if !current {
		return nil
	}
	if err != nil {
		m.syncHeld()
		return m.setStatus(paneTimeline, i18n.T("%s — %s tries again", err.Error(), m.keys.Follow.Help().Key), true)
	}
	return wait
}

// applyTail handles one tail event: new lines or a reset re-read the
// session (coalesced), a sibling goes to the picker, an error is shown,
// the end of the tail pauses.
func (m *Model) applyTail(msg follower.EventMsg) tea.Cmd {
	if !m.follow.tail.Current(msg) {
		return nil
	}
	if !msg.OK {
		m.stopTail()
		m.syncHeld()
		return m.setStatus(paneTimeline, i18n.T("the watch of the session ended — %s follows again", m.keys.Follow.Help().Key), false)
	}
	var cmd tea.Cmd
	switch msg.Event.Kind {
	case session.TailLines, session.TailReset:
		cmd = tea.Batch(m.requestReload(), m.touchSession(m.follow.tail.File()))
	case session.TailSibling:
		cmd = m.touchSession(msg.Event.Path)
	case session.TailError:
		if msg.Event.Err != nil {
			cmd = m.setStatus(paneTimeline, i18n.T("follow: %s", msg.Event.Err.Error()), true)
		}
	}
	return tea.Batch(cmd, m.follow.tail.Wait())
}

// requestReload re-reads the grown session: at once, unless a re-read is
// running (then once more after it) or a slow one (over followGapFrom)
// ended less than twice its own duration ago — a big session that is
// being written is re-read at most a third of the time, so following it
// never takes a whole core.
func (m *Model) requestReload() tea.Cmd {
	f := &m.follow
	switch {
	case f.reloading:
		f.dirty = true
		return nil
	case f.delayed:
		return nil
	}
	if wait := min(2*f.took, followGapMax) - m.com.Clock().Sub(f.doneAt); f.took > followGapFrom && wait > 0 {
		f.delayed = true
		return m.com.Later(wait, followReloadMsg{gen: f.gen})
	}
	return m.followReload()
}

// followReload starts a re-read of the growing session.
func (m *Model) followReload() tea.Cmd {
	if m.ls == nil {
		return nil
	}
	f := &m.follow
	f.reloading, f.delayed = true, false
	f.updates++
	m.gen++
	gen, file := m.gen, m.ls.file
	return func() tea.Msg {
		start := time.Now()
		msg := openSession(gen, file)
		return followLoadedMsg{loadedMsg: msg, took: time.Since(start)}
	}
}

// applyFollowReload starts the re-read that waited for its turn.
func (m *Model) applyFollowReload(msg followReloadMsg) tea.Cmd {
	if msg.gen != m.follow.gen || !m.follow.delayed {
		return nil
	}
	return m.followReload()
}

// applyFollowLoaded installs a re-read of the growing session and starts
// the next when the file grew meanwhile.
func (m *Model) applyFollowLoaded(msg followLoadedMsg) tea.Cmd {
	f := &m.follow
	f.reloading = false
	f.took, f.doneAt = msg.took, m.com.Clock()
	if msg.gen == m.gen && msg.ls != nil && m.ls != nil && m.ls.file == msg.file {
		carrySummaries(m.ls, msg.ls)
	}
	cmd := m.applyLoaded(msg.loadedMsg)
	if f.dirty {
		f.dirty = false
		cmd = tea.Batch(cmd, m.requestReload())
	}
	return cmd
}

// carrySummaries gives the re-read session next the summaries decoded
// for prev, entry by entry while both files hold the same entries (a
// session is only appended to; a replaced file stops the copy where it
// differs), so a re-read decodes only what was appended — on a 100 MB
// session decoding every summary again took seconds of every core for
// each entry Pi wrote. It runs in Update, where prev's cells are written:
// a copy of one small struct per entry.
func carrySummaries(prev, next *loadedSession) {
	n := min(len(prev.sums), len(next.sums))
	pe, ne := prev.sess.Entries, next.sess.Entries
	for i := 0; i < n; i++ {
		if pe[i].ID != ne[i].ID || pe[i].Type != ne[i].Type || pe[i].Line != ne[i].Line {
			return
		}
		if prev.sums[i].ready {
			next.sums[i] = prev.sums[i]
		}
	}
}

// pendingSummaries decodes, after a load, the summaries that are not
// decoded yet: every one after a fresh read, only the appended ones after
// a re-read that carried the rest (carrySummaries).
func pendingSummaries(ls *loadedSession) tea.Cmd {
	var idxs []int
	carried := false
	for i := range ls.sums {
		switch {
		case ls.sums[i].ready:
			carried = true
		case !ls.asked[i]:
			idxs = append(idxs, i)
		}
	}
	switch {
	case !carried:
		return summaryCmd(ls, nil)
	case len(idxs) == 0:
		return nil
	}
	for _, i := range idxs {
		ls.asked[i] = true
	}
	return summaryCmd(ls, idxs)
}

// refreshModes asks again, after a re-read of the same session, for what
// the detail pane shows in place of an entry: the stats of the shown
// branch; the Context view keeps its scroll and follows the selected
// entry of the new version by itself (ensureContext).
func (m *Model) refreshModes() tea.Cmd {
	switch m.mode {
	case modeContext:
		m.context = contextState{offset: m.context.offset, full: m.context.full}
		m.stats = statsState{}
		return nil
	case modeStats:
		offset := m.stats.offset
		m.context = contextState{}
		m.stats = statsState{pending: true, leaf: m.tl.leaf, offset: offset}
		return statsCmd(m.gen, m.ls, m.com.Services(), m.tl.leaf)
	}
	m.context, m.stats = contextState{}, statsState{}
	return nil
}

// followLabel is what the timeline's border says about following:
// FOLLOW at the leaf, else where the selection is held and the key that
// follows again ("" with no session).
func (m *Model) followLabel() string {
	switch {
	case m.ls == nil || m.selIdx < 0 || m.selIdx >= len(m.ls.rows):
		return ""
	case m.following():
		return i18n.T("FOLLOW")
	}
	return i18n.T("paused at entry %s · %s follow", m.ls.entryID(m.selIdx), m.keys.Follow.Help().Key)
}
