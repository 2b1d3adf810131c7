package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// mousePanes are the panes View draws at the current size and focus (the
// panel's own coordinates; the status line below them takes no clicks),
// with what the wheel and a click do in each (common.RouteMouse): the
// Preset list scrolls and selects (a click on the selected Preset opens
// it, as enter does), the item list scrolls and selects (a click on the
// selected item edits it), the editor scrolls the block or moves the
// form's cursor, the preview dock scrolls. The profiles view has its list
// and the profile's detail; the draft diff has the shared diff view's
// panes under its two header lines.
func (m *Model) mousePanes() []common.MousePane {
	if m.diff != nil {
		return m.diff.view.MousePanes(0, draftDiffHeader)
	}
	l := m.layout()
	if m.showProfile {
		return m.profileMousePanes(l)
	}
	var at [paneCount]common.Rect
	if l.wide {
		at[paneList] = common.Rect{W: l.list.w, H: l.list.h}
		at[paneItems] = common.Rect{X: l.list.w, W: l.items.w, H: l.items.h}
		at[paneEditor] = common.Rect{X: l.list.w + l.items.w, W: l.editor.w, H: l.editor.h}
	} else { // the list above the items, the editor beside them
		at[paneList] = common.Rect{W: l.list.w, H: l.list.h}
		at[paneItems] = common.Rect{Y: l.list.h, W: l.items.w, H: l.items.h}
		at[paneEditor] = common.Rect{X: l.list.w, W: l.editor.w, H: l.editor.h}
	}
	at[panePreview] = common.Rect{X: at[paneEditor].X, Y: l.editor.h, W: l.preview.w, H: l.preview.h}
	focus := func(p pane) func() {
		return func() {
			if m.paneVisible(p) {
				m.focus = p
			}
		}
	}
	list := common.MousePane{Rect: at[paneList], Focus: focus(paneList)}
	if m.lib != nil && m.presets.Total() > 0 {
		list.List, list.Activate = m.presets, m.openSelectedPreset
	}
	items := common.MousePane{Rect: at[paneItems], Focus: focus(paneItems)}
	// Not while text is typed: the editor or the form holds the item under
	// the cursor, which the keys cannot move then either.
	if m.d != nil && !m.CapturesInput() {
		items.List, items.Activate = m.items, m.activateItem
		items.Moved = func() tea.Cmd { m.afterItemMove(); return nil }
	}
	editor := common.MousePane{Rect: at[paneEditor], Focus: focus(paneEditor), Scroll: m.scrollEditor}
	preview := common.MousePane{Rect: at[panePreview], Focus: focus(panePreview),
		Scroll: func(delta int) tea.Cmd {
			m.dock().Scroll(delta)
			return nil
		}}
	return []common.MousePane{list, items, editor, preview}
}

// profileMousePanes are the profiles view's panes: the list scrolls and
// selects (a click on the selected profile opens its Preset, as enter
// does); a click on the detail gives the profile's form the keys when it
// is open, and the wheel there moves the form's cursor.
func (m *Model) profileMousePanes(l layout) []common.MousePane {
	list := common.MousePane{Rect: common.Rect{W: l.list.w, H: l.list.h}, Focus: func() { m.profFocus = false }}
	if m.lib != nil && m.profiles.Total() > 0 && !m.CapturesInput() { // the form holds the profile
		list.List, list.Activate = m.profiles, func() tea.Cmd { return m.run(m.profilesView.openProfilePreset()) }
		list.Moved = func() tea.Cmd { m.syncProfileForm(); return nil }
	}
	detail := common.MousePane{Rect: common.Rect{X: l.list.w, W: l.editor.w, H: l.editor.h},
		Focus: func() { m.profFocus = m.profForm != nil },
		Scroll: func(delta int) tea.Cmd {
			if m.profForm == nil || m.profForm.CapturesInput() {
				return nil
			}
			var cmd tea.Cmd
			m.profForm, cmd = m.formCursorBy(m.profForm, delta)
			return cmd
		}}
	return []common.MousePane{list, detail}
}

// handleMouse routes the wheel and clicks (common.RouteMouse); nothing
// while a dialog is open, and no click while a text input (the block
// editor, a form field, the list filter) has the keyboard.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if m.dialogs.Open() {
		return nil
	}
	if _, click := msg.(tea.MouseClickMsg); click && m.CapturesInput() {
		return nil
	}
	return common.RouteMouse(msg, m.mousePanes()...)
}

// scrollEditor is the wheel over the editor pane: the block being typed
// moves its cursor by lines, a form moves its cursor by rows (not while a
// field takes text), a block being read scrolls.
func (m *Model) scrollEditor(delta int) tea.Cmd {
	switch {
	case m.d == nil:
		return nil
	case m.editing:
		var cmds []tea.Cmd
		for range abs(delta) {
			cmds = append(cmds, m.run(m.draftEditor.updateEditor(arrowKey(delta))))
		}
		return tea.Batch(cmds...)
	case m.form != nil && m.formRow == m.items.Cursor():
		if m.form.CapturesInput() {
			return nil
		}
		var cmd tea.Cmd
		m.form, cmd = m.formCursorBy(m.form, delta)
		return cmd
	}
	if _, ok := m.blockContent(m.items.Cursor()); ok {
		m.blockScroll = blockScroll{d: m.d, item: m.items.Cursor(), off: max(0, m.blockOffset()+delta)}
	}
	return nil
}

// formCursorBy moves a form's cursor by |delta| rows with its own up and
// down keys, through the form gate like a typed key.
func (m *Model) formCursorBy(form forms.Form, delta int) (forms.Form, tea.Cmd) {
	var cmds []tea.Cmd
	for range abs(delta) {
		var cmd tea.Cmd
		form, cmd = m.updateForm(form, arrowKey(delta))
		cmds = append(cmds, cmd)
	}
	return form, tea.Batch(cmds...)
}

// arrowKey is the down arrow for a positive delta, else the up arrow.
func arrowKey(delta int) tea.KeyPressMsg {
	if delta > 0 {
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	return tea.KeyPressMsg{Code: tea.KeyUp}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// blockScroll is how far the block being read is scrolled (its wrapped
// lines above the pane), for the block at item index item of draft d
// only: moving the item cursor or opening another Preset shows the next
// block from its top.
type blockScroll struct {
	d         *draft.Draft
	item, off int
}

// blockWrap is the block being read, sanitised and wrapped, kept for
// the frames that follow (the wheel scrolls it): for item at width of
// draft d at version (another Preset opened is another draft, whose
// versions count anew).
type blockWrap struct {
	d                    *draft.Draft
	item, width, version int
	lines                []string
}

// openSelectedPreset opens the Preset under the list's cursor, as enter
// does (asking first when the draft has unsaved changes).
func (m *Model) openSelectedPreset() tea.Cmd {
	if p := m.libraryList.selected(); p != nil {
		return m.run(nil, openPresetIntent{p})
	}
	return nil
}

// activateItem is enter on the item list: type into a block, open the
// form of any other row.
func (m *Model) activateItem() tea.Cmd {
	if _, ok := m.blockContent(m.items.Cursor()); ok {
		return m.startEditing()
	}
	return m.openForm(true)
}
