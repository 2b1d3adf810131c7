package forms

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// View shows the binding list, the focused binding's fields and its source
// capability next to the effective one; the picker replaces the list.
func (f *bindingsForm) View(width, height int) string {
	st := f.styles
	head := heading(st, i18n.T("Capability bindings — optional instructions the user (or, if modelCallable, the agent) can enable"), f.diags, width)
	if f.picking {
		lines := append(head, f.pickerTitle(width)...)
		lines = append(lines, f.picker.View(st, width, max(0, height-len(lines)), true)...)
		return common.Fit(lines, width, height)
	}
	bodyH := max(0, height-len(head))
	var list []string
	if len(f.raw) == 0 {
		list = []string{st.Pane.Placeholder.Render(truncate(i18n.T("no capability bindings — press a to bind one from the library"), width))}
	} else {
		list = f.list.View(st, width, min(f.list.Len(), max(3, bodyH/4)), f.pane == 0)
	}
	lines := append(head, list...)
	lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", max(0, width))))
	restH := max(0, height-len(lines))
	if restH == 0 || len(f.raw) == 0 {
		return common.Fit(lines, width, height)
	}
	var detail []string
	for _, d := range f.bindingDiags(f.row()) {
		detail = append(detail, renderDiag(st, d, width, ""))
	}
	fieldsH := max(0, restH-len(detail))
	if width >= 120 {
		fieldsW := width * 9 / 20
		cmpW := width - fieldsW - 3
		left := strings.Split(common.Fit(f.fieldLines(fieldsW, fieldsH), fieldsW, fieldsH), "\n")
		right := strings.Split(common.Fit(f.compareLines(cmpW), cmpW, fieldsH), "\n")
		for i := 0; i < fieldsH; i++ {
			detail = append(detail, left[i]+st.Text.Muted.Render(" │ ")+right[i])
		}
		return common.Fit(append(lines, detail...), width, height)
	}
	detail = append(detail, f.fieldLines(width, fieldsH)...)
	detail = append(detail, "")
	detail = append(detail, f.compareLines(width)...)
	return common.Fit(append(lines, detail[:min(len(detail), restH)]...), width, height)
}

// SetSize implements Form: the focused binding's fields are laid out for
// their column (beside the comparison from 120 cells on).
func (f *bindingsForm) SetSize(width, _ int) {
	if width >= 120 {
		f.setDetailWidth(width * 9 / 20)
		return
	}
	f.setDetailWidth(width)
}

// fieldLines are the focused binding's fields in at most height lines.
func (f *bindingsForm) fieldLines(width, height int) []string {
	if len(f.detail.fields) == 0 {
		return []string{f.styles.Text.Danger.Render(i18n.T("not an object: delete it (x)"))}
	}
	return f.detail.view(width, height, f.pane == 1)
}

// bindingSummary is the list line of binding i.
func (f *bindingsForm) bindingSummary(i int) string {
	t := f.typed[i]
	if t == nil {
		return sanitize.Line(i18n.T("✗ not an object: %s", jsonv.Stringify(f.raw[i])))
	}
	ref := i18n.T("(no ref)")
	if t.Ref != "" {
		ref = t.Ref
	}
	who := i18n.T("human-only")
	if t.ModelCallable {
		who = i18n.T("model-callable")
	}
	state := "✓"
	if b := f.bound[i]; b == nil || b.Error != "" || b.Effective == nil {
		state = "✗"
	}
	ov := ""
	if t.Overrides != nil {
		ov = "  +overrides"
	}
	return sanitize.Line(fmt.Sprintf("%s %s → %s  [%s]%s", state, f.bindingName(i), ref, who, ov))
}

// compareLines renders SOURCE vs EFFECTIVE for the focused binding.
func (f *bindingsForm) compareLines(width int) []string {
	st := f.styles
	b := f.bound[f.row()]
	var src, eff *capability.Capability
	srcTitle := i18n.T("SOURCE (unresolved)")
	if b != nil && b.Source != nil {
		src = b.Source.Capability
		srcTitle = i18n.T("SOURCE %s", b.Source.Key().String())
	}
	if b != nil {
		eff = b.Effective
	}
	effTitle := i18n.T("EFFECTIVE")
	if eff == nil {
		effTitle = i18n.T("EFFECTIVE (none: the binding does not resolve)")
	}
	const labelW = 15
	colW := max(4, (width-labelW-2)/2)
	row := func(label, a, c string, diff bool) string {
		mark := "  "
		if diff {
			mark = "≠ "
		}
		a, c = sanitize.Line(a), sanitize.Line(c)
		return mark + common.PadRight(truncate(label, labelW-2), labelW-2) + common.PadRight(truncate(a, colW-1), colW) + truncate(c, colW)
	}
	lines := []string{st.Text.Strong.Render(row("", srcTitle, effTitle, false))}
	field := func(c *capability.Capability, get func(*capability.Capability) string) string {
		if c == nil {
			return "—"
		}
		return get(c)
	}
	simple := []struct {
		label string
		get   func(*capability.Capability) string
	}{
		{"name", func(c *capability.Capability) string { return c.DisplayName() }},
		{"tools.add", func(c *capability.Capability) string { return listOrDash(c.Tools.Add) }},
		{"tools.remove", func(c *capability.Capability) string { return listOrDash(c.Tools.Remove) }},
	}
	for _, s := range simple {
		a, c := field(src, s.get), field(eff, s.get)
		lines = append(lines, row(s.label, a, c, src != nil && eff != nil && a != c))
	}
	var srcContent, effContent []string
	if src != nil {
		srcContent = strings.Split(src.Content, "\n")
	}
	if eff != nil {
		effContent = strings.Split(eff.Content, "\n")
	}
	changed := src != nil && eff != nil && src.Content != eff.Content
	n := min(max(len(srcContent), len(effContent)), 12)
	for i := 0; i < max(n, 1); i++ {
		label := ""
		if i == 0 {
			label = "content"
		}
		a, c := at(srcContent, i), at(effContent, i)
		lines = append(lines, row(label, a, c, changed && a != c))
	}
	if more := max(len(srcContent), len(effContent)) - n; more > 0 {
		lines = append(lines, st.Text.Muted.Render(row("", i18n.T("… %d more line(s)", more), "", false)))
	}
	return lines
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

func listOrDash(names []string) string {
	if len(names) == 0 {
		return "—"
	}
	return strings.Join(names, ", ")
}

// pickerTitle is the picker's heading (and, with an empty library, why
// only the by-hand entry is offered).
func (f *bindingsForm) pickerTitle(width int) []string {
	st := f.styles
	title := i18n.T("Bind a capability (enter binds, esc cancels)")
	if f.pickRef {
		title = i18n.T("Replace the ref of %s (enter picks, esc cancels)", f.bindingName(f.row()))
	}
	lines := []string{st.Dialog.Title.Render(truncate(sanitize.Line(title), width)), ""}
	if len(f.picks) == 1 {
		lines = append(lines, st.Pane.Placeholder.Render(truncate(i18n.T("the library has no capabilities (.pi/forge/capabilities or the global forge dir)"), width)))
	}
	return lines
}
