package presets

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// The inline block editor (bubbles' textarea) turns every tab it is given
// into four spaces, so pasting a tab, or merely moving the cursor in a
// block that holds one, would rewrite the block. The editor holds tabMark
// in their place instead, which it shows as it is, and the draft gets the
// tabs back: block text keeps its tabs.

// tabMark stands for a tab inside the inline editor.
const tabMark = "⇥"

// toEditor is block text as the inline editor holds it.
func toEditor(s string) string { return strings.ReplaceAll(s, "\t", tabMark) }

// fromEditor is the inline editor's text as block text.
func fromEditor(s string) string { return strings.ReplaceAll(s, tabMark, "\t") }

// pasteIntoEditor types pasted text into the inline editor, its tabs kept
// (shown as tabMark), and says so.
func (m *Model) pasteIntoEditor(msg tea.PasteMsg) tea.Cmd {
	if !strings.Contains(msg.Content, "\t") {
		return m.updateEditor(msg)
	}
	msg.Content = toEditor(msg.Content)
	cmd := m.updateEditor(msg)
	m.setStatus("pasted tabs are kept as tabs (shown as "+tabMark+")", false)
	return cmd
}
