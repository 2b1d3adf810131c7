package presets

// The draft diff: what the next request would change if the draft were
// saved — pi-forge's draft diff (spec §13.4), the saved Preset's preview
// against the draft's, both compiled at the selected entry with the
// preview's run context — shown with the Payloads panel's block list and
// line diff (ui/components/requestdiff).

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/requestdiff"
)

// draftDiff is the open draft diff (nil on the panel when closed).
type draftDiff struct {
	view    *requestdiff.Model
	pending bool
	title   string
	cause   *turndiff.Cause
	summary turndiff.Summary
}

// draftDiffMsg carries a computed draft diff.
type draftDiffMsg struct {
	diff  turndiff.Diff
	cause *turndiff.Cause
}

// draftDiffCmd compiles the saved and the draft Preset like the preview
// does (capability updates projected) and diffs them.
func draftDiffCmd(saved, draftStack *preset.Stack, rc *runContext) tea.Cmd {
	return func() tea.Msg {
		// Each side under its own tool policy when the run context is a
		// fresh session (runtimeFor), as the preview compiles it.
		rtBefore, baseBefore, _ := rc.runtimeFor(saved)
		rtAfter, baseAfter, _ := rc.runtimeFor(draftStack)
		before := rc.projectCapabilities(compile.Preview(saved, rtBefore, baseBefore, rc.messages, nil))
		after := rc.projectCapabilities(compile.Preview(draftStack, rtAfter, baseAfter, rc.messages, nil))
		_, _, d, cause := turndiff.DraftDiff(saved, draftStack, &before, &after)
		return draftDiffMsg{diff: d, cause: cause}
	}
}

// openDraftDiff starts the draft diff of the open Preset.
func (m *Model) openDraftDiff() tea.Cmd {
	switch {
	case m.d == nil || m.open == nil:
		m.setStatus(i18n.T("open a Preset to diff its draft"), true)
		return nil
	case m.rc == nil:
		m.setStatus(i18n.T("the run context is still loading"), true)
		return nil
	}
	m.stopEditing()
	view := requestdiff.New()
	m.diff = &draftDiff{view: view, pending: true,
		title: i18n.T("Draft diff · %s saved → draft · at %s", sanitize.Line(m.open.Key()), sanitize.Line(m.rcWhere()))}
	m.sizeDraftDiff()
	return draftDiffCmd(m.open.Stack, m.d.Stack(), m.rc)
}

// rcWhere names the point the run context was built at.
func (m *Model) rcWhere() string {
	switch {
	case m.rc.file == "":
		return i18n.T("Pi's defaults (no session selected)")
	case m.rc.entry == "":
		return i18n.T("the session's leaf")
	}
	return i18n.T("entry %s", m.rc.entry)
}

// draftDiffHeader is how many lines the draft diff's title and cause
// take above the diff view.
const draftDiffHeader = 2

func (m *Model) sizeDraftDiff() {
	if m.diff != nil {
		m.diff.view.SetSize(m.width, max(0, m.height-draftDiffHeader))
	}
}

// draftDiffUpdate handles the draft diff's own messages; ok is false for
// others.
func (m *Model) draftDiffUpdate(msg tea.Msg) (tea.Cmd, bool) {
	if m.diff == nil {
		return nil, false
	}
	if dm, isDiff := msg.(draftDiffMsg); isDiff {
		m.diff.pending, m.diff.cause, m.diff.summary = false, dm.cause, dm.diff.Summary
		return m.diff.view.SetDiff(requestdiff.FromTurnDiff(&dm.diff)), true
	}
	if _, isKey := msg.(tea.KeyPressMsg); isKey {
		return nil, false
	}
	handled, cmd := m.diff.view.Update(msg, m.payloadKeys())
	return cmd, handled
}

// draftDiffKey routes a key while the draft diff is open: its panes'
// keys, esc (or D) back to the Preset.
func (m *Model) draftDiffKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.focusKey(msg); ok {
		return cmd
	}
	if handled, cmd := m.diff.view.Update(msg, m.payloadKeys()); handled {
		return cmd
	}
	if key.Matches(msg, m.keys.Back, m.keys.DraftDiff) {
		m.diff = nil
	}
	return nil
}

// payloadKeys are the Payloads panel's keys, which the shared view reads.
func (m *Model) payloadKeys() keymap.Payloads {
	if m.com.Keys != nil {
		return m.com.Keys.Payloads
	}
	return keymap.DefaultPayloads()
}

// draftDiffHelp is the footer while the draft diff is open.
func (m *Model) draftDiffHelp() []key.Binding {
	k := m.payloadKeys()
	return []key.Binding{k.Open, k.NextChange, k.Layout, k.Context, m.com.Keys.View, m.keys.Back}
}

// draftDiffView draws the draft diff over the whole panel: a title, the
// cause of the first change, the two panes.
func (m *Model) draftDiffView() string {
	st := &m.com.Styles
	lines := []string{st.Text.Strong.Render(m.diff.title)}
	switch {
	case m.diff.pending:
		lines = append(lines, st.Text.Muted.Render(i18n.T("compiling the saved Preset and the draft…")))
	case m.diff.cause != nil:
		lines = append(lines, st.Text.Warning.Render(i18n.T("first change: "))+st.Text.Normal.Render(sanitize.Line(m.diff.cause.Detail)))
	case m.diff.summary.ChangedBlocks == 0:
		lines = append(lines, st.Text.Success.Render(i18n.T("the draft compiles to the same request as the saved Preset")))
	default:
		lines = append(lines, "")
	}
	return common.Fit(lines, m.width, draftDiffHeader) + "\n" + m.diff.view.View(st)
}

// focusWantedItem puts the item cursor, and the focus, on the item a jump
// named (see wantItem), once.
func (m *Model) focusWantedItem() {
	if m.wantItem == "" || m.d == nil {
		return
	}
	if i := m.d.IndexOf(m.wantItem); i >= 0 {
		m.items.SetQuery("")
		m.items.SetCursor(i)
		m.focus = paneItems
		m.syncEditor()
	}
	m.wantItem = ""
}
