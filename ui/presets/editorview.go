package presets

import (
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/ui/common"
)

// editorView is the editor pane: the inline block editor or the form of
// the row under the item cursor, the conflict explanation when a save was
// refused, and the diagnostics of the item.
func (m *Model) editorView(r rect) string {
	focused := m.focus == paneEditor
	if m.d == nil {
		return m.frame(r, "Editor", "", focused, nil)
	}
	head, tail, inner, bodyH := m.editorLayout(r)
	title, info, body := m.editorBody(inner, bodyH)
	lines := append(append(head, body...), tail...)
	return m.frame(r, title, info, focused, lines)
}

// editorLayout lays out the editor pane in r (a draft open): the lines
// above its body (what keeps the file from being saved), the lines below
// (the row's diagnostics, at most half the pane), and the body's width
// and height, which View draws the form in and sizeForms gives it.
func (m *Model) editorLayout(r rect) (head, tail []string, inner, bodyH int) {
	st := m.com.Styles
	inner, innerH := max(0, r.w-4), max(0, r.h-2)
	if m.unparsed {
		for _, l := range common.Wrap(sanitize.Text(m.unparsedText()), inner) {
			head = append(head, st.Text.Danger.Render(l))
		}
		for _, d := range m.open.Diagnostics {
			if d.Level == preset.LevelError {
				head = append(head, wrapDiags(&m.com.Styles, []preset.Diagnostic{{Level: d.Level, Message: d.Message}}, "", inner)...)
			}
		}
		head = append(head, "")
	}
	if banner := m.conflictBanner(); banner != "" {
		for _, l := range common.Wrap(banner, inner) {
			head = append(head, st.Text.Danger.Render(l))
		}
		head = append(head, "")
	}
	cur := m.items.Cursor()
	if it, _, ok := m.d.Item(cur); ok {
		if ds := m.itemDiagnostics(it.ID); len(ds) > 0 {
			tail = append(tail, "")
			if where := m.templateErrorAt(cur, ds); where != "" {
				tail = append(tail, st.Text.Danger.Render(where))
			}
			tail = append(tail, wrapDiags(&m.com.Styles, ds, "", inner)...)
		}
	} else {
		if ds := m.itemDiagnostics(""); len(ds) > 0 {
			tail = append(tail, "", st.Text.Subtle.Render("Preset diagnostics"))
			tail = append(tail, wrapDiags(&m.com.Styles, ds, "", inner)...)
		}
	}
	tail = tail[:min(len(tail), max(0, innerH/2))]
	return head, tail, inner, max(0, innerH-len(head)-len(tail))
}

// layoutParts lays out what View draws at the size it draws it:
// the forms (forms.Form.SetSize; the draft's form in the editor pane's
// body, the profile's above its status card), the block editor, the
// scroll of the block being read, and the input of a prompt. Update calls
// it after every message and SetSize after a resize, so View only draws.
func (m *Model) layoutParts() {
	if m.width <= 0 || m.height <= 0 {
		return
	}
	l := m.layout()
	if m.d != nil {
		_, _, inner, bodyH := m.editorLayout(l.editor)
		if m.form != nil {
			m.form.SetSize(inner, bodyH)
		}
		if !m.showProfile && m.diff == nil {
			m.layoutBlock(inner, bodyH)
			m.previewDock.layout(l.preview)
		}
	}
	if m.profForm != nil {
		m.profForm.SetSize(m.profileFormSize(l.editor))
	}
	m.layoutDialog()
}

// layoutBlock sizes the block editor, or clamps the scroll of the block
// being read, in the editor body (width×height) when editorBody shows a
// block.
func (m *Model) layoutBlock(width, height int) {
	cur := m.items.Cursor()
	if m.form != nil && m.formKind == formItem && m.formRow == cur {
		return // the item's properties are shown
	}
	content, ok := m.blockContent(cur)
	switch {
	case !ok:
	case m.editing:
		m.ta.SetWidth(width)
		m.ta.SetHeight(max(1, height))
	case content != "":
		lines := m.wrappedBlock(cur, content, width)
		m.blockScroll = blockScroll{d: m.d, item: cur, off: clampBlockOffset(m.blockOffset(), len(lines), height)}
	}
}

