package keymap

import (
	"charm.land/bubbles/v2/key"
	"github.com/forgebench/forgebench/i18n"
)

// Forms are the bindings of the Presets panel's editor forms (slot options,
// parameters, policies, regex rules, context options, bindings).
type Forms struct {
	Up       key.Binding
	Down     key.Binding
	Top      key.Binding
	Bottom   key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Edit     key.Binding
	Toggle   key.Binding
	Cycle    key.Binding
	CycleBck key.Binding
	Commit   key.Binding
	Cancel   key.Binding
	Reset    key.Binding
	Add      key.Binding
	Rename   key.Binding
	Delete   key.Binding
	MoveUp   key.Binding
	MoveDown key.Binding
	Detail   key.Binding
	List     key.Binding
	Pick     key.Binding
	Mode     key.Binding
	// FieldPrev and FieldNext commit the field being edited and move; only
	// the arrow keys, so letters still type.
	FieldPrev key.Binding
	FieldNext key.Binding
	// Text are the keys of the multi-line text editor (the raw JSON view).
	Text TextEditor
}

// TextEditor are the keys that move and edit text: the multi-line editor
// of the raw JSON view and, for the keys that apply to one line, every
// one-line field of a form. Any other key with text types it.
type TextEditor struct {
	Left, Right, Up, Down key.Binding
	PageUp, PageDown      key.Binding
	LineStart, LineEnd    key.Binding
	DocStart, DocEnd      key.Binding
	Newline               key.Binding
	Indent                key.Binding
	DeleteBefore          key.Binding
	DeleteAfter           key.Binding
	// KillToEnd and KillToStart delete from the cursor to the end or the
	// start of its line.
	KillToEnd, KillToStart key.Binding
	// WordLeft and WordRight move over a word (a run of non-spaces);
	// DeleteWordBefore and DeleteWordAfter delete one.
	WordLeft, WordRight               key.Binding
	DeleteWordBefore, DeleteWordAfter key.Binding
	// Paste types the system clipboard in a one-line field (a terminal's
	// own paste works everywhere).
	Paste key.Binding
}

// Help lists the editing keys for the help screen, in reading order.
func (t *TextEditor) Help() []key.Binding {
	return []key.Binding{t.LineStart, t.LineEnd, t.WordLeft, t.WordRight, t.DeleteWordBefore, t.DeleteWordAfter,
		t.KillToStart, t.KillToEnd, t.Paste}
}

// DefaultTextEditor returns the stock text editor bindings (those of
// bubbles' textarea, whose place the editor took).
func DefaultTextEditor() TextEditor {
	b := bind
	return TextEditor{
		Left: b([]string{"left", "ctrl+b"}, "←", i18n.Mark("left")), Right: b([]string{"right", "ctrl+f"}, "→", i18n.Mark("right")),
		Up: b([]string{"up", "ctrl+p"}, "↑", i18n.Mark("up")), Down: b([]string{"down", "ctrl+n"}, "↓", i18n.Mark("down")),
		PageUp: b([]string{"pgup"}, "pgup", i18n.Mark("page up")), PageDown: b([]string{"pgdown"}, "pgdn", i18n.Mark("page down")),
		LineStart: b([]string{"home", "ctrl+a"}, "home", i18n.Mark("line start")), LineEnd: b([]string{"end", "ctrl+e"}, "end", i18n.Mark("line end")),
		DocStart: b([]string{"ctrl+home", "alt+<"}, "ctrl+home", i18n.Mark("top")), DocEnd: b([]string{"ctrl+end", "alt+>"}, "ctrl+end", i18n.Mark("bottom")),
		Newline: b([]string{"enter", "ctrl+m"}, "enter", i18n.Mark("new line")), Indent: b([]string{"tab"}, "tab", i18n.Mark("indent")),
		DeleteBefore:     b([]string{"backspace", "ctrl+h"}, "backspace", i18n.Mark("delete back")),
		DeleteAfter:      b([]string{"delete", "ctrl+d"}, "del", i18n.Mark("delete")),
		KillToEnd:        b([]string{"ctrl+k"}, "ctrl+k", i18n.Mark("delete to line end")),
		KillToStart:      b([]string{"ctrl+u"}, "ctrl+u", i18n.Mark("delete to line start")),
		WordLeft:         b([]string{"alt+left", "ctrl+left", "alt+b"}, "alt+←", i18n.Mark("word left")),
		WordRight:        b([]string{"alt+right", "ctrl+right", "alt+f"}, "alt+→", i18n.Mark("word right")),
		DeleteWordBefore: b([]string{"alt+backspace", "ctrl+w", "ctrl+backspace"}, "ctrl+w", i18n.Mark("delete word back")),
		DeleteWordAfter:  b([]string{"alt+delete", "alt+d", "ctrl+delete"}, "alt+d", i18n.Mark("delete word")),
		Paste:            b([]string{"ctrl+v"}, "ctrl+v", i18n.Mark("paste (one-line fields)")),
	}
}

