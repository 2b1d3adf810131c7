package sessions

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/components/transcript"
)

// detailKey identifies one rendering of an entry: the same entry at
// another width, with tools expanded or thinking shown, or in another
// theme is another rendering.
type detailKey struct {
	gen      int
	idx      int
	width    int
	expanded bool
	thinking bool
	palette  string
}

// detailMsg delivers one rendered entry.
type detailMsg struct {
	key   detailKey
	lines []string
}

// detailCmd renders entry idx of ls with the transcript component in a
// command (it decodes the entry and runs glamour).
func (m *Model) detailCmd(ls *loadedSession, idx int, key detailKey) tea.Cmd {
	st := m.com.Styles
	r := transcript.Renderer{Styles: &st, Markdown: m.com.Markdown()}
	h := transcript.Header{Label: ls.labels[idx]}
	o := transcript.Options{Width: key.width, Expanded: key.expanded, Thinking: key.thinking,
		ExpandKey: m.keys.Expand.Help().Key, ThinkingKey: m.keys.Thinking.Help().Key}
	return func() tea.Msg {
		if idx < 0 || idx >= len(ls.sess.Entries) {
			return detailMsg{key: key}
		}
		return detailMsg{key: key, lines: r.Entry(&ls.sess.Entries[idx], h, o)}
	}
}

// warmMarkdownCmd builds the glamour renderer for the detail's width and
// theme off the UI goroutine (after a resize or a theme switch), so the
// first entry shown does not pay for it.
func (m *Model) warmMarkdownCmd() tea.Cmd {
	_, width := m.detailSize()
	if width <= 0 {
		return nil
	}
	st, md := m.com.Styles, m.com.Markdown()
	return func() tea.Msg {
		md.Warm(&st, max(10, width))
		return nil
	}
}
