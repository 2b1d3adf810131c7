package payloads

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// causeLine is the line under the two references as a part of the pair
// view: why the cache broke between them — the cause the data names, the
// break picked in the cache view (its mark), where the cached prefix ends
// when nothing says why — or a note while there is no pair; an error
// status stands in for it. Its Update takes the jump key: the jump to
// what produced the selected block (the cause, when that block broke the
// cache), which the panel carries out with the comparison and the block.
type causeLine struct {
	keys *keymap.Payloads
	// note says why there is no pair to compare ("pick B").
	note string
	// picked is the break whose requests are compared, as the cache
	// view picked it (nil once another pair is compared).
	picked *breakRow
}

// Update implements part: the jump key asks for the jump.
func (c *causeLine) Update(msg tea.Msg) (tea.Cmd, intent) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, c.keys.Jump) {
		return nil, jumpIntent{}
	}
	return nil, nil
}

// ShortHelp implements part.
func (c *causeLine) ShortHelp() []key.Binding { return []key.Binding{c.keys.Jump} }

// CapturesInput implements part: the line takes no text.
func (c *causeLine) CapturesInput() bool { return false }

// View draws the line for the comparison cmp (nil: none), pending while
// one is on its way, errStatus in its place when set.
func (c *causeLine) View(st *themes.Styles, cmp *comparison, pending bool, errStatus string) string {
	switch {
	case errStatus != "":
		return st.Text.Danger.Render(errStatus)
	case pending:
		return st.Text.Muted.Render(i18n.T("comparing…"))
	case c.note != "":
		return st.Text.Muted.Render(c.note)
	case c.picked != nil:
		return st.Text.Warning.Render(i18n.T("cache break: ")) + st.Text.Normal.Render(c.picked.markText())
	case cmp != nil && cmp.cause != nil:
		return st.Text.Warning.Render(i18n.T("cause: ")) + st.Text.Normal.Render(causeText(cmp.cause))
	case cmp != nil && cmp.diff.Summary.ChangedBlocks == 0:
		return st.Text.Success.Render(i18n.T("identical requests: the whole prefix stays cached"))
	case cmp != nil:
		return st.Text.Muted.Render(breakText(cmp))
	}
	return ""
}

// breakText says where the cache breaks when no cause is known.
func breakText(c *comparison) string {
	var prev *turndiff.Turn
	if c.sides[0] != nil {
		prev = &c.sides[0].Turn.Turn
	}
	row, _, ok := turndiff.BoundaryChange(&c.diff, prev)
	if !ok {
		return i18n.T("only appended blocks: the cached prefix holds")
	}
	b := &c.diff.Blocks[row]
	name := sanitize.Line(c.view.Blocks[row].Name())
	if b.Status == turndiff.StatusModified && b.Before.Text == b.After.Text {
		return i18n.T("cache break at %s: same text, other request fields differ (a cache marker, ids, metadata)", name)
	}
	return i18n.T("cache break at %s; the data does not say why", name)
}

// causeText is a cause in one line: what, and where it points.
func causeText(c *turndiff.Cause) string {
	parts := []string{sanitize.Line(c.Detail)}
	for _, f := range []struct{ label, v string }{
		{i18n.Mark("entry %s"), c.EntryID}, {i18n.Mark("item %s"), c.ItemID}, {i18n.Mark("capability %s"), c.CapabilityID}, {i18n.Mark("rule %s"), c.RuleID},
	} {
		if f.v != "" {
			parts = append(parts, i18n.T(f.label, sanitize.Line(f.v)))
		}
	}
	return strings.Join(parts, " · ")
}
