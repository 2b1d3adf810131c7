package presets

import (
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
)

// Unsaved implements common.Guard: the root asks before quitting while
// the draft has unsaved changes (typing in a block edits the draft) or a
// form field holds text not yet committed.
func (m *Model) Unsaved() (what string, dirty bool) {
	switch {
	case m.d != nil && m.d.Dirty():
		name := m.d.ID()
		if m.open != nil {
			name = m.open.Key()
		}
		return i18n.T("the unsaved changes to %s", sanitize.Line(name)), true
	case m.focus == paneEditor && m.form != nil && m.form.CapturesInput():
		return i18n.T("the field being edited in %s", sanitize.Line(m.form.Title())), true
	case m.prof != nil && m.prof.dirty():
		return i18n.T("the unsaved changes to profile %s", sanitize.Line(m.prof.p.Key())), true
	}
	return "", false
}
