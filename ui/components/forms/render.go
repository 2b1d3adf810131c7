package forms

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// truncate cuts s (possibly styled) to width cells with an ellipsis.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	return ansi.Truncate(s, width, "…")
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

// heading is a form's first lines: what it edits (one line) and the
// diagnostics about the whole of it.
func heading(st *themes.Styles, title string, diags []diagLine, width int) []string {
	lines := []string{st.Text.Subtle.Render(truncate(title, width))}
	for _, d := range diags {
		lines = append(lines, renderDiag(st, d, width, ""))
	}
	return lines
}

// encodeDiags packs diagnostics into one comparable string (a list row's
// item must be comparable); decodeDiags unpacks it. Texts are cleaned to
// one line first, so the separators cannot occur in them.
func encodeDiags(ds []diagLine) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.level + "\x00" + sanitize.Line(d.text)
	}
	return strings.Join(parts, "\x01")
}

func decodeDiags(s string) []diagLine {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, "\x01")
	out := make([]diagLine, len(parts))
	for i, p := range parts {
		level, text, _ := strings.Cut(p, "\x00")
		out[i] = diagLine{level: level, text: text}
	}
	return out
}

// ansiWidth is the cell width of s.
func ansiWidth(s string) int { return ansi.StringWidth(s) }

// withList lays out a form that edits named entries (parameters, slot
// options): head, a blank line, the field list (or its empty placeholder)
// and, while the prompt is open, its input and its error,
// in exactly width×height cells.
func withList(st *themes.Styles, head []string, list *fieldList, empty string, p *prompt, width, height int) string {
	lines := append(head, "")
	var tail []string
	if p.open {
		tail = append(tail, "", p.input.View())
		if p.err != "" {
			tail = append(tail, st.Text.Danger.Render(truncate("✗ "+p.err, width)))
		}
	}
	body := list.view(width, max(0, height-len(lines)-len(tail)), !p.open)
	if len(list.fields) == 0 {
		body = []string{st.Pane.Placeholder.Render(truncate(empty, width))}
	}
	return common.Fit(append(append(lines, body...), tail...), width, height)
}
