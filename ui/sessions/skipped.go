package sessions

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The reader drops lines Pi would drop too (malformed JSON, blank and
// falsy lines, oversized ones). The timeline's border marks a session
// that lost lines, and the skipped view lists them with the reason, from
// the same diagnostics `session show` prints.

// skippedMark is the timeline border's marker ("" when nothing was
// skipped).
func (m *Model) skippedMark() string {
	if m.ls == nil {
		return ""
	}
	n := m.ls.skippedCount()
	if n == 0 {
		return ""
	}
	return i18n.T("⚠ %d line(s) skipped · %s", n, m.keys.Skipped.Help().Key)
}

// openSkipped shows the skipped lines in the detail pane.
func (m *Model) openSkipped() {
	m.mode = modeSkipped
	m.focus = paneDetail
	m.views.skippedOffset = 0
}

// skippedLines lays the skipped view out for width w.
func (m *Model) skippedLines(w int) []string {
	st := &m.com.Styles
	ls := m.ls
	n := ls.skippedCount()
	var out []string
	if n == 0 {
		out = append(out, st.Text.Success.Render(i18n.T("No line of this session was skipped.")))
	} else {
		out = append(out, st.Text.Warning.Render(i18n.T("%d line(s) of the file were skipped (Pi skips them too):", n)),
			st.Text.Muted.Render(baseName(ls.file)), "")
		for _, l := range ls.skipped {
			out = append(out, st.Text.Muted.Render("  "+common.PadCell(i18n.T("line %d", l.Line), 13))+st.Text.Normal.Render(l.Reason))
		}
		if ls.unnumbered > 0 {
			out = append(out, st.Text.Muted.Render("  "+i18n.T("… and %d more (the first 100 of each kind are numbered)", ls.unnumbered)))
		}
	}
	if len(ls.noticed) > 0 {
		out = append(out, "", st.Text.Subtle.Render(i18n.T("Also noticed:")))
		for _, note := range ls.noticed {
			out = append(out, "  "+st.Text.Normal.Render(sanitize.Fold(note)))
		}
	}
	for i, l := range out {
		out[i] = ansi.Truncate(l, w, "…")
	}
	return out
}
