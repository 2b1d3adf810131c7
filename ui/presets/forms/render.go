package forms

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/themes"
)

// truncate cuts s (possibly styled) to width cells with an ellipsis.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
}

// padRight pads s with spaces to width cells.
func padRight(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// frame fits lines into exactly width×height cells, scrolling so that line
// focus stays visible.
func frame(lines []string, focus, width, height int) string {
	if height <= 0 {
		return ""
	}
	start := 0
	if len(lines) > height {
		start = clamp(focus-height/2, 0, len(lines)-height)
	}
	out := make([]string, 0, height)
	for i := start; i < len(lines) && len(out) < height; i++ {
		out = append(out, padRight(truncate(lines[i], width), width))
	}
	for len(out) < height {
		out = append(out, strings.Repeat(" ", max(width, 0)))
	}
	return strings.Join(out, "\n")
}

// renderDiag draws one diagnostic line with its level badge.
func renderDiag(st *themes.Styles, d diagLine, width int, indent string) string {
	style := st.Text.Info
	d.text = sanitize.Line(d.text)
	switch d.level {
	case "ok":
		return st.Text.Success.Render(truncate(indent+"✓ "+d.text, width))
	case string(preset.LevelError):
		style = st.Text.Danger
	case string(preset.LevelWarning):
		style = st.Text.Warning
	}
	return style.Render(truncate(indent+d.level+": "+d.text, width))
}

// diagsWhere returns the diagnostics whose message passes keep.
func diagsWhere(ds preset.Diagnostics, keep func(preset.Diagnostic) bool) []diagLine {
	var out []diagLine
	for _, d := range ds {
		if keep(d) {
			out = append(out, diagLine{level: string(d.Level), text: d.Message})
		}
	}
	return out
}

// hasPrefix is a diagnostic matcher on message prefixes.
func hasPrefix(prefixes ...string) func(preset.Diagnostic) bool {
	return func(d preset.Diagnostic) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(d.Message, p) {
				return true
			}
		}
		return false
	}
}

// ansiWidth is the cell width of s.
func ansiWidth(s string) int { return ansi.StringWidth(s) }

// withList appends a field list (or its empty placeholder) below head and,
// while prompting (prompt non-nil), the prompt input and its error; the
// view scrolls to keep the cursor row (or the prompt) visible. The forms
// that edit named entries (parameters, slot options) share it.
func withList(st *themes.Styles, head []string, list *fieldList, empty string, prompt *textinput.Model, errText string, width, height int) string {
	lines := append(head, "")
	off := len(lines)
	body, cur := list.render(width, prompt == nil)
	if len(body) == 0 {
		body = []string{st.Pane.Placeholder.Render(truncate(empty, width))}
	}
	lines = append(lines, body...)
	if prompt != nil {
		prompt.SetWidth(max(4, width-ansiWidth(prompt.Prompt)-1))
		lines = append(lines, "", prompt.View())
		if errText != "" {
			lines = append(lines, st.Text.Danger.Render(truncate("✗ "+errText, width)))
		}
		cur = len(lines) - 1 - off
	}
	return frame(lines, off+cur, width, height)
}
