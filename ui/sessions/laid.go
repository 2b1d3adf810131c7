package sessions

import (
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/session/stats"
	"github.com/forgebench/forgebench/ui/common"
)

// View only draws. What the detail pane shows is laid out here, after
// every Update and on a resize (layDetail): the lines of its view at the
// pane's size, each view's scroll clamped to them, the search's marks on
// the entry's visible window. View reads what was laid out; drawing twice
// changes nothing.

// laidKey is what the detail's laid-out lines were made from: the view,
// the pane's inner size, the theme and the view's data (src: pointers to
// immutable results, so a new result is a new key).
type laidKey struct {
	mode  mode
	w, h  int
	theme string
	src   any
}

// laidDetail is the detail pane's lines for its view (not the entry's:
// those are in the detail cache), laid out by layDetail.
type laidDetail struct {
	key   laidKey
	lines []string
	ok    bool
}

// statsSrc, compareSrc and spendSrc name the data of the stats, the
// comparison and the cost view.
type (
	statsSrc struct {
		ls              *loadedSession
		session, branch *stats.Stats
		chart           *statsChart
		pending         bool
	}
	compareSrc struct {
		res     *compareResult
		openKey string
	}
	spendSrc struct {
		value   *stats.ProjectSpend
		pending bool
		listed  int
	}
)

// laidKeyFor is the key of the detail's view at inner size w×h (ok false
// when the view draws a placeholder or nothing of its own lines: the
// entry, the Context view, a view whose data has not arrived).
func (m *Model) laidKeyFor(w, h int) (laidKey, bool) {
	k := laidKey{mode: m.mode, w: w, h: h, theme: common.ThemeKey(&m.com.Styles)}
	switch m.mode {
	case modeSpend:
		k.src = spendSrc{value: m.spend.value, pending: m.spend.pending || m.spend.value == nil, listed: len(m.picker.raw)}
		return k, true
	case modeEntry, modeContext:
		return k, false
	}
	if m.ls == nil {
		return k, false
	}
	switch m.mode {
	case modeSkipped:
		k.src = m.ls
	case modeStats:
		k.src = statsSrc{ls: m.ls, session: m.stats.session, branch: m.stats.branch, chart: m.stats.chart, pending: m.stats.pending}
	case modeCompare:
		if m.views.compare.result == nil {
			return k, false
		}
		k.src = compareSrc{res: m.views.compare.result, openKey: m.keys.Open.Help().Key}
	case modeComposition:
		res := m.views.composition.shown
		if res == nil || res.key.file != m.ls.file {
			return k, false
		}
		k.src = res
	}
	return k, true
}

// layLines lays the view of k out (its lines at k's width). The stats'
// chart and the cost view keep what they drew for the next time.
func (m *Model) layLines(k laidKey) []string {
	st := m.com.Styles
	switch k.mode {
	case modeSpend:
		sp := &m.spend
		if sp.pending || sp.value == nil {
			return []string{st.Pane.Placeholder.Render(spendReading(len(m.picker.raw)))}
		}
		if sp.lines == nil || sp.width != k.w || sp.theme != k.theme {
			sp.lines, sp.width, sp.theme = renderSpend(sp.value, k.w, st), k.w, k.theme
		}
		return sp.lines
	case modeSkipped:
		return m.skippedLines(k.w)
	case modeStats:
		return renderStats(m.stats, m.ls, k.w, k.w, statsChartRows(k.h), st)
	case modeCompare:
		return renderCompare(m.views.compare.result, k.w, m.keys.Open.Help().Key, st)
	case modeComposition:
		return renderComposition(m.views.composition.shown, k.w, st)
	}
	return nil
}

// laidLines are the lines of the detail's view at inner size w×h: those
// layDetail laid out, or (a View before any Update, which never happens
// in the program) laid out again without keeping them.
func (m *Model) laidLines(w, h int) []string {
	k, ok := m.laidKeyFor(w, h)
	if !ok {
		return nil
	}
	if m.laid.ok && m.laid.key == k {
		return m.laid.lines
	}
	return m.layLinesPure(k)
}

// layLinesPure is layLines without keeping anything (View's fallback).
func (m *Model) layLinesPure(k laidKey) []string {
	st := m.com.Styles
	switch k.mode {
	case modeSpend:
		sp := &m.spend
		if sp.pending || sp.value == nil {
			return []string{st.Pane.Placeholder.Render(spendReading(len(m.picker.raw)))}
		}
		if sp.lines != nil && sp.width == k.w && sp.theme == k.theme {
			return sp.lines
		}
		return renderSpend(sp.value, k.w, st)
	case modeStats:
		ss := m.stats
		if ss.chart != nil {
			c := *ss.chart // draw on a copy: its cache stays as it is
			ss.chart = &c
		}
		return renderStats(ss, m.ls, k.w, k.w, statsChartRows(k.h), st)
	}
	return m.layLines(k)
}

// layDetail lays the detail pane out for what it shows now: its view's
// lines, the scroll of the view clamped to them, and the entry's marked
// window. Update calls it last, and SetSize.
func (m *Model) layDetail() {
	r := m.layout().detail
	if r.h <= 0 || r.w <= 0 {
		return // hidden: nothing is drawn, nothing is clamped
	}
	h, w := r.h-2, r.w-4
	if k, ok := m.laidKeyFor(w, h); ok {
		if !m.laid.ok || m.laid.key != k {
			m.laid = laidDetail{key: k, lines: m.layLines(k), ok: true}
		}
		m.detailPane.clampOffset(m.mode, len(m.laid.lines), h)
		return
	}
	if m.ls == nil {
		return
	}
	switch m.mode {
	case modeContext:
		c := &m.context
		if res := c.linesKey.res; c.lines != nil && res != nil && res.key.file == m.ls.file {
			m.detailPane.clampOffset(modeContext, len(c.lines), h)
		}
	case modeEntry:
		key, lines, ok := m.shownDetail()
		if !ok {
			return
		}
		m.detailPane.clampOffset(modeEntry, len(lines), h)
		m.markWindow(key, lines, m.detail.offset, h)
	}
}

// shownDetail is the rendering the entry detail shows: the selected
// entry's, else (it renders in a moment) the last one drawn; ok false
// when there is none to show.
func (m *Model) shownDetail() (detailKey, []string, bool) {
	idx := m.currentEntry()
	if m.ls == nil || idx < 0 {
		return detailKey{}, nil, false
	}
	key := m.detailKeyFor(idx)
	if lines, ok := m.detail.cache[key]; ok {
		return key, lines, true
	}
	last := m.detail.shown
	lines, ok := m.detail.cache[last]
	if !ok || last.gen != key.gen || last.idx >= len(m.ls.rows) {
		return detailKey{}, nil, false
	}
	return last, lines, true
}

// spendReading is the cost view's placeholder while n sessions are read.
func spendReading(n int) string { return i18n.T("reading %d session(s)…", n) }

// offset is the scroll position of view md (the first line shown).
func (d *detailPane) offset(md mode) *int {
	switch md {
	case modeContext:
		return &d.context.offset
	case modeStats:
		return &d.stats.offset
	case modeSpend:
		return &d.spend.offset
	case modeSkipped:
		return &d.views.skippedOffset
	case modeCompare:
		return &d.views.compare.offset
	case modeComposition:
		return &d.views.composition.offset
	}
	return &d.detail.offset
}

// clampOffset keeps view md's scroll within its n lines shown h at a
// time.
func (d *detailPane) clampOffset(md mode, n, h int) {
	off := d.offset(md)
	*off = clamp(*off, 0, max(0, n-h))
}
