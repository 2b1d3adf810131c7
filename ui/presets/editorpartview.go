package presets

import (
	"strings"

	"github.com/forgebench/forgebench/engine/forgev1"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// The draft editor's views: the item list pane and the editor pane. The
// compile's diagnostics (compiled) are the preview dock's, which the panel
// hands in: a row counts them, and the editor lists them under the item.

// View implements the part: the item list pane and the editor pane of
// layout l, with pane at focused (noPresets: the library has none, which
// the empty item list says).
func (e *draftEditor) View(l layout, at pane, compiled []preset.Diagnostic, noPresets bool) (items, editor string) {
	return e.itemsView(l.items, at == paneItems, noPresets), e.editorView(l.editor, at == paneEditor, compiled)
}

// editorView is the editor pane: the inline block editor or the form of
// the row under the item cursor, the conflict explanation when a save was
// refused, and the diagnostics of the item.
func (e *draftEditor) editorView(r rect, focused bool, compiled []preset.Diagnostic) string {
	if e.d == nil {
		return frame(e.com, r, i18n.T("Editor"), "", focused, nil)
	}
	head, tail, inner, bodyH := e.editorLayout(r, compiled)
	title, info, body := e.editorBody(inner, bodyH)
	lines := append(append(head, body...), tail...)
	return frame(e.com, r, title, info, focused, lines)
}

// editorLayout lays out the editor pane in r (a draft open): the lines
// above its body (what keeps the file from being saved), the lines below
// (the row's diagnostics, at most half the pane), and the body's width
// and height, which View draws the form in and sizeForms gives it.
func (e *draftEditor) editorLayout(r rect, compiled []preset.Diagnostic) (head, tail []string, inner, bodyH int) {
	st := e.com.Styles
	inner, innerH := max(0, r.w-4), max(0, r.h-2)
	// The raw JSON form shows the parse problem itself, and needs the room
	// to fix it.
	if e.unparsed && e.formKind != formRaw {
		for _, l := range common.Wrap(sanitize.Text(e.unparsedText()), inner) {
			head = append(head, st.Text.Danger.Render(l))
		}
		for _, d := range e.open.Diagnostics {
			if d.Level == preset.LevelError {
				head = append(head, wrapDiags(&e.com.Styles, []preset.Diagnostic{{Level: d.Level, Message: d.Message}}, "", inner)...)
			}
		}
		head = append(head, "")
	}
	if banner := e.conflictBanner(); banner != "" {
		for _, l := range common.Wrap(banner, inner) {
			head = append(head, st.Text.Danger.Render(l))
		}
		head = append(head, "")
	}
	cur := e.items.Cursor()
	if it, _, ok := e.d.Item(cur); ok {
		if ds := e.itemDiagnostics(it.ID, compiled); len(ds) > 0 {
			tail = append(tail, "")
			if where := e.templateErrorAt(cur, ds); where != "" {
				tail = append(tail, st.Text.Danger.Render(where))
			}
			tail = append(tail, wrapDiags(&e.com.Styles, ds, "", inner)...)
		}
	} else {
		if ds := e.itemDiagnostics("", compiled); len(ds) > 0 {
			tail = append(tail, "", st.Text.Subtle.Render(i18n.T("Preset diagnostics")))
			tail = append(tail, wrapDiags(&e.com.Styles, ds, "", inner)...)
		}
	}
	tail = tail[:min(len(tail), max(0, innerH/2))]
	return head, tail, inner, max(0, innerH-len(head)-len(tail))
}

// layoutBlock sizes the block editor, or clamps the scroll of the block
// being read, in the editor body (width×height) when editorBody shows a
// block.
func (e *draftEditor) layoutBlock(width, height int) {
	cur := e.items.Cursor()
	if e.form != nil && e.formKind == formItem && e.formRow == cur {
		return // the item's properties are shown
	}
	content, ok := e.blockContent(cur)
	switch {
	case !ok:
	case e.editing:
		e.ta.SetWidth(width)
		e.ta.SetHeight(max(1, height))
	case content != "":
		lines := e.wrappedBlock(cur, content, width)
		e.blockScroll = blockScroll{d: e.d, item: cur, off: clampBlockOffset(e.blockOffset(), len(lines), height)}
	}
}

// editorBody renders the editor's main part: title, info and lines.
func (e *draftEditor) editorBody(width, height int) (string, string, []string) {
	st := e.com.Styles
	cur := e.items.Cursor()
	it, _, isItem := e.d.Item(cur)
	if e.form != nil && e.formKind == formItem && e.formRow == cur {
		return e.form.Title(), keyNotes(keyNote{e.keys.Back, i18n.Mark("back")}), strings.Split(e.form.View(width, height), "\n")
	}
	if content, ok := e.blockContent(cur); ok {
		if e.editing { // sized by layoutParts
			return i18n.T("Block · %s (editing)", itemLabel(it)), keyNotes(keyNote{e.keys.Back, i18n.Mark("done")}, keyNote{e.keys.Save, i18n.Mark("save")}), strings.Split(e.ta.View(), "\n")
		}
		title := i18n.T("Block · %s", itemLabel(it))
		notes := keyNotes(keyNote{e.keys.Open, i18n.Mark("edit")}, keyNote{e.keys.Edit, "$EDITOR"}) //i18n:raw $EDITOR is the variable's name
		if content == "" {
			return title, notes, []string{st.Pane.Placeholder.Render(i18n.T("(empty block — %s types, %s opens $EDITOR)", e.keys.Open.Help().Key,
				e.keys.Edit.Help().Key))}
		}
		// The wheel scrolls a block longer than the pane (blockScroll,
		// clamped by layoutParts).
		lines := e.wrappedBlock(cur, content, width)
		off := clampBlockOffset(e.blockOffset(), len(lines), height)
		return title, notes, lines[off:min(len(lines), off+height)]
	}
	if e.form != nil && e.formRow == cur {
		return e.form.Title(), e.customSlotNote(it, isItem), strings.Split(e.form.View(width, height), "\n")
	}
	if isItem && it.Kind != preset.KindSlot {
		// Only an item that is not a JSON object is neither a block nor a slot.
		return i18n.T("Item · %s", itemLabel(it)), "", common.Wrap(i18n.T("this item is not a JSON object, so pi-forge skips it: delete it (%s) or fix the file",
			e.keys.Delete.Help().Key), width)
	}
	if isItem {
		// A slot whose form is not open yet: its options as JSON.
		title := i18n.T("Slot · %s", itemLabel(it))
		text := i18n.T("(no options)")
		if it.Options != nil {
			text = jsonv.StringifyIndent(it.Options, "  ")
		}
		var lines []string
		for _, l := range strings.Split(text, "\n") {
			lines = append(lines, common.Wrap(l, width)...)
		}
		return title, i18n.T("enter edit options"), lines
	}
	return i18n.T("Editor"), "", nil
}

// templateErrorAt locates the forge-v1 error of block i ("" when the
// block parses or the item has no error): line and column of its span.
func (e *draftEditor) templateErrorAt(i int, ds []preset.Diagnostic) string {
	hasErr := false
	for _, d := range ds {
		hasErr = hasErr || d.Level == preset.LevelError
	}
	content, ok := e.blockContent(i)
	if !hasErr || !ok {
		return ""
	}
	_, perr := forgev1.Parse(content)
	if perr == nil || perr.Span == nil {
		return ""
	}
	line, col := lineCol(content, perr.Span.Start)
	return i18n.T("template error at line %d, column %d: %s", line, col, sanitize.Line(perr.Message))
}

// conflictBanner is the line over the editor while the open file no
// longer matches the draft ("" when it does).
func (e *draftEditor) conflictBanner() string {
	switch e.conflict {
	case conflictOnSave:
		return i18n.T("Save refused: %s", i18n.T(conflictText))
	case conflictOnDisk:
		return i18n.T("Changed on disk: %s", e.diskChangeText())
	}
	return ""
}

// itemsView is the item list pane of the open draft.
func (e *draftEditor) itemsView(r rect, focused, noPresets bool) string {
	st := &e.com.Styles
	if e.d == nil {
		hint := i18n.T("open a preset (%s)", e.keys.Open.Help().Key)
		if noPresets {
			hint = i18n.T("no preset to open — %s creates one", e.keys.New.Help().Key)
		}
		return frame(e.com, r, i18n.T("Items"), "", focused, []string{st.Pane.Placeholder.Render(hint)})
	}
	lines := e.items.View(st, max(0, r.w-4), r.h-2, focused)
	title := e.d.ID()
	if e.d.Dirty() {
		title = "● " + i18n.T("%s (unsaved)", title)
	}
	diags := e.d.Diagnostics()
	errs, warns := diags.Count(preset.LevelError), diags.Count(preset.LevelWarning)
	info := countOf(e.d.Len(), "item")
	if errs > 0 {
		info += " · " + countOf(errs, "error")
	}
	if warns > 0 {
		info += " · " + countOf(warns, "warning")
	}
	return frame(e.com, r, i18n.T("Items · %s", title), info, focused, lines)
}

// diskChangeText explains a file that changed on disk under an edited
// draft, and the ways on.
func (e *draftEditor) diskChangeText() string {
	return i18n.T("the file changed on disk; your draft is kept — %s reloads it (dropping the draft), %s shows the difference and offers overwrite or fork",
		e.keys.Reload.Help().Key, e.keys.Save.Help().Key)
}

// unparsedText explains why a draft over a file that is not a JSON object
// is not saved over it (the draft is pi-forge's empty fallback, which
// would replace the file's text), and the ways on.
func (e *draftEditor) unparsedText() string {
	return i18n.T("%s did not parse: fix it in the raw JSON editor (Advanced row; %s saves once it parses), or fork (%s) pi-forge's empty fallback under a new id",
		e.open.FileName(), e.keys.Save.Help().Key, e.keys.Fork.Help().Key)
}

// wrappedBlock is content (block item) as the editor pane shows it at
// width, from the cache while the draft has not changed.
func (e *draftEditor) wrappedBlock(item int, content string, width int) []string {
	w := &e.blockWrap
	if w.lines != nil && w.d == e.d && w.item == item && w.width == width && w.version == e.d.Version() {
		return w.lines
	}
	var lines []string
	for _, l := range strings.Split(sanitize.Text(content), "\n") {
		lines = append(lines, common.Wrap(l, width)...)
	}
	*w = blockWrap{d: e.d, item: item, width: width, version: e.d.Version(), lines: lines}
	return lines
}

// blockOffset is the scroll of the block under the item cursor.
func (e *draftEditor) blockOffset() int {
	if e.blockScroll.d != e.d || e.blockScroll.item != e.items.Cursor() {
		return 0
	}
	return e.blockScroll.off
}

// itemDiagCounts are the error and warning counts per item id, from
// validation and from the last preview (template errors of a block); a
// message both report counts once.
func (e *draftEditor) itemDiagCounts(compiled []preset.Diagnostic) map[string][2]int {
	out := map[string][2]int{}
	seen := map[string]bool{}
	for _, d := range e.allDiagnostics(compiled) {
		k := d.ItemID + "\x00" + string(d.Level) + "\x00" + d.Message
		if d.ItemID == "" || seen[k] {
			continue
		}
		seen[k] = true
		c := out[d.ItemID]
		switch d.Level {
		case preset.LevelError:
			c[0]++
		case preset.LevelWarning:
			c[1]++
		}
		out[d.ItemID] = c
	}
	return out
}

// allDiagnostics are the draft's validation diagnostics followed by the
// last preview's compile diagnostics.
func (e *draftEditor) allDiagnostics(compiled []preset.Diagnostic) []preset.Diagnostic {
	all := append([]preset.Diagnostic(nil), e.d.Diagnostics()...)
	return append(all, compiled...)
}

// itemDiagnostics lists the diagnostics of one item id (validation first,
// then the compile's), without repeats.
func (e *draftEditor) itemDiagnostics(id string, compiled []preset.Diagnostic) []preset.Diagnostic {
	var out []preset.Diagnostic
	seen := map[string]bool{}
	for _, d := range e.allDiagnostics(compiled) {
		k := string(d.Level) + "\x00" + d.Message
		if d.ItemID == id && !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}
