package forms

import (
	"fmt"
	"strings"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
)

// View shows the binding list, the focused binding's fields and its source
// capability next to the effective one; the picker replaces the list.
func (f *bindingsForm) View(width, height int) string {
	st := f.styles
	head := []string{st.Text.Subtle.Render(truncate("Capability bindings — optional instructions the user (or, if modelCallable, the agent) can enable", width))}
	for _, d := range f.diags {
		head = append(head, renderDiag(st, d, width, ""))
	}
	if f.picking {
		picker := f.pickerLines(width)
		focus := len(head) + len(picker) - len(f.picks) + f.pickRow
		return frame(append(head, picker...), focus, width, height)
	}
	var list []string
	for i := range f.raw {
		style, marker := st.List.Item, "  "
		if i == f.row {
			marker, style = "▸ ", st.List.SelectedBlurred
			if f.pane == 0 {
				style = st.List.Selected
			}
		}
		list = append(list, style.Render(truncate(marker+f.bindingSummary(i), width)))
	}
	if len(f.raw) == 0 {
		list = []string{st.Pane.Placeholder.Render(truncate("no capability bindings — press a to bind one from the library", width))}
	}
	bodyH := max(0, height-len(head))
	listH := min(len(list), max(3, bodyH/4))
	lines := append(head, strings.Split(frame(list, f.row, width, listH), "\n")...)
	lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", max(0, width))))
	restH := max(0, height-len(lines))
	if restH == 0 || len(f.raw) == 0 {
		return frame(lines, 0, width, height)
	}
	var detail []string
	focus := 0
	for _, d := range f.bindingDiags(f.row) {
		detail = append(detail, renderDiag(st, d, width, ""))
	}
	if width >= 120 {
		fieldsW := width * 9 / 20
		cmpW := width - fieldsW - 3
		body, cur := f.detail.render(fieldsW, f.pane == 1)
		if len(body) == 0 {
			body = []string{st.Text.Danger.Render("not an object: delete it (x)")}
		}
		leftH := max(0, restH-len(detail))
		left := strings.Split(frame(body, cur, fieldsW, leftH), "\n")
		right := strings.Split(frame(f.compareLines(cmpW), 0, cmpW, leftH), "\n")
		for i := 0; i < leftH; i++ {
			detail = append(detail, left[i]+st.Text.Muted.Render(" │ ")+right[i])
		}
		return frame(append(lines, detail...), 0, width, height)
	}
	body, cur := f.detail.render(width, f.pane == 1)
	focus = len(detail) + cur
	detail = append(detail, body...)
	detail = append(detail, "")
	detail = append(detail, f.compareLines(width)...)
	return frame(append(lines, strings.Split(frame(detail, focus, width, restH), "\n")...), 0, width, height)
}

// bindingSummary is the list line of binding i.
func (f *bindingsForm) bindingSummary(i int) string {
	o, ok := f.raw[i].(*jsonv.Object)
	if !ok {
		return "✗ not an object: " + jsonv.Stringify(f.raw[i])
	}
	ref := "(no ref)"
	if v, ok := o.Get("ref"); ok {
		ref = jsonv.ToString(v)
	}
	who := "human-only"
	if v, _ := o.Get("modelCallable"); v == true {
		who = "model-callable"
	}
	state := "✓"
	if b := f.bound[i]; b == nil || b.Error != "" || b.Effective == nil {
		state = "✗"
	}
	ov := ""
	if _, ok := o.Get("overrides"); ok {
		ov = "  +overrides"
	}
	return sanitize.Line(fmt.Sprintf("%s %s → %s  [%s]%s", state, f.bindingName(i), ref, who, ov))
}

// compareLines renders SOURCE vs EFFECTIVE for the focused binding.
func (f *bindingsForm) compareLines(width int) []string {
	st := f.styles
	b := f.bound[f.row]
	var src, eff *capability.Capability
	srcTitle := "SOURCE (unresolved)"
	if b != nil && b.Source != nil {
		src = b.Source.Capability
		srcTitle = "SOURCE " + b.Source.Key().String()
	}
	if b != nil {
		eff = b.Effective
	}
	effTitle := "EFFECTIVE"
	if eff == nil {
		effTitle = "EFFECTIVE (none: the binding does not resolve)"
	}
	const labelW = 15
	colW := max(4, (width-labelW-2)/2)
	row := func(label, a, c string, diff bool) string {
		mark := "  "
		if diff {
			mark = "≠ "
		}
		a, c = sanitize.Line(a), sanitize.Line(c)
		return mark + padRight(truncate(label, labelW-2), labelW-2) + padRight(truncate(a, colW-1), colW) + truncate(c, colW)
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
		lines = append(lines, st.Text.Muted.Render(row("", fmt.Sprintf("… %d more line(s)", more), "", false)))
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

// pickerLines lists the library's capabilities to bind.
func (f *bindingsForm) pickerLines(width int) []string {
	st := f.styles
	title := "Bind a capability (enter binds, esc cancels)"
	if f.pickRef {
		title = "Replace the ref of " + f.bindingName(f.row) + " (enter picks, esc cancels)"
	}
	lines := []string{st.Dialog.Title.Render(truncate(title, width)), ""}
	if len(f.picks) == 1 {
		lines = append(lines, st.Pane.Placeholder.Render(truncate("the library has no capabilities (.pi/forge/capabilities or the global forge dir)", width)))
	}
	for i, p := range f.picks {
		style, marker := st.List.Item, "  "
		if !p.allowed {
			style = st.List.Dim
		}
		if i == f.pickRow {
			style, marker = st.List.Selected, "▸ "
		}
		lines = append(lines, style.Render(truncate(marker+p.label, width)))
	}
	return lines
}