// DefaultForms returns the stock form bindings, chosen to agree with the
// Presets panel (x deletes, K/J move, space toggles). esc and u belong to
// the panel unless a form captures input; a form's own esc (cancel an edit,
// close a picker) therefore only acts while CapturesInput is true.
func DefaultForms() Forms {
	b := bind
	return Forms{
		Up:        b([]string{"up", "k"}, "↑/k", i18n.Mark("up")),
		Down:      b([]string{"down", "j"}, "↓/j", i18n.Mark("down")),
		Top:       b([]string{"g", "home"}, "g", i18n.Mark("first")),
		Bottom:    b([]string{"G", "end"}, "G", i18n.Mark("last")),
		PageUp:    b([]string{"pgup", "ctrl+u"}, "pgup", i18n.Mark("page up")),
		PageDown:  b([]string{"pgdown", "ctrl+d"}, "pgdn", i18n.Mark("page down")),
		Edit:      b([]string{"enter"}, "enter", i18n.Mark("edit field")),
		Toggle:    b([]string{"space"}, "space", i18n.Mark("toggle")),
		Cycle:     b([]string{"right", "l"}, "→/l", i18n.Mark("next value")),
		CycleBck:  b([]string{"left", "h"}, "←/h", i18n.Mark("previous value")),
		Commit:    b([]string{"enter"}, "enter", i18n.Mark("commit")),
		Cancel:    b([]string{"esc"}, "esc", i18n.Mark("cancel edit")),
		Reset:     b([]string{"x", "delete"}, "x", i18n.Mark("unset (default)")),
		Add:       b([]string{"a"}, "a", i18n.Mark("add")),
		Rename:    b([]string{"R"}, "R", i18n.Mark("rename")),
		Delete:    b([]string{"x", "delete"}, "x", i18n.Mark("delete")),
		MoveUp:    b([]string{"K", "alt+up"}, "K", i18n.Mark("move up")),
		MoveDown:  b([]string{"J", "alt+down"}, "J", i18n.Mark("move down")),
		Detail:    b([]string{"right", "l"}, "→/l", i18n.Mark("details")),
		List:      b([]string{"left", "h"}, "←/h", i18n.Mark("back to list")),
		Pick:      b([]string{"p"}, "p", i18n.Mark("pick capability")),
		Mode:      b([]string{"m"}, "m", i18n.Mark("cycle mode")),
		FieldPrev: b([]string{"up"}, "↑", i18n.Mark("commit & previous")),
		FieldNext: b([]string{"down"}, "↓", i18n.Mark("commit & next")),
		Text:      DefaultTextEditor(),
	}
}

// Named exposes the bindings under the names user overrides use
// ("form.commit", "form.move-up", …).
func (k *Forms) Named() map[string]*key.Binding {
	return map[string]*key.Binding{
		"form.up": &k.Up, "form.down": &k.Down, "form.top": &k.Top, "form.bottom": &k.Bottom,
		"form.page-up": &k.PageUp, "form.page-down": &k.PageDown, "form.edit": &k.Edit, "form.toggle": &k.Toggle,
		"form.cycle": &k.Cycle, "form.cycle-back": &k.CycleBck, "form.commit": &k.Commit,
		"form.cancel": &k.Cancel, "form.reset": &k.Reset, "form.add": &k.Add, "form.rename": &k.Rename,
		"form.delete": &k.Delete, "form.move-up": &k.MoveUp, "form.move-down": &k.MoveDown,
		"form.detail": &k.Detail, "form.list": &k.List, "form.pick": &k.Pick, "form.mode": &k.Mode,
		"form.field-prev": &k.FieldPrev, "form.field-next": &k.FieldNext,
		"form.text.left": &k.Text.Left, "form.text.right": &k.Text.Right, "form.text.up": &k.Text.Up,
		"form.text.down": &k.Text.Down, "form.text.page-up": &k.Text.PageUp, "form.text.page-down": &k.Text.PageDown,
		"form.text.line-start": &k.Text.LineStart, "form.text.line-end": &k.Text.LineEnd,
		"form.text.top": &k.Text.DocStart, "form.text.bottom": &k.Text.DocEnd, "form.text.newline": &k.Text.Newline,
		"form.text.indent": &k.Text.Indent, "form.text.delete-before": &k.Text.DeleteBefore,
		"form.text.delete-after": &k.Text.DeleteAfter, "form.text.kill-to-end": &k.Text.KillToEnd,
		"form.text.kill-to-start": &k.Text.KillToStart, "form.text.word-left": &k.Text.WordLeft,
		"form.text.word-right": &k.Text.WordRight, "form.text.delete-word-before": &k.Text.DeleteWordBefore,
		"form.text.delete-word-after": &k.Text.DeleteWordAfter, "form.text.paste": &k.Text.Paste,
	}
}
