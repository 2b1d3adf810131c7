package forms

import (
	"strings"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// View shows the rule list and the focused rule's fields: side by side when
// wide, stacked otherwise.
func (f *regexForm) View(width, height int) string {
	st := f.styles
	head := heading(st, i18n.T("Regex rules — applied in order; outgoing rules change model input only"), f.diags, width)
	bodyH := max(0, height-len(head))
	if len(f.rules) == 0 {
		return common.Fit(append(head, st.Pane.Placeholder.Render(i18n.T("no regex rules — press a to add one")),
			st.Text.Muted.Render(strings.Repeat("─", width))), width, height)
	}
	if width >= 120 {
		listW := min(60, width*2/5)
		detailW := width - listW - 3
		left := strings.Split(common.Fit(f.list.View(st, listW, bodyH, f.pane == 0), listW, bodyH), "\n")
		right := strings.Split(common.Fit(f.detailLines(detailW, bodyH), detailW, bodyH), "\n")
		lines := head
		for i := 0; i < bodyH; i++ {
			lines = append(lines, left[i]+st.Text.Muted.Render(" │ ")+right[i])
		}
		return common.Fit(lines, width, height)
	}
	listH := min(f.list.Len(), max(3, bodyH/3))
	lines := append(head, f.list.View(st, width, listH, f.pane == 0)...)
	lines = append(lines, st.Text.Muted.Render(strings.Repeat("─", width)))
	lines = append(lines, f.detailLines(width, max(0, height-len(lines)))...)
	return common.Fit(lines, width, height)
}

// SetSize implements Form: the focused rule's fields are laid out for
// their column (beside the list from 120 cells on).
func (f *regexForm) SetSize(width, _ int) {
	if width >= 120 {
		f.setDetailWidth(width - min(60, width*2/5) - 3)
		return
	}
	f.setDetailWidth(width)
}

// detailLines are the focused rule's title and fields in height lines.
func (f *regexForm) detailLines(width, height int) []string {
	st := f.styles
	lines := []string{st.Text.Strong.Render(i18n.T("rule %s", sanitize.Line(f.ruleID(f.row()))))}
	if len(f.detail.fields) == 0 {
		return append(lines, st.Text.Danger.Render(i18n.T("this rule is not an object; delete it or fix it in $EDITOR")))
	}
	return append(lines, f.detail.view(width, max(0, height-1), f.pane == 1)...)
}
