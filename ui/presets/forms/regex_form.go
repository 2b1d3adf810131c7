package forms

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
)

// regexFieldSpecs are the fields of one rule (spec §6.1) in display order.
var regexFieldSpecs = []optionSpec{
	{"id", kindString, "", nil, "required, unique"},
	{"name", kindString, "", nil, "display name"},
	{"enabled", kindBool, "true", nil, ""},
	{"stage", kindEnum, "", []string{"history", "compiled"}, "required"},
	{"effect", kindEnum, "outgoing", []string{"outgoing", "finalize"}, "finalize rewrites the stored assistant message (stage compiled)"},
	{"frequency", kindEnum, "turn", []string{"turn", "request"}, "request also runs on tool follow-up requests"},
	{"pattern", kindString, "", nil, "JavaScript RegExp source"},
	{"flags", kindString, "", nil, "subset of g i m s u"},
	{"replace", kindString, `""`, nil, "$&, $1…$99, $<name>, $`, $', $$; edited with JSON escapes"},
	{"trimStrings", kindJSON, "", nil, "string array removed from the match and captures"},
	{"roles", kindJSON, "", nil, `string array of message roles, e.g. ["assistant"]`},
	{"targets", kindJSON, "", nil, `compiled stage: ["system","messages"]; absent = both`},
	{"maxMessages", kindNumber, "", nil, "only the last N eligible messages"},
	{"maxChars", kindNumber, "", nil, "only the last N characters of each text"},
	{"minDepth", kindNumber, "", nil, "depth 0 = the last message"},
	{"maxDepth", kindNumber, "", nil, ">= minDepth"},
}

// regexForm edits regex.rules: a rule list and the focused rule's fields.
type regexForm struct {
	base
	rules   []any
	rulesOK bool
	row     int
	pane    int // 0 list, 1 detail
	detail  fieldList
	diags   []diagLine
	// status is each rule's compile result, computed once at construction
	// so View never compiles.
	status []diagLine
	// next is the cursor for the re-created form after an add (the new
	// rule does not exist in this instance's draft).
	next *Cursor
}

func newRegex(ctx Context, o options) Form {
	f := &regexForm{base: newBase(ctx, o)}
	if v, ok := valueAt(f.ctx.Draft, Path{"regex", "rules"}).([]any); ok {
		f.rules, f.rulesOK = v, true
	}
	for _, r := range f.rules {
		rule, _ := r.(*jsonv.Object)
		f.status = append(f.status, compileStatus(stringField(rule, "pattern"), stringField(rule, "flags")))
	}
	f.row = clamp(o.cursor.Row, 0, len(f.rules)-1)
	if len(f.rules) > 0 {
		f.pane = clamp(o.cursor.Pane, 0, 1)
	}
	f.detail = f.buildDetail(o.cursor.Detail)
	f.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix("regex.", "regex must", "Missing or unsupported regex.schemaVersion", "Duplicate regex rule id"))
	return f
}

// ruleLabel is the diagnostics label of rule i (spec §6.2).
func ruleLabel(rule *jsonv.Object, i int) string {
	if rule != nil {
		if id, ok := rule.Get("id"); ok {
			if s, isString := id.(string); isString && strings.TrimSpace(s) != "" {
				return "Regex rule " + strings.TrimSpace(s)
			}
		}
	}
	return "regex rule " + strconv.Itoa(i+1)
}

// compileStatus compiles a rule's pattern with its flags like the engine.
func compileStatus(pattern, flags string) diagLine {
	if pattern == "" {
		return diagLine{string(preset.LevelError), "pattern is empty"}
	}
	if _, err := preset.CompileJS(pattern, flags); err != nil {
		return diagLine{string(preset.LevelError), err.Error()}
	}
	return diagLine{"ok", "compiles as /" + pattern + "/" + flags}
}

