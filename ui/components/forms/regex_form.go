package forms

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/jsregex"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
)

// regexFieldSpecs are the fields of one rule (spec §6.1) in display order.
var regexFieldSpecs = []optionSpec{
	{"id", kindString, "", nil, i18n.Mark("required, unique")},
	{"name", kindString, "", nil, i18n.Mark("display name")},
	{"enabled", kindBool, "true", nil, ""},
	{"stage", kindEnum, "", []string{"history", "compiled"}, i18n.Mark("required")},
	{"effect", kindEnum, "outgoing", []string{"outgoing", "finalize"}, i18n.Mark("finalize rewrites the stored assistant message (stage compiled)")},
	{"frequency", kindEnum, "turn", []string{"turn", "request"}, i18n.Mark("request also runs on tool follow-up requests")},
	{"pattern", kindString, "", nil, i18n.Mark("JavaScript RegExp source")},
	{"flags", kindString, "", nil, i18n.Mark("subset of g i m s u")},
	{"replace", kindString, `""`, nil, i18n.Mark("$&, $1…$99, $<name>, $`, $', $$; edited with JSON escapes")},
	{"trimStrings", kindJSON, "", nil, i18n.Mark("string array removed from the match and captures")}, //i18n:raw the option's name and default are pi-forge's
	{"roles", kindJSON, "", nil, i18n.Mark(`string array of message roles, e.g. ["assistant"]`)},
	{"targets", kindJSON, "", nil, i18n.Mark(`compiled stage: ["system","messages"]; absent = both`)},
	{"maxMessages", kindNumber, "", nil, i18n.Mark("only the last N eligible messages")},    //i18n:raw the option's name and default are pi-forge's
	{"maxChars", kindNumber, "", nil, i18n.Mark("only the last N characters of each text")}, //i18n:raw the option's name and default are pi-forge's
	{"minDepth", kindNumber, "", nil, i18n.Mark("depth 0 = the last message")},              //i18n:raw the option's name and default are pi-forge's
	{"maxDepth", kindNumber, "", nil, i18n.Mark(">= minDepth")},                             //i18n:raw the option's name and default are pi-forge's
}

// regexForm edits regex.rules: a rule list and the focused rule's fields.
type regexForm struct {
	base
	rules   []any
	rulesOK bool
	// typed are the rules' typed views, aligned with rules (nil where a
	// rule is not an object).
	typed []*preset.RegexRule
	entryPanes
	diags []diagLine
	// status is each rule's compile result, computed once at construction
	// so View never compiles.
	status []diagLine
}

func newRegex(ctx Context, o options) Form {
	f := &regexForm{base: newBase(ctx, o)}
	if v, ok := valueAt(f.ctx.Draft, Path{"regex", "rules"}).([]any); ok {
		f.rules, f.rulesOK = v, true
	}
	f.typed = aligned(f.rules, f.ctx.Stack.RegexRules())
	for _, t := range f.typed {
		if t == nil {
			t = &preset.RegexRule{}
		}
		f.status = append(f.status, compileStatus(t.Pattern, t.Flags))
	}
	summaries := make([]string, len(f.rules))
	for i := range f.rules {
		summaries[i] = sanitize.Line(f.ruleSummary(i))
	}
	f.setEntries(summaries, o.cursor)
	f.detail = f.buildDetail(o.cursor.Detail)
	f.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix("regex.", "regex must", "Missing or unsupported regex.schemaVersion", "Duplicate regex rule id")) //i18n:raw pi-forge's diagnostics, matched
	return f
}

// ruleLabel is the diagnostics label of rule i (spec §6.2): its id as the
// engine trims it, else its position.
func (f *regexForm) ruleLabel(i int) string {
	if t := f.typed[i]; t != nil && t.ID != "" {
		return "Regex rule " + t.ID //i18n:raw pi-forge's diagnostics label, matched
	}
	return "regex rule " + strconv.Itoa(i+1) //i18n:raw pi-forge's diagnostics label, matched
}

// compileStatus compiles a rule's pattern with its flags like the engine.
func compileStatus(pattern, flags string) diagLine {
	if pattern == "" {
		return diagLine{string(preset.LevelError), i18n.T("pattern is empty")}
	}
	if _, err := jsregex.Compile(pattern, flags); err != nil {
		return diagLine{string(preset.LevelError), err.Error()}
	}
	return diagLine{"ok", i18n.T("compiles as /%s/%s", pattern, flags)}
}

