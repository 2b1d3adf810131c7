package forms

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/preset"
)

// View draws the mode, the pattern list, the known-tool picker with its
// match preview and (tools only) the initial list.
func (f *policyForm) View(width, height int) string {
	st := f.styles
	var lines []string
	focus := 0
	add := func(r policyRow, text string, sel bool) {
		if sel {
			focus = len(lines)
		}
		style := st.List.Item
		if sel && !f.editing {
			style = st.List.Selected
		} else if sel {
			style = st.List.SelectedBlurred
		}
		marker := "  "
		if sel {
			marker = "▸ "
		}
		if sel && f.editing && f.target == r {
			f.input.SetWidth(max(4, width-ansiWidth(marker+text)-ansiWidth(f.input.Prompt)-1))
			lines = append(lines, style.Render(marker+text)+f.input.View())
			if f.err != "" {
				lines = append(lines, st.Text.Danger.Render(truncate("    ✗ "+f.err, width)))
			}
			return
		}
		lines = append(lines, style.Render(truncate(marker+text, width)))
	}
	subject := "tool"
	if f.field == "skills" {
		subject = "skill"
	}
	lines = append(lines, st.Text.Subtle.Render(truncate(fmt.Sprintf(
		"%s policy — allow XOR deny; patterns are exact names, * matches any run of characters", map[string]string{"tool": "Tool", "skill": "Skill"}[subject]), width)))
	for _, d := range f.diags {
		lines = append(lines, renderDiag(st, d, width, ""))
	}
	lines = append(lines, "")
	sel := func(i int) bool { return i == f.row }
	adding := f.editing && (f.target.kind == rowAddPattern || f.target.kind == rowAddInitial)
	for i, r := range f.rows {
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
			add(r, fmt.Sprintf("mode      %-5s  (%s)", f.mode, desc), sel(i))
			lines = append(lines, st.Text.Strong.Render(truncate("  "+f.modeKey()+" patterns", width)))
		case rowPattern:
			p := f.patterns[r.index]
			add(r, fmt.Sprintf("  %d. %s", r.index+1, p)+f.patternNote(p), sel(i))
		case rowAddPattern:
			if adding && f.target.kind == rowAddPattern {
				add(f.target, "  ", true)
			} else {
				add(r, "  + add pattern", sel(i))
			}
			if f.field == "tools" && len(f.ctx.KnownTools) > 0 {
				lines = append(lines, "", st.Text.Strong.Render(truncate("  known tools — "+f.previewSummary(), width)))
			}
		case rowTool:
			name := f.ctx.KnownTools[r.index]
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
			add(r, text, sel(i))
		case rowInitialSet:
			state := "omitted: legacy defaults (baseline / allow list)"
			if f.hasInitial {
				state = fmt.Sprintf("set: %d default tool(s) ([] = none)", len(f.initial))
			}
			lines = append(lines, "")
			add(r, "initial   "+state, sel(i))
		case rowInitial:
			name := f.initial[r.index]
			text := "  " + name
			if !preset.IsAllowed(f.policy(), name) {
				text += "  ⚠ blocked by the allow/deny policy"
			}
			add(r, text, sel(i))
		case rowAddInitial:
			if adding && f.target.kind == rowAddInitial {
				add(f.target, "  ", true)
			} else {
				add(r, "  + add initial tool", sel(i))
			}
		}
	}
	return frame(lines, focus, width, height)
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
