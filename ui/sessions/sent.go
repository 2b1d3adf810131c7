package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/sentrequest"
)

// sentCacheMax bounds the rebuilt requests kept (a request holds the
// branch's messages); the oldest half goes when it is full.
const sentCacheMax = 16

// contextKey names one rebuild: an entry of one version of a file.
// session.Shared hands out one parsed *Session per path, size and
// modification time, so sess stands for the version; file and size say
// so for a reader.
type contextKey struct {
	file string
	size int64
	sess *session.Session
	idx  int
}

// sentState holds the requests rebuilt for the Context view and the copy
// keys. It outlives a reload (the keys name the file version), so the
// view keeps its last request on screen until the next one arrives.
type sentState struct {
	cache map[contextKey]*contextResult
	// order is the cache's keys, oldest first.
	order []contextKey
	// pending are the rebuilds running; copies the copy keys waiting for
	// one (the newest ask per key).
	pending map[contextKey]bool
	copies  map[contextKey]copyAsk
	// due waits for the cursor to rest before want is rebuilt; shown is
	// the result on screen.
	due   common.Debounce
	want  contextKey
	shown *contextResult
	// pi is the user's choice: Pi's context rather than the request as
	// sent, kept for every entry.
	pi bool
}

// copyAsk is a copy key pressed before its request was rebuilt: the pane
// it was pressed in and which request it copies.
type copyAsk struct {
	pane pane
	pi   bool
}

// sentMsg delivers a rebuilt request.
type sentMsg struct{ res *contextResult }

// contextKeyFor is the key of entry idx of the open session.
func (m *Model) contextKeyFor(idx int) contextKey {
	return contextKey{file: m.ls.file, size: m.ls.sess.Size, sess: m.ls.sess, idx: idx}
}

// rebuildCmd rebuilds the request at key k in a command.
func rebuildCmd(k contextKey, svc *services.Services) tea.Cmd {
	return func() tea.Msg { return sentMsg{res: buildSent(k, svc)} }
}

// buildSent rebuilds the request at k as sent and as Pi built it, the way
// the Payloads panel and `payload show session:FILE#ENTRY` do
// (sentrequest), and reduces both to what the view shows.
func buildSent(k contextKey, svc *services.Services) *contextResult {
	s := k.sess
	res := &contextResult{key: k, idx: k.idx, entry: sanitize.Fold(s.Entries[k.idx].ID)}
	pair, err := sentrequest.At(s, k.idx, sentrequest.Options(svc))
	if err != nil {
		res.err = i18n.Errorf("rebuild the request at entry %s: %w", res.entry, err)
		return res
	}
	res.forAssistant = pair.Pi.ForAssistant
	if ci := pair.Pi.ContextIndex; ci >= 0 {
		res.contextEntry = sanitize.Fold(s.Entries[ci].ID)
	}
	res.pi, res.same = newContextSide(pair.Pi), pair.Same
	if pair.SentErr != nil {
		res.sentErr = i18n.T("the request as sent could not be rebuilt: %s", sanitize.Fold(pair.SentErr.Error()))
		return res
	}
	res.sent = res.pi
	if !pair.Same {
		res.sent = newContextSide(pair.Sent)
	}
	res.presetID = sanitize.Fold(pair.Sent.PresetID)
	for _, note := range pair.Sent.Inferred {
		res.inferred = append(res.inferred, sanitize.Fold(note))
	}
	return res
}

// rebuildNow starts the rebuild at entry idx unless it is cached or on
// its way (an explicit key: no waiting for the cursor to rest).
func (m *Model) rebuildNow(idx int) tea.Cmd {
	k := m.contextKeyFor(idx)
	if _, ok := m.sent.cache[k]; ok || m.sent.pending[k] {
		return nil
	}
	m.sent.due.Cancel()
	return m.startRebuild(k)
}

