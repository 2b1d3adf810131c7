package forms

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/draft"
)

// optionSpec describes one known option of a built-in slot (spec §3.3, §4.4).
type optionSpec struct {
	name    string
	kind    fieldKind
	def     string
	choices []string
	note    string
}

var formatOption = optionSpec{"format", kindEnum, "xml", []string{"xml", "plain"}, i18n.Mark("plain text or XML-style wrapper")}

// slotOptionSpecs lists every built-in slot's options in display order.
var slotOptionSpecs = map[string][]optionSpec{
	"chat-history": {
		{"includeLastUserMessage", kindBool, "true", nil, i18n.Mark("false removes the last user message")},   //i18n:raw the option's name and default are pi-forge's
		{"includeSummaries", kindBool, "true", nil, i18n.Mark("false drops branch and compaction summaries")}, //i18n:raw the option's name and default are pi-forge's
		{"roles", kindJSON, "", nil, i18n.Mark(`string array; keep only these roles, e.g. ["user","assistant"]`)},
		{"toolMode", kindEnum, "keep", []string{"keep", "drop"}, i18n.Mark("drop removes tool calls and results")},     //i18n:raw the option's name and default are pi-forge's
		{"stripAssistantThinking", kindBool, "false", nil, i18n.Mark("remove assistant thinking blocks")},              //i18n:raw the option's name and default are pi-forge's
		{"maxMessages", kindNumber, "", nil, i18n.Mark("positive integer; keep the most recent N messages")},           //i18n:raw the option's name and default are pi-forge's
		{"maxChars", kindNumber, "", nil, i18n.Mark("positive integer; keep the newest messages within N characters")}, //i18n:raw the option's name and default are pi-forge's
	},
	"tools": {
		formatOption,
		{"onlyWithSnippets", kindBool, "false", nil, i18n.Mark("keep only tools that have a prompt snippet")}, //i18n:raw the option's name and default are pi-forge's
	},
	"tool-guidelines": {
		formatOption,
		{"heading", kindString, `"Tool guidelines:"`, nil, i18n.Mark("plain format only; empty means no heading line")}, //i18n:raw the option's name and default are pi-forge's
		{"includePiDefaultGuidelines", kindBool, "false", nil, i18n.Mark("add Pi's two default guidelines")},            //i18n:raw the option's name and default are pi-forge's
		{"piStyle", kindBool, "false", nil, i18n.Mark("Pi's wording (no trailing period on the bash guideline)")},       //i18n:raw the option's name and default are pi-forge's
	},
	"skills": {
		formatOption,
		{"requireReadTool", kindBool, "false", nil, i18n.Mark("render nothing unless the read tool is selected")}, //i18n:raw the option's name and default are pi-forge's
	},
	"project-context":      {formatOption},
	"date":                 {{"includeTime", kindBool, "false", nil, i18n.Mark("add the Current time line")}}, //i18n:raw the option's name and default are pi-forge's
	"date-cwd":             {{"includeTime", kindBool, "false", nil, i18n.Mark("add the Current time line")}}, //i18n:raw the option's name and default are pi-forge's
	"append-system-prompt": nil,
	"cwd":                  nil,
	"active-model":         nil,
	"pi-docs":              nil,
}

// slotForm edits items[index].options of a slot item.
type slotForm struct {
	base
	index  int
	slot   string
	itemID string
	list   fieldList
	diags  []diagLine
	// adding asks for a new option.
	adding  prompt
	invalid string
}

