package forms

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// fieldKind says how a field is shown and edited.
type fieldKind int

const (
	kindBool   fieldKind = iota // space/enter toggles
	kindEnum                    // space/enter/→ cycles through choices
	kindNumber                  // enter opens a number editor
	kindString                  // enter opens a string editor
	kindJSON                    // enter opens a raw JSON editor
)

// field is one editable row: a value at path in the draft, its type, the
// default used when absent, and the diagnostics that concern it.
type field struct {
	name    string
	path    Path
	label   string
	kind    fieldKind
	value   any
	present bool
	def     string
	choices []string
	escaped bool // show and edit the string with JSON escapes (\n, \t)
	// lenient JSON fields take text that does not parse as a string, and
	// show a string value without quotes unless it would parse as JSON.
	lenient  bool
	verbatim bool // show the string as typed, without quotes (regex sources)
	note     string
	unknown  bool
	diags    []diagLine
	// check, when set, validates the editor text on every keystroke and
	// returns a problem to show ("" = fine); it never blocks a commit.
	check func(text string) string
	// status is a line shown under the field when not editing (the
	// compile result of a regex pattern).
	status diagLine
}

// diagLine is one diagnostic shown under a field or a form.
type diagLine struct {
	level, text string
}

// fieldList is the shared row editor used by the slot options, context
// options, parameters, regex detail and binding detail forms: a
// common.List of the fields, the focused one with its type and notes under
// it, and an inline editor for the one being edited.
type fieldList struct {
	root   *jsonv.Object
	keys   *keymap.Forms
	styles *themes.Styles
	fields []field
	list   *common.List[fieldRow]
	// edit is the inline editor of the focused field.
	edit prompt
	// noArrowCycle leaves ←/→ to the form (two-pane forms use them to
	// switch panes); enums then cycle with space/enter only.
	noArrowCycle bool
	// width is the list's width (setWidth), which the editor's width
	// follows.
	width int
}

func newFieldList(root *jsonv.Object, keys *keymap.Forms, styles *themes.Styles, fields []field, row int) fieldList {
	fl := fieldList{root: root, keys: keys, styles: styles, list: common.NewList(renderFieldRow)}
	fl.setFields(fields, row)
	return fl
}

// setFields replaces the fields and puts the cursor on row.
func (fl *fieldList) setFields(fields []field, row int) {
	for i := range fields {
		f := &fields[i]
		if s, ok := f.value.(string); ok && f.kind == kindString && !f.escaped && hasControl(s) {
			// the one-line editor would turn a newline or tab into a space
			f.escaped = true
			f.note += " · " + i18n.T("edited with JSON escapes (\\n, \\t)")
		}
	}
	fl.fields = fields
	fl.refresh()
	fl.list.SetCursor(row)
}

// row is the focused field's index.
func (fl *fieldList) row() int { return fl.list.Cursor() }

// current returns the focused field, or nil when the list is empty.
func (fl *fieldList) current() *field {
	if i := fl.list.SelectedIndex(); i >= 0 {
		return &fl.fields[i]
	}
	return nil
}

