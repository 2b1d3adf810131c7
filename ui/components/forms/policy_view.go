package forms

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
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
	subject := map[string]string{"tools": "Tool", "skills": "Skill"}[f.field]
	lines := append(heading(st, subject+" policy — allow XOR deny; patterns are exact names, * matches any run of characters", f.diags, width), "")
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
	subject := "tool"
	if f.field == "skills" {
		subject = "skill"
	}
	adding := f.edit.open && (f.target.kind == rowAddPattern || f.target.kind == rowAddInitial)
	items := make([]policyItem, len(f.rows))
	cursor := f.row
	for i, r := range f.rows {
		var it policyItem
		switch r.kind {
		case rowMode:
			desc := map[string]string{
				policyNone:  "no policy: every " + subject + " stays available",
				policyAllow: "only matching " + subject + "s",
				policyDeny:  "every " + subject + " except matching ones",
			}[f.mode]
			if f.both {
				desc = "allow and deny are both set — only allow is used"
			}
			it = policyItem{text: fmt.Sprintf("mode      %-5s  (%s)", f.mode, desc), heading: "  " + f.modeKey() + " patterns"}
		case rowPattern:
			p := f.patterns[r.index]
			it.text = fmt.Sprintf("  %d. %s", r.index+1, p) + f.patternNote(p)
		case rowAddPattern:
			it.text = "  + add pattern"
			if f.field == "tools" && len(f.ctx.KnownTools) > 0 {
				it.gap, it.heading = true, "  known tools — "+f.previewSummary()
			}
		case rowTool:
			it.text = f.toolText(f.ctx.KnownTools[r.index])
		case rowInitialSet:
			state := "omitted: legacy defaults (baseline / allow list)"
			if f.hasInitial {
				state = fmt.Sprintf("set: %d default tool(s) ([] = none)", len(f.initial))
			}
			it = policyItem{text: "initial   " + state, above: true}
		case rowInitial:
			name := f.initial[r.index]
			it.text = "  " + name
			if !preset.IsAllowed(f.policy(), name) {
				it.text += "  ⚠ blocked by the allow/deny policy"
			}
		case rowAddInitial:
			it.text = "  + add initial tool"
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
		text += " ✗ denied by " + strings.Join(by, ", ")
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
		return "   (matches no known tool)"
	}
	return fmt.Sprintf("   (%d known)", n)
}

// previewSummary says which known tools the policy leaves available.
func (f *policyForm) previewSummary() string {
	kept := preset.ApplyResourcePolicy(f.ctx.KnownTools, f.policy())
	switch f.mode {
	case policyNone:
		return fmt.Sprintf("no policy, all %d available (space starts an allow list)", len(kept))
	case policyAllow:
		return fmt.Sprintf("allow selects %d of %d", len(kept), len(f.ctx.KnownTools))
	}
	return fmt.Sprintf("deny removes %d of %d, %d remain", len(f.ctx.KnownTools)-len(kept), len(f.ctx.KnownTools), len(kept))
}
