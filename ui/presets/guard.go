package presets

import "github.com/forgebench/forgebench/engine/sanitize"

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
		return "the unsaved changes to " + sanitize.Line(name), true
	case m.focus == paneEditor && m.form != nil && m.form.CapturesInput():
		return "the field being edited in " + sanitize.Line(m.form.Title()), true
	case m.prof != nil && m.prof.dirty():
		return "the unsaved changes to profile " + sanitize.Line(m.prof.p.Key()), true
	}
	return "", false
}