func (f *regexForm) buildDetail(row int) fieldList {
	fl := newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
	fl.noArrowCycle = true
	if len(f.rules) == 0 {
		return fl
	}
	rule, _ := f.rules[f.row()].(*jsonv.Object)
	if rule == nil {
		return fl
	}
	label := f.ruleLabel(f.row())
	known := map[string]bool{}
	patternText, flagsText := f.typed[f.row()].Pattern, f.typed[f.row()].Flags
	var fields []field
	for _, spec := range regexFieldSpecs {
		known[spec.name] = true
		fd := field{name: spec.name, path: Path{"regex", "rules", f.row(), spec.name},
			label: "regex.rules." + strings.TrimPrefix(strings.TrimPrefix(label, "Regex rule "), "regex rule ") + "." + spec.name,
			kind:  spec.kind, def: spec.def, choices: spec.choices, note: i18n.T(spec.note)}
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
			fd.status = f.status[f.row()]
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
			fd.diags = filterOut(fd.diags, "pattern failed to compile") //i18n:raw pi-forge's diagnostic, matched
		}
		fields = append(fields, fd)
	}
	for _, k := range rule.Keys() {
		if known[k] {
			continue
		}
		v, _ := rule.Get(k)
		fields = append(fields, field{name: k, path: Path{"regex", "rules", f.row(), k}, label: "regex.rules." + k,
			kind: kindJSON, value: v, present: true, unknown: true, note: i18n.T("kept as raw JSON (e.g. source metadata)")})
	}
	fl.setFields(fields, row)
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
	return diagsWhere(f.ctx.Diagnostics, hasPrefix(f.ruleLabel(i)+" "))
}

func (f *regexForm) setRules(rules []any, label string) tea.Cmd {
	if !f.rulesOK && objectAt(f.ctx.Draft, Path{"regex"}) == nil {
		o := jsonv.NewObject()
		o.Set("schemaVersion", float64(1)) //i18n:raw JSON key
		o.Set("rules", rules)
		return edit(Path{"regex"}, o, label)
	}
	return editAt(f.ctx.Draft, Path{"regex", "rules"}, rules, label)
}

// newRuleID is the first "rule-N" id not used by another rule.
func (f *regexForm) newRuleID() string {
	used := map[string]bool{}
	for _, t := range f.typed {
		if t != nil {
			used[t.ID] = true
		}
	}
	for n := len(f.rules) + 1; ; n++ {
		if id := "rule-" + strconv.Itoa(n); !used[id] {
			return id
		}
	}
}

func (f *regexForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	k := f.keys
	e, cmd, done := f.routeKey(msg, k, f.rules, func() { f.setDetail(f.buildDetail(0)) })
	if e.next != nil {
		return f, f.setRules(e.next, "regex.rules "+e.verb+" "+f.ruleID(e.from))
	}
	if done {
		return f, cmd
	}
	kp := msg.(tea.KeyPressMsg)
	switch {
	case key.Matches(kp, k.Add):
		rule := jsonv.NewObject()
		rule.Set("id", f.newRuleID())
		rule.Set("enabled", true)
		rule.Set("stage", string(preset.StageHistory))
		rule.Set("pattern", "")
		rule.Set("replace", "")
		rules := append(append([]any(nil), f.rules...), rule)
		// The panel re-creates the form with the new rule; the cursor it
		// restores opens the new rule's fields.
		f.next = &Cursor{Row: len(rules) - 1, Pane: 1}
		return f, f.setRules(rules, "regex.rules add") //i18n:raw the edit's label names the JSON key
	case len(f.rules) == 0:
		return f, nil
	case key.Matches(kp, k.Detail), key.Matches(kp, k.Edit):
		f.pane = 1
	case key.Matches(kp, k.Toggle):
		t := f.typed[f.row()]
		if t == nil {
			return f, nil
		}
		return f, edit(Path{"regex", "rules", f.row(), "enabled"}, !t.Enabled, "regex.rules."+f.ruleID(f.row())+".enabled")
	}
	return f, nil
}

// ruleID names rule i in undo labels.
func (f *regexForm) ruleID(i int) string {
	l := f.ruleLabel(i)
	return strings.TrimPrefix(strings.TrimPrefix(l, "Regex rule "), "regex rule ")
}

// ruleSummary is the list line of rule i.
func (f *regexForm) ruleSummary(i int) string {
	t := f.typed[i]
	if t == nil {
		return "    " + i18n.T("(not an object: %s)", truncate(jsonv.Stringify(f.rules[i]), 40))
	}
	box := "[x]"
	if !t.Enabled {
		box = "[ ]"
	}
	mark := ""
	if len(f.ruleDiags(i)) > 0 {
		mark = " ⚠"
	} else if f.status[i].level != "ok" {
		mark = " ✗"
	}
	stage := string(t.Stage)
	if t.Effect != preset.EffectOutgoing {
		stage += "/" + string(t.Effect)
	}
	return fmt.Sprintf("%s %s%s  %s  /%s/%s", box, f.ruleID(i), mark, stage, t.Pattern, t.Flags)
}

func (f *regexForm) CapturesInput() bool { return f.capturesInput() }
func (f *regexForm) Title() string       { return i18n.T("Regex rules") }

func (f *regexForm) ShortHelp() []key.Binding {
	if f.pane == 1 {
		return f.detailHelp(f.keys)
	}
	k := f.keys
	if len(f.rules) == 0 {
		return []key.Binding{k.Add}
	}
	return []key.Binding{k.Up, k.Down, k.Detail, k.Toggle, k.Add, k.Delete, k.MoveUp, k.MoveDown}
}