func (m *Model) startRebuild(k contextKey) tea.Cmd {
	if m.sent.pending == nil {
		m.sent.pending = map[contextKey]bool{}
	}
	m.sent.pending[k] = true
	return rebuildCmd(k, m.com.Services())
}

// ensureContext keeps the Context view on the selected entry: a cached
// request shows at once; otherwise the rebuild waits for the cursor to
// rest (common.FollowDelay), so a burst of keys rebuilds once, where it
// ends, while the last request stays on screen.
func (m *Model) ensureContext() tea.Cmd {
	m.sent.keepOnly(m.ls)
	if m.ls == nil || m.mode != modeContext {
		return nil
	}
	idx := m.currentEntry()
	if idx < 0 {
		return nil
	}
	k := m.contextKeyFor(idx)
	if res, ok := m.sent.cache[k]; ok {
		m.sent.shown = res // laid out by ensureContextLines
		m.sent.due.Cancel()
		return nil
	}
	if m.sent.pending[k] || (m.sent.due.Waiting() && m.sent.want == k) {
		return nil
	}
	m.sent.want = k
	return m.sent.due.Ask(m.com, common.FollowDelay)
}

// contextDue starts the rebuild the cursor rested on.
func (m *Model) contextDue(msg common.DueMsg) tea.Cmd {
	due, again := m.sent.due.Due(msg)
	if !due {
		return again
	}
	if m.ls == nil || m.mode != modeContext || m.currentEntry() < 0 {
		return nil
	}
	k := m.contextKeyFor(m.currentEntry())
	if _, ok := m.sent.cache[k]; ok || k != m.sent.want || m.sent.pending[k] {
		return nil
	}
	return m.startRebuild(k)
}

// applySent caches a rebuilt request (of the open file version; another's
// only serves the copies waiting for it) and runs those copies.
func (m *Model) applySent(msg sentMsg) tea.Cmd {
	res := msg.res
	delete(m.sent.pending, res.key)
	var cmd tea.Cmd
	if ask, ok := m.sent.copies[res.key]; ok {
		delete(m.sent.copies, res.key)
		cmd = copyResult(res, ask)
	}
	if m.ls == nil || res.key.sess != m.ls.sess {
		return cmd
	}
	m.remember(res)
	return cmd
}

// remember caches res, dropping other file versions' results and, when
// full, the oldest half.
func (m *Model) remember(res *contextResult) {
	if m.sent.cache == nil {
		m.sent.cache = map[contextKey]*contextResult{}
	}
	kept := m.sent.order[:0]
	for _, k := range m.sent.order {
		if k.sess != res.key.sess {
			delete(m.sent.cache, k)
			continue
		}
		kept = append(kept, k)
	}
	if len(kept) >= sentCacheMax {
		drop := len(kept) / 2
		for _, k := range kept[:drop] {
			delete(m.sent.cache, k)
		}
		kept = append(kept[:0], kept[drop:]...)
	}
	if _, ok := m.sent.cache[res.key]; !ok {
		kept = append(kept, res.key)
	}
	m.sent.order = kept
	m.sent.cache[res.key] = res
}

// keepOnly drops the requests of other sessions and file versions than
// ls's, so the cache never keeps a session alive that the panel let go
// (session.Shared holds them weakly); the request on screen stays while
// it is the same file's (follow mode's previous version, until the next
// arrives).
func (s *sentState) keepOnly(ls *loadedSession) {
	var sess *session.Session
	if ls != nil {
		sess = ls.sess
	}
	if s.shown != nil && (ls == nil || s.shown.key.file != ls.file) {
		s.shown = nil
	}
	if len(s.order) == 0 || s.order[0].sess == sess {
		return // remember keeps one version: the first key names it
	}
	s.forget()
}

// forget drops every cached request (the one on screen stays until its
// rebuild arrives).
func (s *sentState) forget() {
	clear(s.cache)
	s.order = s.order[:0]
}
