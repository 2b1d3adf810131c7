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
)

// bindingFieldSpecs are the editable fields of one binding (spec §9.4);
// names with a dot live under overrides.
var bindingFieldSpecs = []optionSpec{
	{"ref", kindString, "", nil, "project:<id>, global:<id> or bare <id> (the Preset's scope); p picks"},
	{"id", kindString, "", nil, "binding id; default the ref's id"},
	{"modelCallable", kindBool, "false", nil, "the agent may enable it (default human-only)"},
	{"overrides.content", kindString, "", nil, "replaces the content (not with appendContent); JSON escapes"},
	{"overrides.appendContent", kindString, "", nil, "appended after a blank line; JSON escapes"},
	{"overrides.tools.add", kindJSON, "", nil, "replaces tools.add; [] clears it"},
	{"overrides.tools.remove", kindJSON, "", nil, "replaces tools.remove; [] clears it"},
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
	row        int
	pane       int
	detail     fieldList
	diags      []diagLine

	picking bool
	pickRef bool // the pick replaces the focused binding's ref
	picks   []pickItem
	pickRow int
	// next is the cursor for the re-created form after an add.
	next *Cursor
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
	if stack, _ := preset.ParseValue(f.ctx.Draft, "draft.json", preset.ParseOptions{Scope: scope}); stack != nil {
		f.resolution = capability.ResolveBindings(stack, scope, catalog)
		for i := range f.resolution.Bindings {
			b := &f.resolution.Bindings[i]
			f.bound[b.Index] = b
		}
	}
	f.row = clamp(o.cursor.Row, 0, len(f.raw)-1)
	if len(f.raw) > 0 {
		f.pane = clamp(o.cursor.Pane, 0, 1)
	}
	f.detail = f.buildDetail(o.cursor.Detail)
	f.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix("Preset capabilities", "Duplicate capability binding id", "Exceeded maximum bindings"))
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
				item.label += " (has errors)"
			}
			if scope == preset.ScopeGlobal && c.Scope == preset.ScopeProject {
				item.allowed = false
				item.label += " (a global Preset cannot bind project capabilities)"
			}
			f.picks = append(f.picks, item)
		}
	}
	f.picks = append(f.picks, pickItem{label: "… type a ref by hand (adds an empty ref to fill in)", allowed: true})
	return f
}

// bindingName names binding i for labels and the list.
func (f *bindingsForm) bindingName(i int) string {
	if b := f.bound[i]; b != nil && b.ID != "" {
		return b.ID
	}
	if o, ok := f.raw[i].(*jsonv.Object); ok {
		if ref, ok := o.Get("ref"); ok {
			return jsonv.ToString(ref)
		}
	}
	return fmt.Sprintf("#%d", i+1)
}

