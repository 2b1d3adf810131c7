package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// helpView composes the focused panel's keys with the global keys, as
// generated from the keymap, in a dialog box no taller than the body. Columns
// that do not fit side by side wrap onto further rows instead of being cut.
func (m *Model) helpView(height int) string {
	st := m.com.Styles
	lines := m.helpLines()
	title := st.Dialog.Title.Render(i18n.T("Keys — %s", m.panels[m.active].Title()))
	hint := i18n.T("esc or ? closes")
	room := helpRoom(height)
	if len(lines) > room {
		off := clampHelpOffset(m.helpOffset, len(lines), room) // Update keeps it clamped
		hint = i18n.T("%s %s scroll (%d–%d of %d) · %s", m.keys.Up.Help().Key, m.keys.Down.Help().Key,
			off+1, off+room, len(lines), hint)
		lines = lines[off : off+room]
	}
	return st.Dialog.Box.MaxWidth(m.width).MaxHeight(height).
		Render(title + "\n\n" + strings.Join(lines, "\n") + "\n\n" + st.Text.Muted.Render(hint))
}

// helpLines lays out the help's key list: the active panel's groups and
// the global ones, packed into rows that fit the width.
func (m *Model) helpLines() []string {
	groups := withoutRepeats(m.panels[m.active].FullHelp(), m.keys.FullHelp())
	for i, g := range groups {
		groups[i] = common.Localized(g)
	}
	h := m.help
	avail := max(10, m.width-6)
	h.SetWidth(0) // measure unclipped; rows are packed to fit below
	const gap = 4
	var rows []string
	var row [][]key.Binding
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			rows = append(rows, h.FullHelpView(row))
			row, rowW = nil, 0
		}
	}
	for _, g := range groups {
		w := lipgloss.Width(h.FullHelpView([][]key.Binding{g}))
		if len(row) > 0 && rowW+gap+w > avail {
			flush()
		}
		if len(row) > 0 {
			rowW += gap
		}
		row, rowW = append(row, g), rowW+w
	}
	flush()
	return strings.Split(strings.Join(rows, "\n\n"), "\n")
}

// helpRoom is how many lines of the key list the help shows in a body of
// height lines: the box holds its border (2), the title and a blank line,
// the key list, and a blank line and the hint; a taller list scrolls.
func helpRoom(height int) int { return max(1, height-6) }

// clampHelpOffset keeps a scroll of a list of n lines, room on screen,
// within it.
func clampHelpOffset(off, n, room int) int { return max(0, min(off, n-room)) }

// clampHelp keeps the help's scroll within its key list; Update calls it
// after a scroll key and a resize, so View only reads the offset.
func (m *Model) clampHelp() {
	if !m.showHelp {
		return
	}
	m.helpOffset = clampHelpOffset(m.helpOffset, len(m.helpLines()), helpRoom(max(0, m.height-chromeHeight)))
}

// withoutRepeats appends the global groups to the panel's, leaving out a
// global binding the panel already lists with the same key and meaning
// (both have "esc back"), so the overlay never shows a key twice.
func withoutRepeats(panel, global [][]key.Binding) [][]key.Binding {
	seen := map[string]bool{}
	for _, g := range panel {
		for _, b := range g {
			seen[b.Help().Key+"\x00"+b.Help().Desc] = true
		}
	}
	out := append([][]key.Binding{}, panel...)
	for _, g := range global {
		var kept []key.Binding
		for _, b := range g {
			if !seen[b.Help().Key+"\x00"+b.Help().Desc] {
				kept = append(kept, b)
			}
		}
		if len(kept) > 0 {
			out = append(out, kept)
		}
	}
	return out
}
