package presets

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/i18n"
)

// undo restores the draft before the last edit; the cursor follows the
// item it was on (an undone move puts it back where it came from).
func (m *Model) undo() tea.Cmd {
	return m.travel(func(label string) string { return i18n.T("undid %s", label) }, i18n.T("nothing to undo"), m.d.Undo)
}

// redo re-applies the last undone edit, the cursor following its item.
func (m *Model) redo() tea.Cmd {
	return m.travel(func(label string) string { return i18n.T("redid %s", label) }, i18n.T("nothing to redo"), m.d.Redo)
}

// travel moves through the draft's history with step and keeps the item
// cursor on the same item (by id) when it still exists.
func (m *Model) travel(done func(label string) string, none string, step func() (string, bool)) tea.Cmd {
	m.stopEditing()
	cur := m.items.Cursor()
	id := ""
	if it, _, ok := m.d.Item(cur); ok {
		id = it.ID
	}
	label, ok := step()
	if !ok {
		m.setStatus(none, false)
		return nil
	}
	if i := m.d.IndexOf(id); id != "" && i >= 0 {
		cur = i
	} else if cur >= m.d.Len() && id != "" {
		cur = max(0, m.d.Len()-1)
	}
	m.setStatus(done(label), false)

	return m.edited(cur, nil)
}