func (f *bindingsForm) buildDetail(row int) fieldList {
	fl := newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
	fl.noArrowCycle = true
	if len(f.raw) == 0 {
		return fl
	}
	binding, ok := f.raw[f.row].(*jsonv.Object)
	if !ok {
		return fl
	}
	name := f.bindingName(f.row)
	known := map[string]bool{"overrides": true}
	var fields []field
	for _, spec := range bindingFieldSpecs {
		path := Path{"capabilities", f.row}
		for _, part := range strings.Split(spec.name, ".") {
			path = append(path, part)
		}
		known[spec.name] = true
		fd := field{name: spec.name, path: path, label: "capabilities." + name + "." + spec.name, kind: spec.kind,
			def: spec.def, note: spec.note, escaped: strings.HasSuffix(spec.name, "ontent")}
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
		fields = append(fields, field{name: k, path: Path{"capabilities", f.row, k}, label: "capabilities." + name + "." + k,
			kind: kindJSON, value: v, present: true, unknown: true, note: "not a binding field: delete it (x)"})
	}
	if ov := objectAt(f.ctx.Draft, Path{"capabilities", f.row, "overrides"}); ov != nil {
		for _, k := range ov.Keys() {
			if k == "content" || k == "appendContent" || k == "tools" {
				continue
			}
			v, _ := ov.Get(k)
			fields = append(fields, field{name: "overrides." + k, path: Path{"capabilities", f.row, "overrides", k},
				label: "capabilities." + name + ".overrides." + k, kind: kindJSON, value: v, present: true, unknown: true,
				note: "not an override field: delete it (x)"})
		}
	}
	fl.fields = fields
	fl.row = clamp(row, 0, len(fields)-1)
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
	if o, ok := f.raw[i].(*jsonv.Object); ok {
		if ref := stringField(o, "ref"); ref != "" {
			names = append(names, ref)
		}
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
	if f.picking {
		if isKey {
			return f, f.updatePicker(kp)
		}
		return f, nil
	}
	if f.pane == 1 {
		if !f.detail.editing && isKey {
			switch {
			case key.Matches(kp, f.keys.List), key.Matches(kp, f.keys.Cancel):
				f.pane = 0
				return f, nil
			case key.Matches(kp, f.keys.Pick):
				f.openPicker(true)
				return f, nil
			}
		}
		_, cmd := f.detail.update(msg)
		return f, cmd
	}
	if !isKey {
		return f, nil
	}
	k := f.keys
	n := len(f.raw)
	switch {
	case key.Matches(kp, k.Up):
		f.row = clamp(f.row-1, 0, n-1)
		f.detail = f.buildDetail(0)
	case key.Matches(kp, k.Down):
		f.row = clamp(f.row+1, 0, n-1)
		f.detail = f.buildDetail(0)
	case key.Matches(kp, k.Add):
		f.openPicker(false)
	case n == 0:
	case key.Matches(kp, k.Detail), key.Matches(kp, k.Edit):
		f.pane = 1
	case key.Matches(kp, k.Pick):
		f.openPicker(true)
	case key.Matches(kp, k.Toggle):
		b, ok := f.raw[f.row].(*jsonv.Object)
		if !ok {
			return f, nil
		}
		v, _ := b.Get("modelCallable")
		return f, edit(Path{"capabilities", f.row, "modelCallable"}, v != true, "capabilities."+f.bindingName(f.row)+".modelCallable")
	case key.Matches(kp, k.Delete):
		return f, f.setBindings(without(f.raw, f.row), "capabilities delete "+f.bindingName(f.row))
	case key.Matches(kp, k.MoveUp), key.Matches(kp, k.MoveDown):
		j := f.row + moveStep(kp, k)
		if j < 0 || j >= n {
			return f, nil
		}
		name := f.bindingName(f.row)
		list := swapped(f.raw, f.row, j)
		f.row = j
		return f, f.setBindings(list, "capabilities move "+name)
	}
	return f, nil
}

func (f *bindingsForm) openPicker(replaceRef bool) {
	if replaceRef {
		if _, ok := f.raw[f.row].(*jsonv.Object); !ok {
			return
		}
	}
	f.picking, f.pickRef, f.pickRow = true, replaceRef, 0
}

func (f *bindingsForm) updatePicker(kp tea.KeyPressMsg) tea.Cmd {
	k := f.keys
	switch {
	case key.Matches(kp, k.Cancel), key.Matches(kp, k.List):
		f.picking = false
	case key.Matches(kp, k.Up):
		f.pickRow = clamp(f.pickRow-1, 0, len(f.picks)-1)
	case key.Matches(kp, k.Down):
		f.pickRow = clamp(f.pickRow+1, 0, len(f.picks)-1)
	case key.Matches(kp, k.Commit), key.Matches(kp, k.Toggle):
		if len(f.picks) == 0 || !f.picks[f.pickRow].allowed {
			return nil
		}
		ref := f.picks[f.pickRow].ref
		f.picking = false
		if ref == "" {
			// by hand: the ref field opens in the detail pane.
			if f.pickRef {
				f.pane, f.detail.row = 1, 0
				return nil
			}
			b := jsonv.NewObject()
			b.Set("ref", "")
			f.next = &Cursor{Row: len(f.raw), Pane: 1}
			return f.setBindings(append(append([]any(nil), f.raw...), b), "capabilities add")
		}
		if f.pickRef {
			return edit(Path{"capabilities", f.row, "ref"}, ref, "capabilities."+f.bindingName(f.row)+".ref")
		}
		b := jsonv.NewObject()
		b.Set("ref", ref)
		list := append(append([]any(nil), f.raw...), b)
		f.next = &Cursor{Row: len(list) - 1}
		return f.setBindings(list, "capabilities add "+ref)
	}
	return nil
}

func (f *bindingsForm) CapturesInput() bool { return f.picking || f.pane == 1 && f.detail.editing }
func (f *bindingsForm) Title() string       { return "Capability bindings" }
func (f *bindingsForm) cursor() Cursor {
	if f.next != nil {
		return *f.next
	}
	return Cursor{Row: f.row, Detail: f.detail.row, Pane: f.pane}
}

func (f *bindingsForm) ShortHelp() []key.Binding {
	k := f.keys
	switch {
	case f.picking:
		return []key.Binding{k.Up, k.Down, k.Commit, k.Cancel}
	case f.pane == 1:
		bs := f.detail.help()
		if !f.detail.editing {
			bs = append(bs, k.Pick, k.List)
		}
		return bs
	case len(f.raw) == 0:
		return []key.Binding{k.Add}
	}
	return []key.Binding{k.Up, k.Down, k.Detail, k.Toggle, k.Add, k.Pick, k.Delete, k.MoveUp, k.MoveDown}
}
