package sessions

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/services"
	"github.com/forgebench/forgebench/session/compare"
	"github.com/forgebench/forgebench/session/replay"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/chart"
	"github.com/forgebench/forgebench/ui/components/sentrequest"
)

// The composition view (%, issue 26): what fills the request at the
// selected entry — system prompt, tool definitions, history, tool
// results, capability text, images — as one stacked bar and one line per
// part, what `forgebench session composition FILE --leaf E` prints. It
// follows the cursor: the request is rebuilt and split in a command once
// the cursor rests (a common.Debounce, as the Context view), a burst of
// moves computes only where it ends, and the last composition stays on
// screen until the next arrives.

// compositionCacheMax bounds the compositions kept.
const compositionCacheMax = 16

// compositionView is the view's state.
type compositionView struct {
	cache   map[contextKey]*compositionResult
	order   []contextKey
	pending map[contextKey]bool
	// due waits for the cursor to rest before want is computed; shown is
	// the composition on screen.
	due    common.Debounce
	want   contextKey
	shown  *compositionResult
	offset int
}

// compositionResult is the composition of the request at one entry.
type compositionResult struct {
	key          contextKey
	entry        string
	forAssistant bool
	comp         compare.Composition
	err          error
}

// composedMsg delivers a composition.
type composedMsg struct{ res *compositionResult }

// openComposition is %: the detail pane shows the composition at the
// selected entry; the focus stays, so the tree or the timeline cursor
// walks the entries and the bar follows.
func (m *Model) openComposition() tea.Cmd {
	if m.currentEntry() < 0 {
		return nil
	}
	if m.focus == paneTree {
		m.showEntry(m.tree.current())
	}
	m.mode = modeComposition
	m.views.composition.offset = 0
	return nil // ensureComposition asks for it
}

// ensureComposition shows the cached composition at the selected entry,
// or asks for it once the cursor rests.
func (m *Model) ensureComposition() tea.Cmd {
	v := &m.views.composition
	if m.ls == nil || m.mode != modeComposition || m.currentEntry() < 0 {
		v.due.Cancel()
		return nil
	}
	k := m.contextKeyFor(m.currentEntry())
	if res, ok := v.cache[k]; ok {
		if v.shown != res {
			v.offset = 0
		}
		v.shown = res
		v.due.Cancel()
		return nil
	}
	if v.pending[k] || (v.due.Waiting() && v.want == k) {
		return nil
	}
	v.want = k
	return v.due.Ask(m.com, common.FollowDelay)
}

// compositionDue starts the composition the cursor rested on.
func (m *Model) compositionDue(msg common.DueMsg) tea.Cmd {
	v := &m.views.composition
	due, again := v.due.Due(msg)
	if !due {
		return again
	}
	if m.ls == nil || m.mode != modeComposition || m.currentEntry() < 0 {
		return nil
	}
	k := m.contextKeyFor(m.currentEntry())
	if _, ok := v.cache[k]; ok || k != v.want || v.pending[k] {
		return nil
	}
	if v.pending == nil {
		v.pending = map[contextKey]bool{}
	}
	v.pending[k] = true
	return composeCmd(k, m.com.Services())
}

// composeCmd rebuilds the request at k as sent (pi-forge's rewrite
// included, as the Context view and `session composition` do) and splits
// it.
func composeCmd(k contextKey, svc *services.Services) tea.Cmd {
	return func() tea.Msg {
		s := k.sess
		res := &compositionResult{key: k, entry: sanitize.Fold(s.Entries[k.idx].ID)}
		q, err := replay.RequestWith(s, k.idx, sentrequest.Options(svc))
		if err != nil {
			res.err = i18n.Errorf("rebuild the request at entry %s: %w", res.entry, err)
			return composedMsg{res: res}
		}
		res.forAssistant = q.ForAssistant
		res.comp = compare.Compose(q, compare.RequestUsage(s, q))
		return composedMsg{res: res}
	}
}

// applyComposed caches a composition; ensureComposition shows it when the
// cursor is still there.
func (m *Model) applyComposed(msg composedMsg) {
	v := &m.views.composition
	delete(v.pending, msg.res.key)
	if v.cache == nil {
		v.cache = map[contextKey]*compositionResult{}
	}
	if len(v.order) >= compositionCacheMax {
		drop := v.order[:compositionCacheMax/2]
		for _, k := range drop {
			delete(v.cache, k)
		}
		v.order = append([]contextKey(nil), v.order[compositionCacheMax/2:]...)
	}
	v.cache[msg.res.key] = msg.res
	v.order = append(v.order, msg.res.key)
}

// compositionView draws the composition in the detail pane.
func (m *Model) compositionView(r rect, focused bool) string {
	st := m.com.Styles
	v := &m.views.composition
	h, w := r.h-2, r.w-4
	res := v.shown
	if res == nil || res.key.file != m.ls.file {
		return m.frame(r, i18n.T("Composition"), m.statusView(paneDetail), focused, []string{st.Pane.Placeholder.Render(i18n.T("splitting the request…"))})
	}
	lines := m.laidLines(w, h)
	info := scrollInfo(v.offset, h, len(lines))
	if idx := m.currentEntry(); idx >= 0 && m.contextKeyFor(idx) != res.key {
		info = joinInfo(i18n.T("splitting at %s…", m.ls.entryID(idx)), info)
	}
	return m.frame(r, i18n.T("Composition at %s", res.entry), joinInfo(info, m.statusView(paneDetail)), focused, window(lines, v.offset, h))
}