func newSlotOptions(ctx Context, itemIndex int, o options) Form {
	f := &slotForm{base: newBase(ctx, o), index: itemIndex}
	items := f.ctx.Stack.Items
	if itemIndex < 0 || itemIndex >= len(items) || objectAt(f.ctx.Draft, Path{"items", itemIndex}) == nil {
		f.invalid = i18n.T("items[%d] is not an object", itemIndex)
		f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
		return f
	}
	item := &items[itemIndex]
	f.slot, f.itemID = item.Slot, item.ID
	if item.Kind != preset.KindSlot {
		f.invalid = i18n.T("items[%d] is a %s, not a slot: it has no options", itemIndex, item.Kind)
		f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
		return f
	}
	optsPath := Path{"items", itemIndex, "options"}
	opts := item.Options
	if v, has := draft.Get(f.ctx.Draft, optsPath); has && opts == nil {
		f.diags = append(f.diags, diagLine{string(preset.LevelError), i18n.T("options is %s, not an object; committing a field replaces it", jsonv.Stringify(v))})
	}
	itemDiags := func(d preset.Diagnostic) bool { return f.itemID != "" && d.ItemID == f.itemID }
	known := map[string]bool{}
	var fields []field
	for _, spec := range slotOptionSpecs[f.slot] {
		known[spec.name] = true
		fd := field{name: spec.name, path: append(optsPath[:3:3], spec.name), label: f.label(spec.name),
			kind: spec.kind, def: spec.def, choices: spec.choices, note: i18n.T(spec.note)}
		if opts != nil {
			fd.value, fd.present = opts.Get(spec.name)
		}
		if fd.present && !fitsKind(fd.kind, fd.value) {
			fd.kind = kindJSON
			fd.note = i18n.T("value has the wrong type; %s", fd.note)
		}
		name := spec.name
		fd.diags = diagsWhere(f.ctx.Diagnostics, func(d preset.Diagnostic) bool {
			return itemDiags(d) && mentionsOption(d.Message, name)
		})
		fields = append(fields, fd)
	}
	if opts != nil {
		for _, k := range opts.Keys() {
			if known[k] {
				continue
			}
			v, _ := opts.Get(k)
			fields = append(fields, field{name: k, path: append(optsPath[:3:3], k), label: f.label(k),
				kind: kindJSON, value: v, present: true, unknown: true,
				note: i18n.T("not a known option of this slot; kept as raw JSON")})

		}
	}
	f.diags = append(f.diags, diagsWhere(f.ctx.Diagnostics, func(d preset.Diagnostic) bool {
		if !itemDiags(d) {
			return false
		}
		for _, fd := range fields {
			if mentionsOption(d.Message, fd.name) {
				return false
			}
		}
		return true
	})...)
	f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, fields, o.cursor.Row)
	return f
}

// mentionsOption reports whether a diagnostic message is about option name.
func mentionsOption(msg, name string) bool {
	return strings.Contains(msg, " option "+name+" ") || strings.Contains(msg, " "+name+" must") ||
		strings.Contains(msg, " "+name+" should")
}

// fitsKind reports whether v can be shown with the typed editor of kind.
func fitsKind(kind fieldKind, v any) bool {
	switch kind {
	case kindBool:
		_, ok := v.(bool)
		return ok
	case kindNumber:
		_, ok := v.(float64)
		return ok
	case kindString, kindEnum:
		_, ok := v.(string)
		return ok
	}
	return true
}

func (f *slotForm) label(option string) string {
	id := f.itemID
	if id == "" {
		id = strconv.Itoa(f.index)
	}
	return "items." + id + ".options." + option
}

func (f *slotForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	if f.adding.open {
		return f, f.adding.update(msg, f.keys, f.addOption)
	}
	if handled, cmd := f.list.update(msg); handled {
		return f, cmd
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok || f.invalid != "" {
		return f, nil
	}
	switch {
	case key.Matches(kp, f.keys.Add):
		f.adding.start(f.styles, &f.keys.Text, i18n.T("new option (name = JSON value): "), "")
		return f, nil
	case key.Matches(kp, f.keys.Delete):
		if fd := f.list.current(); fd != nil && fd.present {
			return f, remove(fd.path, fd.label)
		}
	}
	return f, nil
}

// addOption turns "name = JSON" into the edit that adds the option.
func (f *slotForm) addOption(text string, _ tea.KeyPressMsg) (tea.Cmd, error) {
	name, value, err := parseAssignment(text)
	if err != nil {
		return nil, err
	}
	for _, fd := range f.list.fields {
		if fd.name == name && fd.present {
			return nil, errors.New(i18n.T("option %s already exists; edit it instead", name))
		}
	}
	return editAt(f.ctx.Draft, Path{"items", f.index, "options", name}, value, f.label(name)), nil
}

// parseAssignment splits "name = JSON" into the key and its parsed value.
func parseAssignment(text string) (string, any, error) {
	name, raw, ok := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", nil, errors.New(i18n.T("write name = JSON value, e.g. format = \"plain\""))
	}
	v, err := jsonv.Parse([]byte(strings.TrimSpace(raw)))
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", name, err) // err reads "invalid JSON: …"
	}
	return name, v, nil
}

