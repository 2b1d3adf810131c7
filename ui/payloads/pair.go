package payloads

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/requestdiff"
)

// pairView is the request pair view as a part of the panel: the two
// references and their comparison, the header that names them with the
// recorded cache use, the cause line under them (causeLine, a part of its
// own) and the block list and line diff (requestdiff). Its Update takes
// the diff's keys and the cause line's; picking a side, swapping,
// reloading, the cache view and the jump it asks the panel for as
// intents. The panel fills it from its comparisons and its following of
// the selection.
type pairView struct {
	com  *common.Common
	keys *keymap.Payloads
	// refs are the two references (A, B); "" for A means nothing.
	refs [2]string
	// auto: the pair follows the selection; a pick or a swap turns it
	// off, "follow" in the picker back on.
	auto bool
	cmp  *comparison
	// view is the block list and line diff of cmp.
	view *requestdiff.Model
	causeLine
}

// newPairView is an empty pair that follows the selection.
func newPairView(com *common.Common, keys *keymap.Payloads) pairView {
	return pairView{com: com, keys: keys, auto: true, view: requestdiff.New(), causeLine: causeLine{keys: keys}}
}

// Update implements part: the pick, swap, reload and cache-view keys ask
// the panel, the cause line takes its jump key, the diff the rest (and
// its command results).
func (p *pairView) Update(msg tea.Msg) (tea.Cmd, intent) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		_, cmd := p.view.Update(msg, *p.keys)
		return cmd, nil
	}
	keys := p.keys
	switch {
	case key.Matches(k, keys.PickA):
		return nil, pickIntent{side: 0}
	case key.Matches(k, keys.PickB):
		return nil, pickIntent{side: 1}
	case key.Matches(k, keys.Swap):
		if p.refs[0] == "" {
			return nil, statusIntent{text: i18n.T("A is empty: pick A first (%s)", keys.PickA.Help().Key), isErr: true}
		}
		return nil, compareIntent{refs: [2]string{p.refs[1], p.refs[0]}}
	case key.Matches(k, keys.Reload):
		return nil, reloadIntent{}
	case key.Matches(k, keys.Requests):
		return nil, openBreaksIntent{}
	}
	if cmd, in := p.causeLine.Update(k); in != nil {
		return cmd, in
	}
	_, cmd := p.view.Update(k, *keys)
	return cmd, nil
}

// ShortHelp implements part: the line diff's keys while it has focus,
// else the pair's with the cause line's.
func (p *pairView) ShortHelp() []key.Binding {
	k := p.keys
	if p.view.Focus() == requestdiff.Lines {
		return []key.Binding{k.NextChange, k.Layout, k.Context, k.Wrap, p.com.Keys.View, p.com.Keys.Copy, k.Back}
	}
	help := []key.Binding{k.PickA, k.PickB, k.Swap, k.Open, p.com.Keys.View, k.NextChange}
	help = append(help, p.causeLine.ShortHelp()...)
	return append(help, k.Requests)
}

// CapturesInput implements part: the pair takes no text.
func (p *pairView) CapturesInput() bool { return false }

// View draws the header (headerLines of them) above the diff in w×h
// cells; status is the panel's message (an error stands in for the
// cause line, a note for the cache line), pending says a comparison is
// on its way.
func (p *pairView) View(st *themes.Styles, w, h int, status string, isErr, pending bool) string {
	head := fitLines(p.header(st, status, isErr, pending), w, min(headerLines, h))
	if h <= headerLines {
		return head
	}
	return head + "\n" + p.view.View(st)
}

// header is the two reference lines, the cause line and the cache line;
// a status message takes the place of one of the last two ("" for none:
// the lines as the comparison has them).
func (p *pairView) header(st *themes.Styles, status string, isErr, pending bool) []string {
	labels := [2]string{i18n.T("(none)"), i18n.T("(none)")}
	for i, r := range p.refs {
		if r != "" {
			labels[i] = sanitize.Line(r)
		}
	}
	if p.cmp != nil {
		labels = p.cmp.labels
	}
	follow := ""
	if p.auto {
		follow = st.Text.Muted.Render(i18n.T("  (following the selection)"))
	}
	errStatus := ""
	if status != "" && isErr {
		errStatus = status
	}
	lines := []string{
		st.Text.Strong.Render("A ") + st.Text.Normal.Render(labels[0]),
		st.Text.Strong.Render("B ") + st.Text.Normal.Render(labels[1]) + follow,
		p.causeLine.View(st, p.cmp, pending, errStatus),
	}
	switch {
	case status != "" && !isErr:
		lines = append(lines, st.App.Status.Render(status))
	case p.cmp != nil && p.cmp.usage != nil:
		u := p.cmp.usage
		line := i18n.T("B recorded: %s  ·  predicted cached prefix ~%s tok", cacheFigures(u), count(float64(p.cmp.diff.PrefixTokens)))
		if p.cmp.branch != nil {
			line += "  ·  " + branchSummary(p.cmp.branch)
		}
		lines = append(lines, st.Diff.Boundary.Render(line))
	case p.cmp != nil:
		lines = append(lines, st.Text.Muted.Render(i18n.T("predicted cached prefix ~%s tok (no recorded usage for B)", count(float64(p.cmp.diff.PrefixTokens)))))
	default:
		lines = append(lines, "")
	}
	return lines
}
