package presets

import (
	"unicode/utf16"
)

// layoutParts lays out what View draws at the size it draws it:
// the forms (forms.Form.SetSize; the draft's form in the editor pane's
// body, the profile's above its status card), the block editor, the
// scroll of the block being read, and the input of a prompt. Update calls
// it after every message and SetSize after a resize, so View only draws.
func (m *Model) layoutParts() {
	if m.width <= 0 || m.height <= 0 {
		return
	}
	l := m.layout()
	if m.d != nil {
		_, _, inner, bodyH := m.draftEditor.editorLayout(l.editor, m.compiled())
		if m.form != nil {
			m.form.SetSize(inner, bodyH)
		}
		if !m.showProfile && m.diff == nil {
			m.layoutBlock(inner, bodyH)
			m.previewDock.layout(l.preview)
		}
	}
	if m.profForm != nil {
		m.profForm.SetSize(m.profileFormSize(l.editor))
	}
	m.layoutDialog()
}

// clampBlockOffset keeps the scroll of a block of n lines, height on
// screen, within it.
func clampBlockOffset(off, n, height int) int { return min(off, max(0, n-height)) }

// lineCol converts a UTF-16 offset into a 1-based line and column.
func lineCol(text string, offset int) (int, int) {
	line, col, units := 1, 1, 0
	for _, r := range text {
		if units >= offset {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return line, col
}
