package agents

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// What y, v and o act on in the Agents panel (docs/KEYS.md): the selected
// agent's detail, whole (the task, every field and the recent activity
// uncut), or in a transcript the entry at the top of the view.

// unlimited is the width the detail is laid out at for its whole text.
const unlimited = 1 << 16

// focusKey answers y, v and o; ok is false for other keys.
func (m *Model) focusKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	return m.com.AnswerFocusKey(common.PanelAgents, msg, m.focused, m.setStatus)
}

// focused is the thing under the focus, whole, with the status line
// (cut in the border) as its note.
func (m *Model) focused() (common.Whole, bool) {
	w, ok := m.focusedWhole()
	w.Note = m.status
	return w, ok
}

func (m *Model) focusedWhole() (common.Whole, bool) {
	if m.screen == screenTranscript {
		return m.transcriptEntryWhole()
	}
	a := m.selected()
	if a == nil || m.live.tree == nil {
		return common.Whole{}, false
	}
	act, haveAct := m.activity[activityKey(a)]
	lines := m.buildDetail(a, unlimited, true, act, haveAct, m.runtimeText(a))
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return common.Whole{Title: i18n.T("agent %s", sanitize.Fold(a.Path)), Text: strings.Join(out, "\n")}, true
}

// transcriptEntryWhole is the transcript's entry at the top of the view:
// its text as the Session panel copies an entry (decoded in the command).
func (m *Model) transcriptEntryWhole() (common.Whole, bool) {
	at := -1
	for i, s := range m.tr.starts {
		if s <= m.tr.offset {
			at = i
		}
	}
	if at < 0 && len(m.tr.starts) > 0 {
		at = 0 // the view's top is above the first entry (the earlier-page note)
	}
	if at < 0 || at >= len(m.tr.entries) {
		return common.Whole{}, false
	}
	e := m.tr.entries[at]
	return common.Whole{Title: i18n.T("entry %s of %s", sanitize.Fold(e.ID), sanitize.Fold(m.tr.path)), Load: func() (string, error) {
		return transcript.Text(e), nil
	}}, true
}
