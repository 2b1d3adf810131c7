package forms

import (
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
)

// View shows the rule list and the focused rule's fields: side by side when
// wide, stacked otherwise.
func (f *regexForm) View(width, height int) string {
	st := f.styles
	head := []string{st.Text.Subtle.Render(truncate("Regex rules — applied in order; outgoing rules change model input only", width))}
	for _, d := range f.diags {
		head = append(head, renderDiag(st, d, width, ""))
	}
	bodyH := max(0, height-len(head))
	var list []string
	for i := range f.rules {
		style := st.List.Item
		marker := "  "
		if i == f.row {
			marker = "▸ "
			style = st.List.SelectedBlurred
			if f.pane == 0 {
				style = st.List.Selected
			}
		}
		list = append(list, style.Render(truncate(marker+sanitize.Line(f.ruleSummary(i)), width)))
	}
	if len(f.rules) == 0 {
		list = []string{st.Pane.Placeholder.Render("no regex rules — press a to add one")}
	}
	var detail []string
	detailFocus := 0
	if len(f.rules) > 0 {
		title := "rule " + sanitize.Line(f.ruleID(f.row))
		detail = append(detail, st.Text.Strong.Render(title))
		body, cur := f.detail.render(width, f.pane == 1)
		if len(body) == 0 {
			body = []string{st.Text.Danger.Render("this rule is not an object; delete it or fix it in $EDITOR")}
		}
		detail = append(detail, body...)
		detailFocus = cur + 1
	}
	if width >= 120 && len(f.rules) > 0 {
		listW := min(60, width*2/5)
		detailW := width - listW - 3
		left := frame(list, f.row, listW, bodyH)
		right := f.renderDetail(detail, detailFocus, detailW, bodyH)
		lines := head
		ls, rs := strings.Split(left, "\n"), strings.Split(right, "\n")
		for i := 0; i < bodyH; i++ {
			lines = append(lines, ls[i]+st.Text.Muted.Render(" │ ")+rs[i])
		}
		return frame(lines, 0, width, height)
	}
	listH := min(len(list), max(3, bodyH/3))
	lines := append(head, strings.Split(frame(list, f.row, width, listH), "\n")...)
	lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", width)))
	detailH := max(0, height-len(lines))
	if detailH > 0 {
		lines = append(lines, strings.Split(f.renderDetail(detail, detailFocus, width, detailH), "\n")...)
	}
	return frame(lines, 0, width, height)
}

// renderDetail re-renders the detail at its own width (fields wrap their
// editor to it) and frames it.
func (f *regexForm) renderDetail(detail []string, focus, width, height int) string {
	if len(f.rules) > 0 && len(f.detail.fields) > 0 {
		body, cur := f.detail.render(width, f.pane == 1)
		detail = append(detail[:1], body...)
		focus = cur + 1
	}
	return frame(detail, focus, width, height)
}
