package sessions

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/transcript"
)

// What y, v and o act on in the Session panel (docs/KEYS.md): the session
// under the picker's cursor; the entry under the cursor in the tree, the
// timeline and the detail; in the detail's other modes what it shows —
// the request in the Context view (as y and Y copy it), the stats, the
// skipped lines.

// unlimited is the width the stats and skipped views are laid out at for
// their whole text: wide enough that no line is cut.
const unlimited = 1 << 16

// focusKey answers y, v and o for the focused pane; ok is false for other
// keys.
func (m *Model) focusKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	from := m.focus
	cmd, note, ok := m.com.FocusKey(msg, m.focusedThing, func(note string, err error) tea.Msg {
		return copiedMsg{pane: from, note: note, err: err}
	})
	if note != "" {
		return m.setStatus(from, note, false), ok
	}
	return cmd, ok
}

// focusedThing is the thing under the focus, whole, with the focused
// pane's status (cut in its border) as its note.
func (m *Model) focusedThing() (common.Whole, bool) {
	w, ok := m.focusedWhole()
	w.Note = m.status[m.focus].Text()
	return w, ok
}

func (m *Model) focusedWhole() (common.Whole, bool) {
	switch {
	case m.focus == panePicker:
		return m.pickerWhole()
	case m.focus == paneDetail && m.mode == modeSpend:
		if m.spend.value == nil {
			return common.Whole{}, false
		}
		return common.Whole{Title: i18n.T("the cost of the listed sessions"), Text: plainLines(renderSpend(m.spend.value, wholeChartWidth(m.width), m.com.Styles))}, true
	case m.ls == nil:
		return common.Whole{}, false
	case m.focus == paneDetail && m.mode == modeStats:
		if m.stats.pending || m.stats.session == nil {
			return common.Whole{}, false
		}
		return common.Whole{Title: i18n.T("the stats of %s", m.ls.title), Text: plainLines(renderStats(m.stats, m.ls, unlimited, wholeChartWidth(m.width), statsChartRows(unlimited), m.com.Styles))}, true
	case m.focus == paneDetail && m.mode == modeSkipped:
		return common.Whole{Title: i18n.T("the skipped lines of %s", m.ls.title), Text: plainLines(m.skippedLines(unlimited))}, true
	case m.mode == modeContext && m.focus == paneDetail:
		return m.contextWhole()
	case m.focus == paneDetail && m.mode == modeCompare:
		if res := m.views.compare.result; res != nil {
			return common.Whole{Title: i18n.T("the comparison of %s and %s", res.a.entry, res.b.entry), Text: plainLines(renderCompare(res, wholeChartWidth(m.width), m.keys.Open.Help().Key, m.com.Styles))}, true
		}
		return common.Whole{}, false
	case m.focus == paneDetail && m.mode == modeComposition:
		if res := m.views.composition.shown; res != nil {
			return common.Whole{Title: i18n.T("the composition at %s", res.entry), Text: plainLines(renderComposition(res, wholeChartWidth(m.width), m.com.Styles))}, true
		}
		return common.Whole{}, false
	}
	return m.entryWhole(m.currentEntry())
}

// entryWhole is entry idx as y copies it: a message's text (tool output
// for tool results), otherwise the entry's JSON line; decoded in the
// command.
func (m *Model) entryWhole(idx int) (common.Whole, bool) {
	if m.ls == nil || idx < 0 || idx >= len(m.ls.rows) {
		return common.Whole{}, false
	}
	ls := m.ls
	return common.Whole{Title: i18n.T("entry %s", ls.entryID(idx)), Load: func() (string, error) {
		return transcript.Text(&ls.sess.Entries[idx]), nil
	}}, true
}

// contextWhole is the request the Context view shows — as sent, or Pi's
// context — as the JSON y and Y copy (copyResult); stringified in the
// command.
func (m *Model) contextWhole() (common.Whole, bool) {
	res := m.sent.shown
	if res == nil || res.err != nil {
		return common.Whole{}, false
	}
	side := res.side(m.sent.pi)
	if side == nil {
		return common.Whole{}, false
	}
	what := i18n.T("the request as sent at %s", res.entry)
	if m.sent.pi && !res.same {
		what = i18n.T("Pi's context at %s", res.entry)
	}
	payload := side.payload
	return common.Whole{Title: what, Load: func() (string, error) {
		return jsonv.StringifyIndent(payload, "  "), nil
	}}, true
}

// pickerWhole is the session under the picker's cursor: what its row
// shows, whole, with the file and the header's fields.
func (m *Model) pickerWhole() (common.Whole, bool) {
	path := m.picker.currentPath()
	for _, it := range m.picker.raw {
		if it.Path != path {
			continue
		}
		var b strings.Builder
		line := func(k, v string) {
			if v != "" {
				b.WriteString(common.PadCell(i18n.T(k), 14) + " " + v + "\n")
			}
		}
		line(i18n.Mark("session"), it.Title())
		line(i18n.Mark("file"), it.Path)
		line(i18n.Mark("id"), it.ID)
		line(i18n.Mark("cwd"), it.Cwd)
		line(i18n.Mark("created"), it.Created)
		line(i18n.Mark("parent"), it.ParentSession)
		if !it.LastActivity.IsZero() {
			line(i18n.Mark("last activity"), it.LastActivity.Local().Format("2006-01-02 15:04:05"))
		}
		count := fmt.Sprint(it.MessageCount)
		if !it.MessageCountExact {
			count = "~" + count
		}
		line(i18n.Mark("messages"), count)
		line(i18n.Mark("first message"), it.FirstMessage)
		line(i18n.Mark("problem"), it.Problem)
		return common.Whole{Title: i18n.T("session %s", it.Title()), Text: b.String()}, true
	}
	return common.Whole{}, false
}

// plainLines joins rendered lines without their styling.
func plainLines(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(out, "\n")
}
