package common

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
)

// Frame draws a pane of exactly w×h cells with title in the top border
// and info (muted) in the bottom border; lines are truncated to the inner
// width and padded, so the frame never grows with its content. The
// focused pane has a heavy border (┏━┓) and the others a light rounded
// one (╭─╮), so the focus shows in every theme, NO_COLOR included, and
// not only through the border's colour. It builds the box line by line
// instead of measuring a lipgloss block, which keeps a frame cheap enough
// to redraw on every keypress.
func Frame(st themes.Styles, w, h int, title, info string, focused bool, lines []string) string {
	if w < 6 || h < 2 {
		return strings.TrimSuffix(strings.Repeat(strings.Repeat(" ", max(0, w))+"\n", max(0, h)), "\n")
	}
	border, titleStyle, box := st.Pane.Border, st.Pane.Title, paneBorder
	if focused {
		border, titleStyle, box = st.Pane.BorderFocused, st.Pane.TitleFocused, focusedBorder
	}
	bs := lipgloss.NewStyle().Foreground(border.GetBorderTopForeground())
	inner := w - 4
	title = ansi.Truncate(title, max(0, w-6), "…")
	tw := ansi.StringWidth(title)
	var b strings.Builder
	b.WriteString(bs.Render(box.TopLeft+box.Top+" ") + titleStyle.Render(title) +
		bs.Render(" "+strings.Repeat(box.Top, max(0, w-5-tw))+box.TopRight))
	side := bs.Render(box.Left)
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		b.WriteString("\n" + side + " " + FitLine(line, inner) + " " + side)
	}
	info = ansi.Truncate(info, max(0, w-6), "…")
	if iw := ansi.StringWidth(info); iw > 0 {
		b.WriteString("\n" + bs.Render(box.BottomLeft+strings.Repeat(box.Bottom, max(0, w-5-iw))+" ") +
			st.Text.Muted.Render(info) + bs.Render(" "+box.Bottom+box.BottomRight))
	} else {
		b.WriteString("\n" + bs.Render(box.BottomLeft+strings.Repeat(box.Bottom, w-2)+box.BottomRight))
	}
	return b.String()
}

// The borders of a pane without and with the focus.
var (
	paneBorder    = lipgloss.RoundedBorder()
	focusedBorder = lipgloss.ThickBorder()
)

// FitLine makes line exactly width cells: cut with an ellipsis when it is
// wider, padded with spaces when it is narrower.
func FitLine(line string, width int) string {
	if width <= 0 {
		return ""
	}
	if w := Width(line); w <= width { // what Truncate leaves as is
		return line + strings.Repeat(" ", width-w)
	}
	line = ansi.Truncate(line, width, "…")
	return line + strings.Repeat(" ", max(0, width-ansi.StringWidth(line)))
}

// Fit lays lines out as exactly width×height cells (FitLine each; missing
// lines blank, extra lines dropped), so a pane or a form never grows or
// shrinks with what it shows.
func Fit(lines []string, width, height int) string {
	if height <= 0 {
		return ""
	}
	out := make([]string, height)
	for i := range out {
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		out[i] = FitLine(line, width)
	}
	return strings.Join(out, "\n")
}