func (f *regexForm) buildDetail(row int) fieldList {
	fl := newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
	fl.noArrowCycle = true
	if len(f.rules) == 0 {
		return fl
	}
	rule, _ := f.rules[f.row].(*jsonv.Object)
	if rule == nil {
		return fl
	}
	label := ruleLabel(rule, f.row)
	known := map[string]bool{}
	patternText, flagsText := stringField(rule, "pattern"), stringField(rule, "flags")
	var fields []field
	for _, spec := range regexFieldSpecs {
		known[spec.name] = true
		fd := field{name: spec.name, path: Path{"regex", "rules", f.row, spec.name},
			label: "regex.rules." + strings.TrimPrefix(strings.TrimPrefix(label, "Regex rule "), "regex rule ") + "." + spec.name,
			kind:  spec.kind, def: spec.def, choices: spec.choices, note: spec.note}
		fd.value, fd.present = rule.Get(spec.name)
		if fd.present && !fitsKind(fd.kind, fd.value) {
			fd.kind = kindJSON
		}
		switch spec.name {
		case "replace":
			fd.escaped = true
		case "pattern", "flags":
			fd.verbatim = true
		}
		switch spec.name {
		case "pattern":
			fd.check = func(text string) string {
				if s := compileStatus(text, flagsText); s.level != "ok" {
					return s.text
				}
				return ""
			}
			fd.status = f.status[f.row]
		case "flags":
			fd.check = func(text string) string {
				if s := compileStatus(patternText, text); s.level != "ok" && patternText != "" {
					return s.text
				}
				return ""
			}
		}
		name := spec.name
		fd.diags = diagsWhere(f.ctx.Diagnostics, func(d preset.Diagnostic) bool {
			rest, ok := strings.CutPrefix(d.Message, label+" ")
			return ok && (strings.HasPrefix(rest, name+" ") || name == "flags" && strings.HasPrefix(rest, "has ") ||
				name == "id" && strings.HasPrefix(rest, "must have") || name == "replace" && strings.HasPrefix(rest, "replacement"))
		})
		if name == "pattern" {
			// the form's own compile status line already says it.
			fd.diags = filterOut(fd.diags, "pattern failed to compile")
		}
		fields = append(fields, fd)
	}
	for _, k := range rule.Keys() {
		if known[k] {
			continue
		}
		v, _ := rule.Get(k)
		fields = append(fields, field{name: k, path: Path{"regex", "rules", f.row, k}, label: "regex.rules." + k,
			kind: kindJSON, value: v, present: true, unknown: true, note: "kept as raw JSON (e.g. source metadata)"})
	}
	fl.fields = fields
	fl.row = clamp(row, 0, len(fields)-1)
	return fl
}

// filterOut drops diagnostics containing text (shown elsewhere already).
func filterOut(ds []diagLine, text string) []diagLine {
	var out []diagLine
	for _, d := range ds {
		if !strings.Contains(d.text, text) {
			out = append(out, d)
		}
	}
	return out
}

// ruleDiags are the diagnostics of rule i not attached to a field.
func (f *regexForm) ruleDiags(i int) []diagLine {
	rule, _ := f.rules[i].(*jsonv.Object)
	label := ruleLabel(rule, i) + " "
	return diagsWhere(f.ctx.Diagnostics, hasPrefix(label))
}

func (f *regexForm) setRules(rules []any, label string) tea.Cmd {
	if !f.rulesOK && objectAt(f.ctx.Draft, Path{"regex"}) == nil {
		o := jsonv.NewObject()
		o.Set("schemaVersion", float64(1))
		o.Set("rules", rules)
		return edit(Path{"regex"}, o, label)
	}
	return editAt(f.ctx.Draft, Path{"regex", "rules"}, rules, label)
}

// newRuleID is the first "rule-N" id not used by another rule.
func (f *regexForm) newRuleID() string {
	used := map[string]bool{}
	for _, r := range f.rules {
		if o, ok := r.(*jsonv.Object); ok {
			if id, ok := o.Get("id"); ok {
				used[jsonv.ToString(id)] = true
			}
		}
	}
	for n := len(f.rules) + 1; ; n++ {
		if id := "rule-" + strconv.Itoa(n); !used[id] {
			return id
		}
	}
}