// update handles one key; handled is false when the key is not the
// list's, so the form can use it.
func (fl *fieldList) update(msg tea.Msg) (handled bool, cmd tea.Cmd) {
	if fl.edit.open {
		defer fl.refresh()
		return true, fl.edit.update(msg, fl.keys, fl.commit, fl.keys.FieldPrev, fl.keys.FieldNext)
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	f := fl.current()
	switch {
	case key.Matches(kp, fl.keys.Up):
		fl.list.Move(-1)
		return true, nil
	case key.Matches(kp, fl.keys.Down):
		fl.list.Move(1)
		return true, nil
	case key.Matches(kp, fl.keys.Top):
		fl.list.SetCursor(0)
		return true, nil
	case key.Matches(kp, fl.keys.Bottom):
		fl.list.SetCursor(len(fl.fields) - 1)
		return true, nil
	case f == nil:
		return false, nil
	case key.Matches(kp, fl.keys.Reset):
		if !f.present {
			return true, nil
		}
		return true, remove(f.path, f.label)
	case key.Matches(kp, fl.keys.Toggle) || key.Matches(kp, fl.keys.Edit):
		switch f.kind {
		case kindBool:
			return true, editAt(fl.root, f.path, !f.boolValue(), f.label)
		case kindEnum:
			return true, editAt(fl.root, f.path, f.cycle(1), f.label)
		}
		if key.Matches(kp, fl.keys.Edit) {
			fl.startEdit()
			return true, nil
		}
	case fl.noArrowCycle:
		return false, nil
	case key.Matches(kp, fl.keys.Cycle) && f.kind == kindEnum:
		return true, editAt(fl.root, f.path, f.cycle(1), f.label)
	case key.Matches(kp, fl.keys.CycleBck) && f.kind == kindEnum:
		return true, editAt(fl.root, f.path, f.cycle(-1), f.label)
	}
	return false, nil
}

// editing reports whether the focused field's editor is open.
func (fl *fieldList) editing() bool { return fl.edit.open }

func (fl *fieldList) startEdit() {
	fl.edit.start(fl.styles, &fl.keys.Text, "", fl.current().editText())
	fl.refresh()
}

// commit parses the editor's text into the focused field's value; the
// arrow keys that commit also move to the previous or next field.
func (fl *fieldList) commit(text string, kp tea.KeyPressMsg) (tea.Cmd, error) {
	f := fl.current()
	value, err := f.parse(text)
	if err != nil {
		return nil, err
	}
	switch {
	case key.Matches(kp, fl.keys.FieldPrev):
		fl.list.Move(-1)
	case key.Matches(kp, fl.keys.FieldNext):
		fl.list.Move(1)
	}
	if f.present && jsonv.Stringify(f.value) == jsonv.Stringify(value) {
		return nil, nil
	}
	return editAt(fl.root, f.path, value, f.label), nil
}

// setWidth lays the list out for width cells: the editor fits it.
func (fl *fieldList) setWidth(width int) {
	if width != fl.width {
		fl.width = width
		fl.refresh()
	}
}

// view draws the fields in at most height lines of width cells (the width
// setWidth laid them out for); focused marks the list as the form's
// focused part.
func (fl *fieldList) view(width, height int, focused bool) []string {
	return fl.list.View(fl.styles, width, height, focused)
}

// nameWidth is the name column of a list whose longest name has longest
// cells, in width: what the names need up to half the width, leaving the
// values at least 24 cells.
func nameWidth(longest, width int) int {
	return min(longest, max(8, min(width/2, width-24)))
}

// refresh rebuilds the rows from the fields and the editing state.
func (fl *fieldList) refresh() {
	longest := 0
	for _, f := range fl.fields {
		longest = max(longest, common.Width(sanitize.Line(f.name)))
	}
	cur := fl.list.Cursor()
	rows := make([]fieldRow, len(fl.fields))
	for i := range fl.fields {
		f := &fl.fields[i]
		r := fieldRow{name: sanitize.Line(f.name), longest: longest, value: sanitize.Line(f.display()), dim: !f.present,
			status: f.status, diags: encodeDiags(f.diags)}
		if f.kind == kindBool && !f.present {
			r.value = "[" + map[bool]string{true: "x", false: " "}[f.boolValue()] + "] " + r.value
		}
		r.info = f.kindName()
		if f.note != "" {
			r.info += " · " + f.note
		}
		if fl.edit.open && i == cur {
			in := &fl.edit.input
			in.SetWidth(max(4, fl.width-nameWidth(longest, fl.width)-6))
			r.editing, r.editor, r.err = true, in.View(), fl.edit.err
			if f.check != nil {
				r.checked, r.problem = true, f.check(in.Value())
			}
		}
		rows[i] = r
	}
	fl.list.SetItems(rows)
}

// fieldRow is what the row of one field shows (the kit list caches rows
// by this value).
type fieldRow struct {
	name, value, info string
	longest           int // the longest name of the list: the name column
	dim               bool
	status            diagLine
	diags             string // encodeDiags
	// editing rows show the editor, its parse error or the check's verdict.
	editing bool
	editor  string
	err     string
	checked bool
	problem string
}

// renderFieldRow draws a field: the name and value; under the focused one
// its type and notes (and, while editing, the editor's verdict); then the
// field's status and diagnostics.
func renderFieldRow(r fieldRow, s common.RowState) string {
	st, width := s.Styles, s.Width
	nameW := nameWidth(r.longest, width)
	marker := "  "
	switch {
	case s.Selected && s.Focused:
		marker = "▸ "
	case s.Selected:
		marker = "› "
	}
	name := common.PadRight(truncate(r.name, nameW), nameW)
	style := st.List.Item
	switch {
	case s.Selected && s.Focused && !r.editing:
		style = st.List.Selected
	case s.Selected:
		style = st.List.SelectedBlurred
	case r.dim:
		style = st.List.Dim
	}
	editing := s.Selected && r.editing
	var lines []string
	if editing {
		lines = append(lines, style.Render(marker+name+"  ")+r.editor)
	} else {
		lines = append(lines, style.Render(truncate(marker+name+"  "+r.value, width)))
	}
	if s.Selected {
		lines = append(lines, st.Text.Muted.Render(truncate("    "+r.info, width)))
		switch {
		case editing && r.err != "":
			lines = append(lines, st.Text.Danger.Render(truncate("    ✗ "+r.err, width)))
		case editing && r.checked && r.problem != "":
			lines = append(lines, st.Text.Danger.Render(truncate("    ✗ "+r.problem, width)))
		case editing && r.checked:
			lines = append(lines, st.Text.Success.Render(truncate("    ✓ "+i18n.T("ok"), width)))
		}
	}
	if r.status.text != "" && !editing {
		lines = append(lines, renderDiag(st, r.status, width, "    "))
	}
	for _, d := range decodeDiags(r.diags) {
		lines = append(lines, renderDiag(st, d, width, "    "))
	}
	return strings.Join(lines, "\n")
}

// boolValue is the field's effective boolean (its default when absent or
// not a boolean).
func (f *field) boolValue() bool {
	if b, ok := f.value.(bool); ok && f.present {
		return b
	}
	return f.def == "true"
}

// cycle returns the enum choice step positions away from the current one.
func (f *field) cycle(step int) any {
	if len(f.choices) == 0 {
		return f.value
	}
	cur := f.def
	if s, ok := f.value.(string); ok && f.present {
		cur = s
	}
	idx := -1
	for i, c := range f.choices {
		if c == cur {
			idx = i
		}
	}
	if idx < 0 {
		if step > 0 {
			return f.choices[0]
		}
		return f.choices[len(f.choices)-1]
	}
	n := len(f.choices)
	return f.choices[((idx+step)%n+n)%n]
}

// editText is the text the editor starts with.
func (f *field) editText() string {
	if !f.present {
		return ""
	}
	if s, isString := f.value.(string); f.lenient && isString && !hasControl(s) {
		if _, err := jsonv.Parse([]byte(s)); err != nil && strings.TrimSpace(s) == s {
			return s
		}
	}
	switch f.kind {
	case kindString:
		s, ok := f.value.(string)
		if !ok {
			return jsonv.Stringify(f.value)
		}
		if f.escaped {
			return escapeString(s)
		}
		return s
	case kindNumber:
		if n, ok := f.value.(float64); ok {
			return jsonv.FormatNumber(n)
		}
	}
	return jsonv.Stringify(f.value)
}

// hasControl reports a rune the one-line editor cannot hold as it is (a
// newline, a tab, any other control character).
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// escapeString renders s as the body of a JSON string literal (\n, \t, \" …).
func escapeString(s string) string {
	q := jsonv.Quote(s)
	return q[1 : len(q)-1]
}

// parse turns the editor text into the jsonv value to commit.
func (f *field) parse(text string) (any, error) {
	switch f.kind {
	case kindString:
		if !f.escaped {
			return text, nil
		}
		v, err := jsonv.Parse([]byte(`"` + text + `"`))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", i18n.T("invalid escape sequence (use \\n, \\t, \\\\, \\\")"), err)
		}
		return v, nil
	case kindNumber:
		v, err := jsonv.Parse([]byte(strings.TrimSpace(text)))
		if n, ok := v.(float64); err == nil && ok {
			return n, nil
		}
		return nil, errors.New(i18n.T("%q is not a number", text))
	default:
		if f.lenient {
			return lenientValue(text)
		}
		v, err := jsonv.Parse([]byte(text))
		if err != nil {
			return nil, err // reads "invalid JSON: …"
		}
		return v, nil
	}
}

