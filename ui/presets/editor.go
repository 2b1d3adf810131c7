package presets

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
)

// editorDoneMsg carries the text $EDITOR left in the temporary file.
type editorDoneMsg struct {
	// version is the draft version the hand-off started from; item is the
	// block's index then and id its id, so a changed draft is detected.
	version int
	item    int
	id      string
	// raw is set for the whole Preset as JSON (the Advanced view).
	raw     bool
	content string
	err     error
}

// startEditing focuses the inline editor on the block under the cursor.
func (m *Model) startEditing() tea.Cmd {
	content, ok := m.blockContent(m.items.Cursor())
	if !ok {
		return nil
	}
	if sanitize.HasControl(content) {
		m.setStatus(i18n.T("this block holds escape or control characters the inline editor would drop; %s edits it in $EDITOR",
			m.keys.Edit.Help().Key), true)
		return nil
	}
	if strings.Contains(content, tabMark) {
		m.setStatus(i18n.T("this block holds %s, which the inline editor shows tabs with; %s edits it in $EDITOR",
			tabMark, m.keys.Edit.Help().Key), true)
		return nil
	}
	m.syncEditor()
	m.editing = true
	m.focus = paneEditor
	m.styleEditor()
	return m.ta.Focus()
}

// editorJob is a block handed to $EDITOR: its text and where it came from.
type editorJob struct {
	content string
	version int
	item    int
	id      string
	raw     bool
}

// editorJobAt describes block item i for a hand-off.
func (m *Model) editorJobAt(i int) (editorJob, error) {
	content, ok := m.blockContent(i)
	if !ok {
		return editorJob{}, errors.New(i18n.T("%s is not a block: %s hands only a block's text to $EDITOR", m.rowName(i), m.keys.Edit.Help().Key))
	}
	it, _, _ := m.d.Item(i)
	return editorJob{content: content, version: m.d.Version(), item: i, id: it.ID}, nil
}

// pattern names the temporary file of a hand-off: markdown for a
// block, JSON for a whole Preset or profile.
func (job editorJob) pattern() string {
	if job.raw {
		return "forgebench-preset-*.json"
	}
	return "forgebench-block-*.md"
}

// handOff hands job's text to the external editor (common.ExternalEditor);
// its reply comes back as an editorDoneMsg.
func (m *Model) handOff(job editorJob) tea.Cmd {
	return m.com.ExternalEditor().Edit(job.content, job.pattern(), func(text string, err error) tea.Msg {
		return editorDoneMsg{version: job.version, item: job.item, id: job.id, raw: job.raw, content: text, err: err}
	})
}

// openExternalEditor hands the terminal to $EDITOR for the block under
// the cursor (or the raw JSON being edited).
func (m *Model) openExternalEditor() tea.Cmd {
	m.stopEditing()
	job, err := m.editorJobAt(m.items.Cursor())
	if raw, ok := m.form.(interface{ Text() string }); ok && m.formKind == formRaw {
		job, err = editorJob{content: raw.Text(), version: m.d.Version(), raw: true}, nil
	}
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	return m.handOff(job)
}

// applyEditorDone puts the edited text into the draft. A trailing newline
// that editors add is dropped when the original had none.
func (m *Model) applyEditorDone(msg editorDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.setStatus(msg.err.Error(), true)
		return nil
	}
	if m.d == nil {
		return nil
	}
	if msg.raw {
		return m.applyRawEdited(msg.content)
	}
	i := msg.item
	if it, _, ok := m.d.Item(i); !ok || it.ID != msg.id {
		i = m.d.IndexOf(msg.id)
	}
	old, ok := m.blockContent(i)
	if !ok {
		m.setStatus(i18n.T("the block %s is gone; the editor's text was not applied", msg.id), true)
		return nil
	}
	text := msg.content
	if !strings.HasSuffix(old, "\n") {
		text = strings.TrimSuffix(text, "\n")
	}
	if text == old {
		m.setStatus(i18n.T("no change from $EDITOR"), false)
		return nil
	}
	if err := m.d.SetBlockText(i, text, "$EDITOR "+msg.id, false); err != nil { //i18n:raw the edit's label: the editor's name and the block id
		m.setStatus(err.Error(), true)
		return nil
	}
	m.setStatus(i18n.T("block %s updated from $EDITOR", msg.id), false)
	return m.edited(m.items.Cursor(), nil)
}
