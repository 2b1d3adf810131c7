package presets

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// compiled are the last preview's compile diagnostics (none before the
// first preview of the draft).
func (m *Model) compiled() []preset.Diagnostic {
	if m.preview == nil {
		return nil
	}
	return append(append([]preset.Diagnostic(nil), m.preview.res.Result.System.Diagnostics...), m.preview.res.Result.Messages.Diagnostics...)
}

// diagIcon is the level marker of a diagnostic.
func diagIcon(st *themes.Styles, level preset.Level) string {
	switch level {
	case preset.LevelError:
		return st.Text.Danger.Render("✗ ")
	case preset.LevelWarning:
		return st.Text.Warning.Render("! ")
	}
	return st.Text.Info.Render("i ")
}

// wrapDiags renders diagnostics wrapped to width, prefix before each.
func wrapDiags(st *themes.Styles, ds []preset.Diagnostic, prefix string, width int) []string {
	var out []string
	pw := ansi.StringWidth(prefix)
	for _, d := range ds {
		for i, l := range common.Wrap(sanitize.Text(prefix+d.Message), max(1, width-2)) {
			if i == 0 {
				out = append(out, diagIcon(st, d.Level)+l)
			} else {
				out = append(out, strings.Repeat(" ", 2+pw)+l)
			}
		}
	}
	return out
}
