package sessions

import (
	"strings"

	"github.com/forgebench/forgebench/ui/components/transcript"
)

// The search's highlights in the entry detail: the words of the query are
// marked (ignoring case) in the rendered lines on screen. Only the visible
// window is marked, once per window, query and rendering (detailHighlight
// memoises it), so scrolling and redraws stay cheap.
//
// Landing on an entry because of a search hit (the global search's jump,
// the `/` search moving to an entry) also reveals the match: once the
// entry is rendered, the detail finds the line holding it, expands the
// entry's collapsed tool output when the match is hidden there, and
// scrolls so the line shows; the hit's words stay marked while the entry
// is on screen.

// detailHighlight is the last highlighted window of the detail.
type detailHighlight struct {
	key    detailKey
	off, h int
	query  string
	lines  []string
}

// detailReveal is a search hit to reveal in the detail.
type detailReveal struct {
	// entry is the hit's entry id and query what it matched ("" = none).
	entry, query string
	// pending is true until the detail has scrolled to the match (or
	// found none even expanded).
	pending bool
}

// revealHit asks the detail to reveal query at entry once it is shown.
func (m *Model) revealHit(entry, query string) {
	if entry == "" || strings.TrimSpace(query) == "" {
		m.detail.reveal = detailReveal{}
		return
	}
	m.detail.reveal = detailReveal{entry: entry, query: query, pending: true}
}

// revealQuery is the query whose words are marked at entry idx: the
// session search's while it is on, else the hit the user landed on.
func (m *Model) revealQuery(idx int) string {
	if q := m.search.Query(); (m.search.Active() || m.search.Typing()) && strings.TrimSpace(q) != "" {
		return q
	}
	if r := m.detail.reveal; r.entry != "" && m.ls != nil && idx >= 0 && idx < len(m.ls.sess.Entries) && m.ls.sess.Entries[idx].ID == r.entry {
		return r.query
	}
	return ""
}

// applyReveal scrolls the detail to a pending hit once its entry is
// rendered; a match the collapsed rendering hides expands the entry
// (ensureRendered then renders it again and this runs once more).
func (m *Model) applyReveal() {
	r := &m.detail.reveal
	if !r.pending || m.ls == nil || m.mode != modeEntry {
		return
	}
	idx := m.currentEntry()
	if idx < 0 || idx >= len(m.ls.sess.Entries) || m.ls.sess.Entries[idx].ID != r.entry {
		return
	}
	lines, ok := m.detail.cache[m.detailKeyFor(idx)]
	if !ok {
		return // rendering: ensureRendered asked for it
	}
	line, found := transcript.MatchLine(lines, r.query, 0, len(lines))
	if !found && !m.detail.expanded[idx] {
		m.detail.expanded[idx] = true
		return
	}
	r.pending = false
	if found {
		h, _ := m.detailSize()
		m.detail.offset = transcript.RevealOffset(line, 0, h)
	}
}

// highlightedWindow returns the detail lines on screen with the search's
// words marked: the window markWindow marked, else marked again (View
// keeps nothing).
func (m *Model) highlightedWindow(key detailKey, lines []string, off, h int) []string {
	vis := window(lines, off, h)
	q := m.revealQuery(key.idx)
	if strings.TrimSpace(q) == "" {
		return vis
	}
	if hl := &m.detail.highlight; hl.lines != nil && hl.key == key && hl.off == off && hl.h == h && hl.query == q {
		return hl.lines
	}
	return m.markWords(vis, q)
}

// markWindow marks the search's words in the detail's window (after an
// Update: layDetail), once per window, query and rendering.
func (m *Model) markWindow(key detailKey, lines []string, off, h int) {
	q := m.revealQuery(key.idx)
	hl := &m.detail.highlight
	if strings.TrimSpace(q) == "" || (hl.lines != nil && hl.key == key && hl.off == off && hl.h == h && hl.query == q) {
		return
	}
	*hl = detailHighlight{key: key, off: off, h: h, query: q, lines: m.markWords(window(lines, off, h), q)}
}

// markWords marks the words of q in lines.
func (m *Model) markWords(lines []string, q string) []string {
	words := strings.Fields(q)
	out := make([]string, len(lines))
	for i, line := range lines {
		out[i] = transcript.MarkWords(line, words, m.com.Styles.List.Match)
	}
	return out
}
