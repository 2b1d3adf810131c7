package payloads

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/common"
)

// What y, v and o act on in the Payloads panel (docs/KEYS.md): the
// selected block, or in the line diff its diff, with the lines above the
// panes whole — which requests, the cause, the recorded cache use — so
// nothing the header cuts is out of reach; in the requests list the
// request under the cursor.

// focusKey answers y, v and o; ok is false for other keys.
func (m *Model) focusKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	return m.com.AnswerFocusKey(common.PanelPayloads, msg, m.focusedThing, m.setStatus)
}

// focusedThing is the thing under the focus, whole, with the status line as
// its note.
func (m *Model) focusedThing() (common.Whole, bool) {
	w, ok := m.focusedWhole()
	w.Note = m.status
	return w, ok
}

func (m *Model) focusedWhole() (common.Whole, bool) {
	switch m.mode {
	case modeBreaks:
		return m.brk.whole()
	case modeRequests:
		return m.reqs.whole()
	}
	return m.view.Whole(m.headerText())
}

// headerText is the header's lines whole, without styling, and without
// the status message that may stand in for the cause or the cache line
// (the overlay shows it as the note).
func (m *Model) headerText() string {
	lines := m.pairView.header(&m.com.Styles, "", false, m.pending)
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l = strings.TrimRight(ansi.Strip(l), " "); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