// parseLenientAssignment is parseAssignment for values that may be typed
// without quotes: JSON when the text parses, else the text as a string.
func parseLenientAssignment(text string) (string, any, error) {
	name, raw, ok := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", nil, errors.New(i18n.T("write name = value, e.g. team = billing (JSON when it parses, else text)"))
	}
	v, err := lenientValue(strings.TrimSpace(raw))
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", name, err)
	}
	return name, v, nil
}

// lenientValue is the JSON value text parses to, else text itself as a
// string; text that starts like a JSON object, array or string must parse
// (a typo there is an error, not a string).
func lenientValue(text string) (any, error) {
	v, err := jsonv.Parse([]byte(text))
	if err == nil {
		return v, nil
	}
	if t := strings.TrimSpace(text); t != "" && strings.ContainsRune(`{["`, rune(t[0])) {
		return nil, err // reads "invalid JSON: …"
	}
	return text, nil
}

// SetSize implements Form: the fields' editor and the add prompt fit the
// width.
func (f *slotForm) SetSize(width, _ int) {
	f.list.setWidth(width)
	f.adding.setWidth(width)
}

func (f *slotForm) View(width, height int) string {
	st := f.styles
	head := i18n.T("Slot %s", f.slot)
	if f.itemID != "" {
		head = i18n.T("Slot %s · item %s", f.slot, f.itemID)
	}
	lines := []string{st.Text.Strong.Render(truncate(head, width))}
	if f.invalid != "" {
		lines = append(lines, st.Text.Danger.Render(truncate(f.invalid, width)))
		return common.Fit(lines, width, height)
	}
	if _, builtin := slotOptionSpecs[f.slot]; !builtin {
		lines = append(lines, st.Text.Warning.Render(truncate(i18n.T("not a built-in slot: every option is raw JSON"), width)))
	} else if len(slotOptionSpecs[f.slot]) == 0 {
		lines = append(lines, st.Text.Muted.Render(truncate(i18n.T("this slot has no options"), width)))
	}
	for _, d := range f.diags {
		lines = append(lines, renderDiag(st, d, width, ""))
	}
	return withList(st, lines, &f.list, i18n.T("no options set — press a to add one"), &f.adding, width, height)
}

func (f *slotForm) CapturesInput() bool { return f.list.editing() || f.adding.open }
func (f *slotForm) Title() string {
	if f.slot == "" {
		return i18n.T("Slot options")
	}
	return i18n.T("Slot options · %s", f.slot)

}

func (f *slotForm) ShortHelp() []key.Binding {
	if f.adding.open {
		return []key.Binding{f.keys.Commit, f.keys.Cancel}
	}
	bs := f.list.help()
	if !f.list.editing() {
		bs = append(bs, f.keys.Add)
		// The list already offers x as "unset" for a present option; x
		// only reaches Delete when the two are bound apart.
		if fd := f.list.current(); fd != nil && fd.present && f.keys.Delete.Help().Key != f.keys.Reset.Help().Key {
			bs = append(bs, f.keys.Delete)
		}
	}
	return bs
}

func (f *slotForm) cursor() Cursor { return Cursor{Row: f.list.row()} }
