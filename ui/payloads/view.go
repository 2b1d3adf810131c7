package payloads

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/diffview"
)

// diffviewEmpty is the block list's content without a comparison.
var diffviewEmpty = diffview.Diff{Boundary: diffview.NoBoundary}

// headerLines is how many lines sit above the panes: A, B, the cause and
// the cache figures.
const headerLines = 4

// layout sizes the block list and line diff below the header.
func (m *Model) layout() { m.view.SetSize(m.width, max(0, m.height-headerLines)) }

// View implements common.Panel.
func (m *Model) View() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	st := &m.com.Styles
	var out string
	switch {
	case m.picker != nil:
		out = m.pickerView(st)
	case m.mode == modeRequests:
		out = m.reqs.View(st, m.width, m.height)
	case m.mode == modeBreaks:
		out = m.brk.View(st, m.keys, m.width, m.height)
	default:
		out = m.diffView(st)
	}
	return out
}

// fitLines pads or cuts lines to exactly w×h.
func fitLines(lines []string, w, h int) string {
	out := make([]string, h)
	for i := range out {
		line := ""
		if i < len(lines) {
			line = ansi.Truncate(lines[i], w, "…")
		}
		out[i] = line + strings.Repeat(" ", max(0, w-ansi.StringWidth(line)))
	}
	return strings.Join(out, "\n")
}

// header is the two reference lines, the cause line and the cache line;
// a status message takes the place of one of the last two.
func (m *Model) header(st *themes.Styles) []string { return m.headerWith(st, m.status) }

// headerWith is the header with status as its message ("" for none: the
// lines as the comparison has them).
func (m *Model) headerWith(st *themes.Styles, status string) []string {
	labels := [2]string{"(none)", "(none)"}
	for i, r := range m.refs {
		if r != "" {
			labels[i] = sanitize.Line(r)
		}
	}
	if m.cmp != nil {
		labels = m.cmp.labels
	}
	follow := ""
	if m.auto {
		follow = st.Text.Muted.Render("  (following the selection)")
	}
	lines := []string{
		st.Text.Strong.Render("A ") + st.Text.Normal.Render(labels[0]),
		st.Text.Strong.Render("B ") + st.Text.Normal.Render(labels[1]) + follow,
	}
	switch {
	case status != "" && m.isErr:
		lines = append(lines, st.Text.Danger.Render(status))
	case m.pending:
		lines = append(lines, st.Text.Muted.Render("comparing…"))
	case m.note != "":
		lines = append(lines, st.Text.Muted.Render(m.note))
	case m.breakMark != "":
		lines = append(lines, st.Text.Warning.Render("cache break: ")+st.Text.Normal.Render(m.breakMark))
	case m.cmp != nil && m.cmp.cause != nil:
		lines = append(lines, st.Text.Warning.Render("cause: ")+st.Text.Normal.Render(causeText(m.cmp.cause)))
	case m.cmp != nil && m.cmp.diff.Summary.ChangedBlocks == 0:
		lines = append(lines, st.Text.Success.Render("identical requests: the whole prefix stays cached"))
	case m.cmp != nil:
		lines = append(lines, st.Text.Muted.Render(breakText(m.cmp)))
	default:
		lines = append(lines, "")
	}
	switch {
	case status != "" && !m.isErr:
		lines = append(lines, st.App.Status.Render(status))
	case m.cmp != nil && m.cmp.usage != nil:
		u := m.cmp.usage
		line := "B recorded: " + cacheFigures(u) + fmt.Sprintf("  ·  predicted cached prefix ~%s tok", count(float64(m.cmp.diff.PrefixTokens)))
		if m.cmp.branch != nil {
			line += "  ·  " + branchSummary(m.cmp.branch)
		}
		lines = append(lines, st.Diff.Boundary.Render(line))
	case m.cmp != nil:
		lines = append(lines, st.Text.Muted.Render(fmt.Sprintf("predicted cached prefix ~%s tok (no recorded usage for B)", count(float64(m.cmp.diff.PrefixTokens)))))
	default:
		lines = append(lines, "")
	}
	return lines
}

// breakText says where the cache breaks when no cause is known.
func breakText(c *comparison) string {
	var prev *turndiff.Turn
	if c.sides[0] != nil {
		prev = &c.sides[0].Turn.Turn
	}
	row, _, ok := turndiff.BoundaryChange(&c.diff, prev)
	if !ok {
		return "only appended blocks: the cached prefix holds"
	}
	b := &c.diff.Blocks[row]
	text := "cache break at " + sanitize.Line(c.view.Blocks[row].Name())
	if b.Status == turndiff.StatusModified && b.Before.Text == b.After.Text {
		return text + ": same text, other request fields differ (a cache marker, ids, metadata)"
	}
	return text + "; the data does not say why"
}

// causeText is a cause in one line: what, and where it points.
func causeText(c *turndiff.Cause) string {
	parts := []string{sanitize.Line(c.Detail)}
	for _, f := range []struct{ label, v string }{
		{"entry", c.EntryID}, {"item", c.ItemID}, {"capability", c.CapabilityID}, {"rule", c.RuleID},
	} {
		if f.v != "" {
			parts = append(parts, f.label+" "+sanitize.Line(f.v))
		}
	}
	return strings.Join(parts, " · ")
}

func (m *Model) diffView(st *themes.Styles) string {
	head := fitLines(m.header(st), m.width, min(headerLines, m.height))
	if m.height <= headerLines {
		return head
	}
	return head + "\n" + m.view.View(st)
}

func (m *Model) pickerView(st *themes.Styles) string {
	p := m.picker
	title := "Pick A (earlier request)"
	if p.side == 1 {
		title = "Pick B (later request)"
	}
	var lines []string
	switch {
	case p.typing:
		lines = append(lines, p.input.View(), "", st.Text.Muted.Render(m.keys.Open.Help().Key+" compares · "+m.keys.Back.Help().Key+" back to the list"))
	case p.loading:
		lines = append(lines, st.Text.Muted.Render("looking for saved payloads, requests and presets…"))
	default:
		lines = append(lines, p.list.View(st, max(0, m.width-4), max(0, m.height-3), true)...)
	}
	if p.err != "" {
		lines = append([]string{st.Text.Danger.Render(p.err)}, lines...)
	}
	return common.Frame(*st, m.width, m.height, title, p.list.Position(), true, lines)
}
