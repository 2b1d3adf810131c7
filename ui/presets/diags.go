package presets

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// itemDiagCounts are the error and warning counts per item id, from
// validation and from the last preview (template errors of a block); a
// message both report counts once.
func (m *Model) itemDiagCounts() map[string][2]int {
	out := map[string][2]int{}
	seen := map[string]bool{}
	for _, d := range m.allDiagnostics() {
		k := d.ItemID + "\x00" + string(d.Level) + "\x00" + d.Message
		if d.ItemID == "" || seen[k] {
			continue
		}
		seen[k] = true
		c := out[d.ItemID]
		switch d.Level {
		case preset.LevelError:
			c[0]++
		case preset.LevelWarning:
			c[1]++
		}
		out[d.ItemID] = c
	}
	return out
}

// allDiagnostics are the draft's validation diagnostics followed by the
// last preview's compile diagnostics.
func (m *Model) allDiagnostics() []preset.Diagnostic {
	all := append([]preset.Diagnostic(nil), m.d.Diagnostics()...)
	if m.preview != nil {
		all = append(all, m.preview.res.Result.System.Diagnostics...)
		all = append(all, m.preview.res.Result.Messages.Diagnostics...)
	}
	return all
}

// itemDiagnostics lists the diagnostics of one item id (validation first,
// then the compile's), without repeats.
func (m *Model) itemDiagnostics(id string) []preset.Diagnostic {
	var out []preset.Diagnostic
	seen := map[string]bool{}
	for _, d := range m.allDiagnostics() {
		k := string(d.Level) + "\x00" + d.Message
		if d.ItemID == id && !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
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