// partGroup is one series of the bar: the part kinds it sums.
type partGroup struct {
	label string
	kinds []string
}

// partGroups are the bar's series, in the order a request holds them
// (labels marked: compositionSeries translates them).
var partGroups = []partGroup{
	{i18n.Mark("system prompt"), []string{compare.PartSystem, compare.PartSystemSection, compare.PartPresetItem}},
	{i18n.Mark("tool definitions"), []string{compare.PartTool}},
	{i18n.Mark("capability text"), []string{compare.PartCapability}},
	{i18n.Mark("history"), []string{compare.PartHistory}},
	{i18n.Mark("tool results"), []string{compare.PartToolResult}},
	{i18n.Mark("images"), []string{compare.PartImage}},
}

// compositionSeries are partGroups' series: a rune each (NO_COLOR tells
// them apart) and a style from the theme.
func compositionSeries(st themes.Styles) []chart.Series {
	return []chart.Series{
		{Label: i18n.T(partGroups[0].label), Rune: '█', Style: st.Text.Info},
		{Label: i18n.T(partGroups[1].label), Rune: '▓', Style: st.Text.Warning},
		{Label: i18n.T(partGroups[2].label), Rune: '▚', Style: st.Text.Danger},
		{Label: i18n.T(partGroups[3].label), Rune: '▒', Style: st.Text.Success},
		{Label: i18n.T(partGroups[4].label), Rune: '░', Style: st.Role.Assistant.UnsetBold()},
		{Label: i18n.T(partGroups[5].label), Rune: '▞', Style: st.Text.Subtle},
	}
}

// groupOf is the series index of a part kind.
func groupOf(kind string) int {
	for g, pg := range partGroups {
		for _, k := range pg.kinds {
			if k == kind {
				return g
			}
		}
	}
	return 0
}

// compositionShareWidth is the width of each part's share bar.
const compositionShareWidth = 12

// renderComposition lays a composition out for a width: what request it
// is and its total, where the figures come from, the stacked bar, each
// series with its share, then each part with its tokens, share and
// whether it lies in the cached prefix.
func renderComposition(res *compositionResult, width int, st themes.Styles) []string {
	width = max(20, width)
	cut := func(s string) string { return ansi.Truncate(s, width, "…") }
	if res.err != nil {
		return wrapped(st.Text.Danger, sanitize.Fold(res.err.Error()), width)
	}
	c := res.comp
	what := i18n.T("next request from entry %s", res.entry)
	if res.forAssistant {
		what = i18n.T("request for assistant entry %s", res.entry)
	}
	out := []string{cut(st.Text.Strong.Render(i18n.T("%s · %s tokens", what, common.FormatTokens(c.Total))))}
	if c.HasRecorded {
		out = append(out, wrapped(st.Text.Subtle, i18n.T("chars/4 estimates (%s) scaled to the input recorded at %s (input + cache read + cache write); cache read %s",
			common.FormatTokens(c.Estimated), sanitize.Fold(c.UsageEntry), common.FormatTokens(c.CacheRead)), width)...)
	} else {
		out = append(out, wrapped(st.Text.Subtle, i18n.T("no usage recorded for this request: chars/4 estimates, cached prefix unknown"), width)...)
	}
	series := compositionSeries(st)
	sums := make([]float64, len(series))
	for _, p := range c.Parts {
		sums[groupOf(p.Kind)] += float64(p.Tokens)
	}
	out = append(out, "", chart.StackedHBar(sums, series, float64(c.Total), width))
	for g, s := range series {
		if sums[g] == 0 {
			continue
		}
		share := 0.0
		if c.Total > 0 {
			share = sums[g] / float64(c.Total)
		}
		out = append(out, cut(s.Style.Render(string(s.Rune))+" "+st.Text.Normal.Render(common.PadCell(s.Label, 17)+fmt.Sprintf(" %8s %6.1f%%", common.FormatTokens(int(sums[g])), 100*share))))
	}
	out = append(out, "")
	labelWidth := max(8, width-2-8-8-compositionShareWidth-4)
	for _, p := range c.Parts {
		prefix := " "
		if p.PrefixKnown && p.InPrefix {
			prefix = "▌"
		}
		s := series[groupOf(p.Kind)]
		label := sanitize.Fold(p.Label)
		if p.Ref != "" && p.Ref != p.Label {
			label += " (" + sanitize.Fold(p.Ref) + ")"
		}
		label = common.PadCell(ansi.Truncate(label, labelWidth-1, "…"), labelWidth)
		out = append(out, cut(st.Text.Muted.Render(prefix)+s.Style.Render(string(s.Rune))+" "+st.Text.Normal.Render(label)+
			st.Text.Normal.Render(fmt.Sprintf("%8s %6.1f%% ", common.FormatTokens(p.Tokens), 100*p.Share))+
			chart.HBar(p.Share, 1, compositionShareWidth, s.Style)))
	}
	if c.HasRecorded {
		out = append(out, "", cut(st.Text.Muted.Render(i18n.T("▌ inside the cached prefix (the recorded cache read)"))))
	}
	return out
}
