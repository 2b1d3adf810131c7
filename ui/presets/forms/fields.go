package forms

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
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
	name     string
	path     Path
	label    string
	kind     fieldKind
	value    any
	present  bool
	def      string
	choices  []string
	escaped  bool // show and edit the string with JSON escapes (\n, \t)
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
// options, regex detail and binding detail forms.
type fieldList struct {
	root    *jsonv.Object
	keys    *keymap.Forms
	styles  *themes.Styles
	fields  []field
	row     int
	editing bool
	input   textinput.Model
	err     string
	// noArrowCycle leaves ←/→ to the form (two-pane forms use them to
	// switch panes); enums then cycle with space/enter only.
	noArrowCycle bool
}

func newFieldList(root *jsonv.Object, keys *keymap.Forms, styles *themes.Styles, fields []field, row int) fieldList {
	fl := fieldList{root: root, keys: keys, styles: styles, fields: fields}
	fl.row = clamp(row, 0, len(fields)-1)
	return fl
}

func clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// current returns the focused field, or nil when the list is empty.
func (fl *fieldList) current() *field {
	if fl.row < 0 || fl.row >= len(fl.fields) {
		return nil
	}
	return &fl.fields[fl.row]
}

// update handles one key; handled is false when the key is not the
// list's, so the form can use it.
func (fl *fieldList) update(msg tea.Msg) (handled bool, cmd tea.Cmd) {
	if fl.editing {
		return true, fl.updateEditing(msg)
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil
	}
	f := fl.current()
	switch {
	case key.Matches(kp, fl.keys.Up):
		fl.row = clamp(fl.row-1, 0, len(fl.fields)-1)
		return true, nil
	case key.Matches(kp, fl.keys.Down):
		fl.row = clamp(fl.row+1, 0, len(fl.fields)-1)
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

func (fl *fieldList) startEdit() {
	f := fl.current()
	fl.input, fl.editing, fl.err = newInput(fl.styles, "", f.editText()), true, ""
}

func (fl *fieldList) updateEditing(msg tea.Msg) tea.Cmd {
	kp, isKey := msg.(tea.KeyPressMsg)
	if isKey {
		switch {
		case key.Matches(kp, fl.keys.Cancel):
			fl.editing, fl.err = false, ""
			return nil
		case key.Matches(kp, fl.keys.Commit), key.Matches(kp, fl.keys.FieldPrev), key.Matches(kp, fl.keys.FieldNext):
			f := fl.current()
			value, err := f.parse(fl.input.Value())
			if err != nil {
				fl.err = err.Error()
				return nil
			}
			fl.editing, fl.err = false, ""
			switch {
			case key.Matches(kp, fl.keys.FieldPrev):
				fl.row = clamp(fl.row-1, 0, len(fl.fields)-1)
			case key.Matches(kp, fl.keys.FieldNext):
				fl.row = clamp(fl.row+1, 0, len(fl.fields)-1)
			}
			if f.present && jsonv.Stringify(f.value) == jsonv.Stringify(value) {
				return nil
			}
			return editAt(fl.root, f.path, value, f.label)
		}
	}
	var cmd tea.Cmd
	fl.input, cmd = fl.input.Update(msg)
	fl.err = ""
	return cmd
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
			return nil, fmt.Errorf("invalid escape sequence (use \\n, \\t, \\\\, \\\"): %w", err)
		}
		return v, nil
	case kindNumber:
		v, err := jsonv.Parse([]byte(strings.TrimSpace(text)))
		if n, ok := v.(float64); err == nil && ok {
			return n, nil
		}
		return nil, fmt.Errorf("%q is not a number", text)
	default:
		v, err := jsonv.Parse([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
		return v, nil
	}
}

// display is the field's value as shown in the row.
func (f *field) display() string {
	if !f.present {
		if f.def == "" {
			return "(unset)"
		}
		return "(default " + f.def + ")"
	}
	switch v := f.value.(type) {
	case string:
		if (f.kind == kindEnum || f.verbatim) && v != "" {
			return v
		}
		return jsonv.Quote(v)
	case bool:
		if v {
			return "[x] true"
		}
		return "[ ] false"
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
		return "raw JSON"
	}
	return "JSON"
}

// render draws the fields; cursorLine is the line of the focused row so the
// caller can scroll it into view.
func (fl *fieldList) render(width int, focused bool) (lines []string, cursorLine int) {
	st := fl.styles
	nameW := 0
	for _, f := range fl.fields {
		nameW = max(nameW, len([]rune(f.name)))
	}
	// Names get what they need up to half the width, leaving values at
	// least 24 cells.
	nameW = min(nameW, max(8, min(width/2, width-24)))
	for i := range fl.fields {
		f := &fl.fields[i]
		sel := i == fl.row
		if sel {
			cursorLine = len(lines)
		}
		marker := "  "
		switch {
		case sel && focused:
			marker = "▸ "
		case sel:
			marker = "› "
		}
		name := padRight(truncate(f.name, nameW), nameW)
		var value string
		if sel && fl.editing {
			fl.input.SetWidth(max(4, width-nameW-6))
			value = fl.input.View()
		} else {
			value = f.display()
			if f.kind == kindBool && !f.present {
				value = "[" + map[bool]string{true: "x", false: " "}[f.boolValue()] + "] " + value
			}
		}
		row := marker + name + "  " + value
		if !fl.editing || !sel {
			row = truncate(row, width)
		}
		style := st.List.Item
		switch {
		case sel && focused && !fl.editing:
			style = st.List.Selected
		case sel:
			style = st.List.SelectedBlurred
		case !f.present:
			style = st.List.Dim
		}
		if sel && fl.editing {
			lines = append(lines, style.Render(marker+name+"  ")+value)
		} else {
			lines = append(lines, style.Render(row))
		}
		if sel {
			info := f.kindName()
			if f.note != "" {
				info += " · " + f.note
			}
			lines = append(lines, st.Text.Muted.Render(truncate("    "+info, width)))
			if fl.editing && fl.err != "" {
				lines = append(lines, st.Text.Danger.Render(truncate("    ✗ "+fl.err, width)))
			} else if fl.editing && f.check != nil {
				if problem := f.check(fl.input.Value()); problem != "" {
					lines = append(lines, st.Text.Danger.Render(truncate("    ✗ "+problem, width)))
				} else {
					lines = append(lines, st.Text.Success.Render(truncate("    ✓ ok", width)))
				}
			}
		}
		if f.status.text != "" && !(sel && fl.editing) {
			lines = append(lines, renderDiag(st, f.status, width, "    "))
		}
		for _, d := range f.diags {
			lines = append(lines, renderDiag(st, d, width, "    "))
		}
	}
	return lines, cursorLine
}

// help is the list's part of the footer for the focused field.
func (fl *fieldList) help() []key.Binding {
	if fl.editing {
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

// newInput builds a focused single-line editor with a static cursor: forms
// are re-created after every edit, so a blinking cursor would only add
// timer traffic and make views depend on time.
func newInput(styles *themes.Styles, prompt, value string) textinput.Model {
	ti := textinput.New()
	s := textinput.DefaultStyles(styles.IsDark)
	s.Cursor.Blink = false
	s.Focused.Prompt = styles.Text.Subtle
	s.Focused.Text = styles.Text.Normal
	s.Blurred.Prompt = styles.Text.Subtle
	s.Blurred.Text = styles.Text.Normal
	ti.SetStyles(s)
	ti.Prompt = prompt
	ti.SetValue(value)
	ti.CursorEnd()
	ti.Focus()
	return ti
}
