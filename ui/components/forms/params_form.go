package forms

import (
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
)

// paramsForm edits `parameters` (schemaVersion 2: name → any JSON value) or
// `variables` (schemaVersion 1: name → string).
type paramsForm struct {
	base
	key   string // "parameters" or "variables"
	v2    bool
	raw   *jsonv.Object
	list  fieldList
	diags []diagLine

	// prompt asks for a new entry or a new name.
	prompt   prompt
	renaming bool
}

func newParameters(ctx Context, o options) Form {
	f := &paramsForm{base: newBase(ctx, o), key: "variables"}
	if f.ctx.Stack.SchemaVersion == 2 {
		f.v2, f.key = true, "parameters"
	}
	f.raw = objectAt(f.ctx.Draft, Path{f.key})
	var fields []field
	if f.raw != nil {
		for _, name := range f.raw.Keys() {
			v, _ := f.raw.Get(name)
			fd := field{name: name, path: Path{f.key, name}, label: f.key + "." + name, kind: kindJSON, value: v, present: true,
				lenient: true, note: i18n.T("JSON when it parses, else text; used as {{ parameters.%s }}", name)}
			if !f.v2 {
				fd.kind, fd.escaped = kindString, true
				fd.note = i18n.T("edited with JSON escapes (\\n, \\t); used as {{ variables.%s }}", name)
				if _, isString := v.(string); !isString {
					fd.kind, fd.note = kindJSON, i18n.T("not a string: dropped by the codec; enter a string")
				}
			}
			msgName := "Preset parameter " + name + " " //i18n:raw pi-forge's diagnostic, matched
			if !f.v2 {
				msgName = "Preset variable " + name + " " //i18n:raw pi-forge's diagnostic, matched
			}
			fd.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix(msgName))
			fields = append(fields, fd)
		}
	}
	f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, fields, o.cursor.Row)
	f.diags = diagsWhere(f.ctx.Diagnostics, func(d preset.Diagnostic) bool {
		for _, fd := range fields {
			if len(fd.diags) > 0 && strings.Contains(d.Message, " "+fd.name+" ") {
				return false
			}
		}
		return hasPrefix("Preset parameters", "Preset variables", "schemaVersion 2 presets use parameters", //i18n:raw pi-forge's diagnostics, matched
			"schemaVersion 1 presets use variables")(d) //i18n:raw pi-forge's diagnostic, matched
	})
	if _, ok := f.ctx.Draft.Get(f.key); ok && f.raw == nil {
		f.diags = append(f.diags, diagLine{string(preset.LevelError), i18n.T("%s is not an object; adding an entry replaces it", f.key)})
	}
	return f
}

func (f *paramsForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	if f.prompt.open {
		return f, f.prompt.update(msg, f.keys, func(text string, _ tea.KeyPressMsg) (tea.Cmd, error) { return f.commitPrompt(text) })
	}
	if handled, cmd := f.list.update(msg); handled {
		return f, cmd
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	cur := f.list.current()
	switch {
	case key.Matches(kp, f.keys.Add):
		prompt := i18n.T("new variable (name = text): ")
		if f.v2 {
			prompt = i18n.T("new parameter (name = value): ")
		}
		f.startPrompt(prompt, "", false)
	case key.Matches(kp, f.keys.Rename) && cur != nil:
		f.startPrompt("rename "+cur.name+" to: ", cur.name, true)
	case key.Matches(kp, f.keys.Delete) && cur != nil:
		return f, remove(cur.path, cur.label)
	}
	return f, nil
}

func (f *paramsForm) startPrompt(label, value string, renaming bool) {
	f.renaming = renaming
	f.prompt.start(f.styles, &f.keys.Text, label, value)
}

func (f *paramsForm) exists(name string) bool {
	if f.raw == nil {
		return false
	}
	_, ok := f.raw.Get(name)
	return ok
}

func (f *paramsForm) commitPrompt(text string) (tea.Cmd, error) {
	if f.renaming {
		cur := f.list.current()
		name := strings.TrimSpace(text)
		switch {
		case name == "":
			return nil, errors.New(i18n.T("a name cannot be empty"))
		case name == cur.name:
			return nil, nil
		case f.exists(name):
			return nil, errors.New(i18n.T("%s already exists", name))
		}
		renamed := jsonv.NewObject()
		for _, k := range f.raw.Keys() {
			v, _ := f.raw.Get(k)
			if k == cur.name {
				k = name
			}
			renamed.Set(k, v)
		}
		return edit(Path{f.key}, renamed, f.key+"."+cur.name+" → "+name), nil
	}
	var name string
	var value any
	if f.v2 {
		n, v, err := parseLenientAssignment(text)
		if err != nil {
			return nil, err
		}
		name, value = n, v
	} else {
		n, v, ok := strings.Cut(text, "=")
		name, value = strings.TrimSpace(n), strings.TrimPrefix(v, " ")
		if !ok || name == "" {
			return nil, errors.New(i18n.T("write name = text, e.g. tone = terse"))
		}
	}
	if f.exists(name) {
		return nil, errors.New(i18n.T("%s already exists; edit it instead", name))
	}
	return editAt(f.ctx.Draft, Path{f.key, name}, value, f.key+"."+name), nil
}

// SetSize implements Form: the fields' editor and the add prompt fit the
// width.
func (f *paramsForm) SetSize(width, _ int) {
	f.list.setWidth(width)
	f.prompt.setWidth(width)
}

func (f *paramsForm) View(width, height int) string {
	st := f.styles
	head := i18n.T("Parameters (schemaVersion 2) — name → any JSON value, {{ parameters.<name> }}")
	if !f.v2 {
		head = i18n.T("Variables (schemaVersion 1) — name → string, {{ variables.<name> }}")
	}
	return withList(st, heading(st, head, f.diags, width), &f.list, i18n.T("no %s yet — press a to add one", f.key), &f.prompt, width, height)
}

func (f *paramsForm) CapturesInput() bool { return f.list.editing() || f.prompt.open }
func (f *paramsForm) cursor() Cursor      { return Cursor{Row: f.list.row()} }

func (f *paramsForm) Title() string {
	if f.v2 {
		return i18n.T("Parameters")
	}
	return i18n.T("Variables")

}

func (f *paramsForm) ShortHelp() []key.Binding {
	if f.prompt.open {
		return []key.Binding{f.keys.Commit, f.keys.Cancel}
	}
	bs := f.list.help()
	if !f.list.editing() {
		// "Unsetting" a parameter removes it: when reset and delete share
		// a key, list that key once, as delete.
		if f.keys.Reset.Help().Key == f.keys.Delete.Help().Key {
			bs = slices.DeleteFunc(bs, func(b key.Binding) bool { return b.Help() == f.keys.Reset.Help() })
		}
		bs = append(bs, f.keys.Add)
		if f.list.current() != nil {
			bs = append(bs, f.keys.Rename, f.keys.Delete)
		}
	}
	return bs
}