func (f *regexForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	kp, isKey := msg.(tea.KeyPressMsg)
	if f.pane == 1 {
		if !f.detail.editing && isKey && (key.Matches(kp, f.keys.List) || key.Matches(kp, f.keys.Cancel)) {
			f.pane = 0
			return f, nil
		}
		_, cmd := f.detail.update(msg)
		return f, cmd
	}
	if !isKey {
		return f, nil
	}
	k := f.keys
	n := len(f.rules)
	switch {
	case key.Matches(kp, k.Up):
		f.row = clamp(f.row-1, 0, n-1)
		f.detail = f.buildDetail(0)
	case key.Matches(kp, k.Down):
		f.row = clamp(f.row+1, 0, n-1)
		f.detail = f.buildDetail(0)
	case key.Matches(kp, k.Add):
		rule := jsonv.NewObject()
		rule.Set("id", f.newRuleID())
		rule.Set("enabled", true)
		rule.Set("stage", "history")
		rule.Set("pattern", "")
		rule.Set("replace", "")
		rules := append(append([]any(nil), f.rules...), rule)
		// The panel re-creates the form with the new rule; the cursor it
		// restores opens the new rule's fields.
		f.next = &Cursor{Row: len(rules) - 1, Pane: 1}
		return f, f.setRules(rules, "regex.rules add")
	case n == 0:
		return f, nil
	case key.Matches(kp, k.Detail), key.Matches(kp, k.Edit):
		f.pane = 1
	case key.Matches(kp, k.Toggle):
		rule, ok := f.rules[f.row].(*jsonv.Object)
		if !ok {
			return f, nil
		}
		enabled := true
		if v, ok := rule.Get("enabled"); ok && v == false {
			enabled = false
		}
		return f, edit(Path{"regex", "rules", f.row, "enabled"}, !enabled, "regex.rules."+f.ruleID(f.row)+".enabled")
	case key.Matches(kp, k.Delete):
		return f, f.setRules(without(f.rules, f.row), "regex.rules delete "+f.ruleID(f.row))
	case key.Matches(kp, k.MoveUp), key.Matches(kp, k.MoveDown):
		j := f.row + moveStep(kp, k)
		if j < 0 || j >= n {
			return f, nil
		}
		id := f.ruleID(f.row)
		rules := swapped(f.rules, f.row, j)
		f.row = j
		return f, f.setRules(rules, "regex.rules move "+id)
	}
	return f, nil
}

// ruleID names rule i in undo labels.
func (f *regexForm) ruleID(i int) string {
	rule, _ := f.rules[i].(*jsonv.Object)
	l := ruleLabel(rule, i)
	return strings.TrimPrefix(strings.TrimPrefix(l, "Regex rule "), "regex rule ")
}

// ruleSummary is the list line of rule i.
func (f *regexForm) ruleSummary(i int) string {
	rule, ok := f.rules[i].(*jsonv.Object)
	if !ok {
		return "    (not an object: " + truncate(jsonv.Stringify(f.rules[i]), 40) + ")"
	}
	box := "[x]"
	if v, ok := rule.Get("enabled"); ok && v == false {
		box = "[ ]"
	}
	get := func(k string) string {
		v, ok := rule.Get(k)
		if !ok {
			return ""
		}
		if s, isString := v.(string); isString {
			return s
		}
		return jsonv.Stringify(v)
	}
	mark := ""
	if len(f.ruleDiags(i)) > 0 {
		mark = " ⚠"
	} else if f.status[i].level != "ok" {
		mark = " ✗"
	}
	stage := get("stage")
	if e := get("effect"); e != "" && e != "outgoing" {
		stage += "/" + e
	}
	return fmt.Sprintf("%s %s%s  %s  /%s/%s", box, f.ruleID(i), mark, stage, get("pattern"), get("flags"))
}

func (f *regexForm) CapturesInput() bool { return f.pane == 1 && f.detail.editing }
func (f *regexForm) Title() string       { return "Regex rules" }
func (f *regexForm) cursor() Cursor {
	if f.next != nil {
		return *f.next
	}
	return Cursor{Row: f.row, Detail: f.detail.row, Pane: f.pane}
}

func (f *regexForm) ShortHelp() []key.Binding {
	if f.pane == 1 {
		bs := f.detail.help()
		if !f.detail.editing {
			bs = append(bs, f.keys.List)
		}
		return bs
	}
	k := f.keys
	if len(f.rules) == 0 {
		return []key.Binding{k.Add}
	}
	return []key.Binding{k.Up, k.Down, k.Detail, k.Toggle, k.Add, k.Delete, k.MoveUp, k.MoveDown}
}

// stringField reads a string member of o ("" when absent or not a string).
func stringField(o *jsonv.Object, name string) string {
	if o == nil {
		return ""
	}
	v, _ := o.Get(name)
	s, _ := v.(string)
	return s
}
