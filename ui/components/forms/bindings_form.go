package forms

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// bindingFieldSpecs are the editable fields of one binding (spec §9.4);
// names with a dot live under overrides.
var bindingFieldSpecs = []optionSpec{
	{"ref", kindString, "", nil, i18n.Mark("project:<id>, global:<id> or bare <id> (the Preset's scope); p picks")},
	{"id", kindString, "", nil, i18n.Mark("binding id; default the ref's id")},
	{"modelCallable", kindBool, "false", nil, i18n.Mark("the agent may enable it (default human-only)")}, //i18n:raw the field's name is a JSON key
	{"overrides.content", kindString, "", nil, i18n.Mark("replaces the content (not with appendContent); JSON escapes")},
	{"overrides.appendContent", kindString, "", nil, i18n.Mark("appended after a blank line; JSON escapes")}, //i18n:raw the field's name is a JSON key
	{"overrides.tools.add", kindJSON, "", nil, i18n.Mark("replaces tools.add; [] clears it")},
	{"overrides.tools.remove", kindJSON, "", nil, i18n.Mark("replaces tools.remove; [] clears it")},
}

// pickItem is one capability offered by the picker.
type pickItem struct {
	ref, label string
	allowed    bool
}

// bindingsForm edits `capabilities` and shows each binding's source
// capability next to its effective value after overrides.
type bindingsForm struct {
	base
	raw        []any
	resolution capability.Resolution
	bound      map[int]*capability.BoundCapability
	// typed are the bindings' typed views, aligned with raw (nil where a
	// binding is not an object).
	typed []*preset.CapabilityBinding
	entryPanes
	diags []diagLine

	picking bool
	pickRef bool // the pick replaces the focused binding's ref
	picks   []pickItem
	picker  *common.List[common.TextRow]
}

func newBindings(ctx Context, o options) Form {
	f := &bindingsForm{base: newBase(ctx, o), bound: map[int]*capability.BoundCapability{}}
	f.raw, _ = valueAt(f.ctx.Draft, Path{"capabilities"}).([]any)
	scope := f.ctx.Scope
	if scope == "" {
		scope = preset.ScopeProject
	}
	catalog := capability.NewCatalog()
	if f.ctx.Library != nil && f.ctx.Library.CapabilityCatalog() != nil {
		catalog = f.ctx.Library.CapabilityCatalog()
	}
	f.typed = aligned(f.raw, f.ctx.Stack.CapabilityBindings())
	f.resolution = capability.ResolveBindings(f.ctx.Stack, scope, catalog)
	for i := range f.resolution.Bindings {
		b := &f.resolution.Bindings[i]
		f.bound[b.Index] = b
	}
	summaries := make([]string, len(f.raw))
	for i := range f.raw {
		summaries[i] = f.bindingSummary(i)
	}
	f.setEntries(summaries, o.cursor)
	f.detail = f.buildDetail(o.cursor.Detail)
	f.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix("Preset capabilities", "Duplicate capability binding id", "Exceeded maximum bindings")) //i18n:raw pi-forge's diagnostics, matched
	if f.resolution.Error != "" && f.resolution.ErrorIndex < 0 {
		f.diags = append(f.diags, diagLine{string(preset.LevelError), f.resolution.Error})
	}
	if f.ctx.Library != nil {
		for _, c := range f.ctx.Library.Capabilities {
			item := pickItem{ref: string(c.Scope) + ":" + c.ID, allowed: true}
			item.label = sanitize.Line(item.ref)
			if c.Capability != nil {
				item.label += " — " + sanitize.Line(c.Capability.DisplayName())
			}
			if !c.Usable() {
				item.label += " " + i18n.T("(has errors)")
			}
			if scope == preset.ScopeGlobal && c.Scope == preset.ScopeProject {
				item.allowed = false
				item.label += " " + i18n.T("(a global Preset cannot bind project capabilities)")
			}
			f.picks = append(f.picks, item)
		}
	}
	f.picks = append(f.picks, pickItem{label: i18n.T("… type a ref by hand (adds an empty ref to fill in)"), allowed: true})
	f.picker = common.NewList(common.RenderTextRow)
	rows := make([]common.TextRow, len(f.picks))
	for i, p := range f.picks {
		rows[i] = common.TextRow{Text: p.label, Dim: !p.allowed}
	}
	f.picker.SetItems(rows)
	return f
}

