package forms

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// policyItem is what one row of the policy form shows: its text, a blank
// line above it (the initial section), a heading under it (the pattern
// list's, the known tools'), and the editor while it is being edited.
type policyItem struct {
	text    string
	above   bool
	gap     bool // a blank line before the heading
	heading string
	editing bool
	editor  string
	err     string
}

// renderPolicyRow draws a policy row with what goes above and under it.
func renderPolicyRow(r policyItem, s common.RowState) string {
	st := s.Styles
	var lines []string
	if r.above {
		lines = append(lines, "")
	}
	style, marker := st.List.Item, "  "
	if s.Selected {
		marker, style = "▸ ", st.List.SelectedBlurred
		if s.Focused {
			style = st.List.Selected
		}
	}
	if r.editing {
		lines = append(lines, style.Render(marker+r.text)+r.editor)
		if r.err != "" {
			lines = append(lines, st.Text.Danger.Render(truncate("    ✗ "+r.err, s.Width)))
		}
	} else {
		lines = append(lines, style.Render(truncate(marker+r.text, s.Width)))
	}
	if r.gap {
		lines = append(lines, "")
	}
	if r.heading != "" {
		lines = append(lines, st.Text.Strong.Render(truncate(r.heading, s.Width)))
	}
	return strings.Join(lines, "\n")
}

// View draws the mode, the pattern list, the known-tool picker with its
// match preview and (tools only) the initial list.
func (f *policyForm) View(width, height int) string {
	st := f.styles
	head := i18n.T("Tool policy — allow XOR deny; patterns are exact names, * matches any run of characters")
	if f.field == "skills" {
		head = i18n.T("Skill policy — allow XOR deny; patterns are exact names, * matches any run of characters")
	}
	lines := append(heading(st, head, f.diags, width), "")
	return common.Fit(append(lines, f.list.View(st, width, max(0, height-len(lines)), !f.edit.open)...), width, height)
}

// SetSize implements Form: the editor of a pattern fits the width.
func (f *policyForm) SetSize(width, _ int) {
	if width != f.width {
		f.width = width
		f.refresh()
	}
}

// refresh rebuilds the rows and puts the list's cursor on the focused row,
// or on the row being edited.
func (f *policyForm) refresh() {
	skills := f.field == "skills"
	adding := f.edit.open && (f.target.kind == rowAddPattern || f.target.kind == rowAddInitial)
	items := make([]policyItem, len(f.rows))
	cursor := f.row
	for i, r := range f.rows {
		var it policyItem
		switch r.kind {
		case rowMode:
			desc := policyModeText(f.mode, skills)
			if f.both {
				desc = i18n.T("allow and deny are both set — only allow is used")
			}
			it = policyItem{text: fmt.Sprintf("%s%-5s  (%s)", common.PadRight(i18n.T("mode"), policyLabelWidth), f.mode, desc), heading: "  " + i18n.T("%s patterns", f.modeKey())}
		case rowPattern:
			p := f.patterns[r.index]
			it.text = fmt.Sprintf("  %d. %s", r.index+1, p) + f.patternNote(p)
		case rowAddPattern:
			it.text = "  + " + i18n.T("add pattern")
			if f.field == "tools" && len(f.ctx.KnownTools) > 0 {
				it.gap, it.heading = true, "  "+i18n.T("known tools — %s", f.previewSummary())
			}
		case rowTool:
			it.text = f.toolText(f.ctx.KnownTools[r.index])
		case rowInitialSet:
			state := i18n.T("omitted: legacy defaults (baseline / allow list)")
			if f.hasInitial {
				state = i18n.T("set: %d default tool(s) ([] = none)", len(f.initial))
			}
			it = policyItem{text: common.PadRight("initial", policyLabelWidth) + state, above: true}
		case rowInitial:
			name := f.initial[r.index]
			it.text = "  " + name
			if !preset.IsAllowed(f.policy(), name) {
				it.text += "  ⚠ " + i18n.T("blocked by the allow/deny policy")
			}
		case rowAddInitial:
			it.text = "  + " + i18n.T("add initial tool")
		}
		it.text = sanitize.Line(it.text)
		if f.edit.open && (adding && r.kind == f.target.kind || !adding && i == f.row) {
			cursor = i
			if adding {
				it.text = "  "
			}
			in := &f.edit.input
			in.SetWidth(max(4, f.width-ansiWidth("▸ "+it.text)-ansiWidth(in.Prompt)-1))
			it.editing, it.editor, it.err = true, in.View(), f.edit.err
		}
		items[i] = it
	}
	f.list.SetItems(items)
	f.list.SetCursor(cursor)
}

// toolText is a known tool's row: whether the policy's patterns select it
// and which.
func (f *policyForm) toolText(name string) string {
	by := f.matchedBy(name)
	box := "[ ]"
	if len(by) > 0 {
		box = "[x]"
	}
	text := fmt.Sprintf("  %s %-18s", box, name)
	switch {
	case len(by) > 0 && f.mode == policyDeny:
		text += " ✗ " + i18n.T("denied by %s", strings.Join(by, ", "))
	case len(by) > 0:
		text += " ← " + strings.Join(by, ", ")
	}
	return text
}

// patternNote tells how many known tools a pattern matches.
func (f *policyForm) patternNote(p string) string {
	if f.field != "tools" || len(f.ctx.KnownTools) == 0 {
		return ""
	}
	n := 0
	for _, t := range f.ctx.KnownTools {
		if preset.PatternMatches(t, p) {
			n++
		}
	}
	if n == 0 {
		return "   " + i18n.T("(matches no known tool)")
	}
	return "   " + i18n.T("(%d known)", n)
}

// previewSummary says which known tools the policy leaves available.
func (f *policyForm) previewSummary() string {
	kept := preset.ApplyResourcePolicy(f.ctx.KnownTools, f.policy())
	switch f.mode {
	case policyNone:
		return i18n.T("no policy, all %d available (space starts an allow list)", len(kept))
	case policyAllow:
		return i18n.T("allow selects %d of %d", len(kept), len(f.ctx.KnownTools))
	}
	return i18n.T("deny removes %d of %d, %d remain", len(f.ctx.KnownTools)-len(kept), len(f.ctx.KnownTools), len(kept))
}

// policyLabelWidth is the cells of the mode and initial rows' label
// column, measured on the screen (a translated label may be wide).
const policyLabelWidth = 10

// policyModeText says what the mode leaves available, a whole sentence
// for tools and for skills (the subject is not glued in: word order
// differs between languages).
func policyModeText(mode string, skills bool) string {
	switch {
	case mode == policyAllow && skills:
		return i18n.T("only matching skills")
	case mode == policyAllow:
		return i18n.T("only matching tools")
	case mode == policyDeny && skills:
		return i18n.T("every skill except matching ones")
	case mode == policyDeny:
		return i18n.T("every tool except matching ones")
	case mode == policyNone && skills:
		return i18n.T("no policy: every skill stays available")
	case mode == policyNone:
		return i18n.T("no policy: every tool stays available")
	}
	return ""
}