// clampBlockOffset keeps the scroll of a block of n lines, height on
// screen, within it.
func clampBlockOffset(off, n, height int) int { return min(off, max(0, n-height)) }

// editorBody renders the editor's main part: title, info and lines.
func (m *Model) editorBody(width, height int) (string, string, []string) {
	st := m.com.Styles
	cur := m.items.Cursor()
	it, _, isItem := m.d.Item(cur)
	if m.form != nil && m.formKind == formItem && m.formRow == cur {
		return m.form.Title(), keyNotes(keyNote{m.keys.Back, "back"}), strings.Split(m.form.View(width, height), "\n")
	}
	if content, ok := m.blockContent(cur); ok {
		title := "Block · " + itemLabel(it)
		if m.editing { // sized by layoutParts
			return title + " (editing)", keyNotes(keyNote{m.keys.Back, "done"}, keyNote{m.keys.Save, "save"}), strings.Split(m.ta.View(), "\n")
		}
		notes := keyNotes(keyNote{m.keys.Open, "edit"}, keyNote{m.keys.Edit, "$EDITOR"})
		if content == "" {
			return title, notes, []string{st.Pane.Placeholder.Render("(empty block — " + m.keys.Open.Help().Key + " types, " +
				m.keys.Edit.Help().Key + " opens $EDITOR)")}
		}
		// The wheel scrolls a block longer than the pane (blockScroll,
		// clamped by layoutParts).
		lines := m.wrappedBlock(cur, content, width)
		off := clampBlockOffset(m.blockOffset(), len(lines), height)
		return title, notes, lines[off:min(len(lines), off+height)]
	}
	if m.form != nil && m.formRow == cur {
		return m.form.Title(), "", strings.Split(m.form.View(width, height), "\n")
	}
	if isItem && it.Kind != preset.KindSlot {
		// Only an item that is not a JSON object is neither a block nor a slot.
		return "Item · " + itemLabel(it), "", common.Wrap("this item is not a JSON object, so pi-forge skips it: delete it ("+
			m.keys.Delete.Help().Key+") or fix the file", width)
	}
	if isItem {
		// A slot whose form is not open yet: its options as JSON.
		title := "Slot · " + itemLabel(it)
		text := "(no options)"
		if it.Options != nil {
			text = jsonv.StringifyIndent(it.Options, "  ")
		}
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			lines = append(lines, common.Wrap(l, width)...)
		}
		return title, "enter edit options", lines
	}
	return "Editor", "", nil
}

// templateErrorAt locates the forge-v1 error of block i ("" when the
// block parses or the item has no error): line and column of its span.
func (m *Model) templateErrorAt(i int, ds []preset.Diagnostic) string {
	hasErr := false
	for _, d := range ds {
		hasErr = hasErr || d.Level == preset.LevelError
	}
	content, ok := m.blockContent(i)
	if !hasErr || !ok {
		return ""
	}
	_, perr := forgev1.Parse(content)
	if perr == nil || perr.Span == nil {
		return ""
	}
	line, col := lineCol(content, perr.Span.Start)
	return fmt.Sprintf("template error at line %d, column %d: %s", line, col, sanitize.Line(perr.Message))
}

// lineCol converts a UTF-16 offset into a 1-based line and column.
func lineCol(text string, offset int) (int, int) {
	line, col, units := 1, 1, 0
	for _, r := range text {
		if units >= offset {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return line, col
}

// conflictBanner is the line over the editor while the open file no
// longer matches the draft ("" when it does).
func (m *Model) conflictBanner() string {
	switch m.conflict {
	case conflictOnSave:
		return "Save refused: " + conflictText
	case conflictOnDisk:
		return "Changed on disk: " + m.diskChangeText()
	}
	return ""
}