// bindingName names binding i for labels and the list.
func (f *bindingsForm) bindingName(i int) string {
	if b := f.bound[i]; b != nil && b.ID != "" {
		return b.ID
	}
	if t := f.typed[i]; t != nil && t.Ref != "" {
		return t.Ref
	}
	return fmt.Sprintf("#%d", i+1)
}

func (f *bindingsForm) buildDetail(row int) fieldList {
	fl := newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
	fl.noArrowCycle = true
	if len(f.raw) == 0 {
		return fl
	}
	binding, ok := f.raw[f.row()].(*jsonv.Object)
	if !ok {
		return fl
	}
	name := f.bindingName(f.row())
	known := map[string]bool{"overrides": true}
	var fields []field
	for _, spec := range bindingFieldSpecs {
		path := Path{"capabilities", f.row()}
		for _, part := range strings.Split(spec.name, ".") {
			path = append(path, part)
		}
		known[spec.name] = true
		fd := field{name: spec.name, path: path, label: "capabilities." + name + "." + spec.name, kind: spec.kind,
			def: spec.def, note: i18n.T(spec.note), escaped: strings.HasSuffix(spec.name, "ontent")}
		fd.value = valueAt(f.ctx.Draft, path)
		fd.present = present(f.ctx.Draft, path)
		if fd.present && !fitsKind(fd.kind, fd.value) {
			fd.kind = kindJSON
		}
		fields = append(fields, fd)
	}
	for _, k := range binding.Keys() {
		if known[k] {
			continue
		}
		v, _ := binding.Get(k)
		fields = append(fields, field{name: k, path: Path{"capabilities", f.row(), k}, label: "capabilities." + name + "." + k,
			kind: kindJSON, value: v, present: true, unknown: true, note: i18n.T("not a binding field: delete it (x)")})
	}
	if ov := objectAt(f.ctx.Draft, Path{"capabilities", f.row(), "overrides"}); ov != nil {
		for _, k := range ov.Keys() {
			if k == "content" || k == "appendContent" || k == "tools" {
				continue
			}
			v, _ := ov.Get(k)
			fields = append(fields, field{name: "overrides." + k, path: Path{"capabilities", f.row(), "overrides", k},
				label: "capabilities." + name + ".overrides." + k, kind: kindJSON, value: v, present: true, unknown: true,
				note: i18n.T("not an override field: delete it (x)")})
		}
	}
	fl.setFields(fields, row)
	return fl
}

// bindingDiags are the diagnostics of binding i: its own validation, its
// resolution error, and the Preset diagnostics that quote its ref or id.
func (f *bindingsForm) bindingDiags(i int) []diagLine {
	var out []diagLine
	seen := map[string]bool{}
	addLine := func(level, text string) {
		if !seen[text] {
			seen[text] = true
			out = append(out, diagLine{level, text})
		}
	}
	if b := f.bound[i]; b != nil {
		for _, d := range b.Diagnostics {
			addLine(string(d.Level), d.Message)
		}
		if b.Error != "" {
			addLine(string(preset.LevelError), b.Error)
		}
	}
	// Preset-level messages name a binding by id or ref after ": " or in
	// quotes ("Duplicate capability binding id: <id>", "Global binding
	// cannot reference project capability: <ref>.").
	names := []string{f.bindingName(i)}
	if t := f.typed[i]; t != nil && t.Ref != "" {
		names = append(names, t.Ref)
	}
	for _, d := range f.ctx.Diagnostics {
		if !strings.Contains(strings.ToLower(d.Message), "binding") {
			continue
		}
		for _, n := range names {
			if strings.HasSuffix(d.Message, ": "+n) || strings.HasSuffix(d.Message, ": "+n+".") ||
				strings.Contains(d.Message, `"`+n+`"`) {
				addLine(string(d.Level), d.Message)
				break
			}
		}
	}
	return out
}

