package presets

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
)

// copyText is what y copies (OSC 52) where the focus is: in the preview,
// the whole compiled system prompt; on an item, what that item compiled to
// in the preview (its system prompt part, or its messages), else its own
// text. what names it for the status line.
func (m *Model) copyText() (text, what string) {
	if m.d == nil {
		return "", ""
	}
	if m.focus == panePreview {
		if m.preview == nil {
			return "", ""
		}
		return m.preview.res.Result.System.SystemPrompt, "the compiled system prompt"
	}
	it, _, ok := m.d.Item(m.items.Cursor())
	if !ok {
		return "", ""
	}
	if m.preview != nil {
		var parts []string
		for _, p := range m.preview.res.System {
			if p.ItemID == it.ID {
				parts = append(parts, p.Text)
			}
		}
		for _, p := range m.preview.res.Messages {
			if p.ItemID == it.ID {
				parts = append(parts, p.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n\n"), "what " + itemLabel(it) + " compiles to"
		}
	}
	if content, ok := m.blockContent(m.items.Cursor()); ok {
		return content, "the text of " + itemLabel(it)
	}
	if it.Options != nil {
		return jsonv.StringifyIndent(it.Options, "  "), "the options of " + itemLabel(it)
	}
	return "", ""
}

// copySelection puts copyText on the terminal's clipboard.
func (m *Model) copySelection() tea.Cmd {
	text, what := m.copyText()
	if what == "" {
		m.setStatus("nothing to copy here", false)
		return nil
	}
	m.setStatus(fmt.Sprintf("copied %s (%d chars) to the clipboard", what, len([]rune(text))), false)
	return tea.SetClipboard(text)
}