// display is the field's value as shown in the row.
func (f *field) display() string {
	if !f.present {
		if f.def == "" {
			return i18n.T("(unset)")
		}
		return i18n.T("(default %s)", f.def)
	}
	switch v := f.value.(type) {
	case string:
		if (f.kind == kindEnum || f.verbatim) && v != "" {
			return v
		}
		return jsonv.Quote(v)
	case bool:
		if v {
			return "[x] true" //i18n:raw the JSON value
		}
		return "[ ] false" //i18n:raw the JSON value
	}
	return jsonv.Stringify(f.value)
}

// kindName is the type shown next to a field.
func (f *field) kindName() string {
	switch f.kind {
	case kindBool:
		return "bool"
	case kindEnum:
		return strings.Join(f.choices, "|")
	case kindNumber:
		return "number"
	case kindString:
		return "string"
	}
	if f.unknown {
		return i18n.T("raw JSON")
	}

	return "JSON"
}

// help is the list's part of the footer for the focused field.
func (fl *fieldList) help() []key.Binding {
	if fl.edit.open {
		return []key.Binding{fl.keys.Commit, fl.keys.Cancel, fl.keys.FieldPrev, fl.keys.FieldNext}
	}
	bs := []key.Binding{fl.keys.Up, fl.keys.Down}
	if f := fl.current(); f != nil {
		switch f.kind {
		case kindBool:
			bs = append(bs, fl.keys.Toggle)
		case kindEnum:
			bs = append(bs, fl.keys.Cycle)
		default:
			bs = append(bs, fl.keys.Edit)
		}
		if f.present {
			bs = append(bs, fl.keys.Reset)
		}
	}
	return bs
}