func (f *bindingsForm) setBindings(list []any, label string) tea.Cmd {
	return editAt(f.ctx.Draft, Path{"capabilities"}, list, label)
}

func (f *bindingsForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	kp, isKey := msg.(tea.KeyPressMsg)
	k := f.keys
	switch {
	case f.picking && isKey:
		return f, f.updatePicker(kp)
	case f.picking:
		return f, nil
	case f.pane == 1 && isKey && !f.detail.editing() && key.Matches(kp, k.Pick):
		f.openPicker(true)
		return f, nil
	}
	e, cmd, done := f.routeKey(msg, k, f.raw, func() { f.setDetail(f.buildDetail(0)) })
	if e.next != nil {
		return f, f.setBindings(e.next, "capabilities "+e.verb+" "+f.bindingName(e.from))
	}
	if done {
		return f, cmd
	}
	switch {
	case key.Matches(kp, k.Add):
		f.openPicker(false)
	case len(f.raw) == 0:
	case key.Matches(kp, k.Detail), key.Matches(kp, k.Edit):
		f.pane = 1
	case key.Matches(kp, k.Pick):
		f.openPicker(true)
	case key.Matches(kp, k.Toggle):
		t := f.typed[f.row()]
		if t == nil {
			return f, nil
		}
		return f, edit(Path{"capabilities", f.row(), "modelCallable"}, !t.ModelCallable, "capabilities."+f.bindingName(f.row())+".modelCallable") //i18n:raw JSON keys: the path and the edit's label
	}
	return f, nil
}

func (f *bindingsForm) openPicker(replaceRef bool) {
	if replaceRef && f.typed[f.row()] == nil {
		return
	}
	f.picking, f.pickRef = true, replaceRef
	f.picker.SetCursor(0)
}

func (f *bindingsForm) updatePicker(kp tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	switch {
	case key.Matches(kp, k.Cancel), key.Matches(kp, k.List):
		f.picking = false
	case key.Matches(kp, k.Up):
		f.picker.Move(-1)
	case key.Matches(kp, k.Down):
		f.picker.Move(1)
	case key.Matches(kp, k.Commit), key.Matches(kp, k.Toggle):
		i := f.picker.SelectedIndex()
		if i < 0 || !f.picks[i].allowed {
			return nil
		}
		ref := f.picks[i].ref
		f.picking = false
		if ref == "" {
			// by hand: the ref field opens in the detail pane.
			if f.pickRef {
				f.pane = 1
				f.detail.list.SetCursor(0)
				return nil
			}
			b := jsonv.NewObject()
			b.Set("ref", "")
			f.next = &Cursor{Row: len(f.raw), Pane: 1}
			return f.setBindings(append(append([]any(nil), f.raw...), b), "capabilities add") //i18n:raw the edit's label names the JSON key, as every field edit's label does
		}
		if f.pickRef {
			return edit(Path{"capabilities", f.row(), "ref"}, ref, "capabilities."+f.bindingName(f.row())+".ref")
		}
		b := jsonv.NewObject()
		b.Set("ref", ref)
		list := append(append([]any(nil), f.raw...), b)
		f.next = &Cursor{Row: len(list) - 1}
		return f.setBindings(list, "capabilities add "+ref) //i18n:raw the edit's label names the JSON key, as every field edit's label does
	}
	return nil
}

func (f *bindingsForm) CapturesInput() bool { return f.picking || f.capturesInput() }
func (f *bindingsForm) Title() string       { return i18n.T("Capability bindings") }

func (f *bindingsForm) ShortHelp() []key.Binding {
	k := f.keys
	switch {
	case f.picking:
		return []key.Binding{k.Up, k.Down, k.Commit, k.Cancel}
	case f.pane == 1:
		return f.detailHelp(k, k.Pick)
	case len(f.raw) == 0:
		return []key.Binding{k.Add}
	}
	return []key.Binding{k.Up, k.Down, k.Detail, k.Toggle, k.Add, k.Pick, k.Delete, k.MoveUp, k.MoveDown}
}
