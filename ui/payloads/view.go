package payloads

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

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
		out = m.picker.View(st, m.width, m.height)
	case m.mode == modeRequests:
		out = m.reqs.View(st, m.width, m.height)
	case m.mode == modeBreaks:
		out = m.brk.View(st, m.keys, m.width, m.height)
	default:
		out = m.pairView.View(st, m.width, m.height, m.status, m.isErr, m.pending)
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
