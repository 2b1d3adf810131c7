package forms

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// Policy modes shown by the policy form.
const (
	policyNone  = "none"
	policyAllow = "allow"
	policyDeny  = "deny"
)

// policyRowKind is what a row of the policy form edits.
type policyRowKind int

const (
	rowMode policyRowKind = iota
	rowPattern
	rowAddPattern
	rowTool
	rowInitialSet
	rowInitial
	rowAddInitial
)

type policyRow struct {
	kind  policyRowKind
	index int // pattern, known tool or initial entry
}

// policyForm edits `tools` or `skills` (spec §5).
type policyForm struct {
	base
	field      string
	raw        *jsonv.Object
	mode       string
	both       bool
	patterns   []string
	initial    []string
	hasInitial bool
	rows       []policyRow
	// row is the focused row of rows; list draws them (its cursor is on
	// the row being edited while the prompt is open).
	row   int
	list  *common.List[policyItem]
	diags []diagLine
	width int // of the last view: the editor's width follows it

	edit   prompt
	target policyRow
}

func newPolicy(ctx Context, field string, o options) Form {
	f := &policyForm{base: newBase(ctx, o), field: field}
	f.raw = objectAt(f.ctx.Draft, Path{field})
	f.mode = policyNone
	if f.raw != nil {
		allow, hasAllow := f.raw.Get("allow")
		deny, hasDeny := f.raw.Get("deny")
		switch {
		case hasAllow:
			f.mode, f.patterns = policyAllow, stringList(allow)
			f.both = hasDeny
		case hasDeny:
			f.mode, f.patterns = policyDeny, stringList(deny)
		}
		if init, ok := f.raw.Get("initial"); ok && field == "tools" {
			f.initial, f.hasInitial = stringList(init), true
		}
	}
	f.rows = append(f.rows, policyRow{kind: rowMode})
	for i := range f.patterns {
		f.rows = append(f.rows, policyRow{kind: rowPattern, index: i})
	}
	f.rows = append(f.rows, policyRow{kind: rowAddPattern})
	if field == "tools" {
		for i := range f.ctx.KnownTools {
			f.rows = append(f.rows, policyRow{kind: rowTool, index: i})
		}
		f.rows = append(f.rows, policyRow{kind: rowInitialSet})
		if f.hasInitial {
			for i := range f.initial {
				f.rows = append(f.rows, policyRow{kind: rowInitial, index: i})
			}
			f.rows = append(f.rows, policyRow{kind: rowAddInitial})
		}
	}
	f.row = common.Clamp(o.cursor.Row, 0, len(f.rows)-1)
	f.list = common.NewList(renderPolicyRow)
	f.refresh()
	f.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix(field+" policy", field+".", "Duplicate "+field+".")) //i18n:raw pi-forge's diagnostics, matched
	if _, ok := f.ctx.Draft.Get(field); ok && f.raw == nil {
		f.diags = append(f.diags, diagLine{string(preset.LevelError), i18n.T("%s is not an object; committing replaces it", field)})
	}
	return f
}

// modeKey is the draft key of the pattern list ("allow" or "deny").
func (f *policyForm) modeKey() string {
	if f.mode == policyDeny {
		return policyDeny
	}
	return policyAllow
}

// policy is the form's policy as the engine sees it.
func (f *policyForm) policy() *preset.ResourcePolicy {
	p := &preset.ResourcePolicy{}
	switch f.mode {
	case policyAllow:
		p.Allow = f.patterns
	case policyDeny:
		p.Deny = f.patterns
	}
	return p
}

// matchedBy returns the patterns that select name.
func (f *policyForm) matchedBy(name string) []string {
	var out []string
	for _, p := range f.patterns {
		if preset.PatternMatches(name, p) {
			out = append(out, p)
		}
	}
	return out
}

// rebuilt returns a new policy object: the draft's keys in their order,
// keys in set replaced, dropped keys removed; a new key of set takes the
// place of the first dropped key, so switching allow ↔ deny keeps its spot.
func (f *policyForm) rebuilt(set map[string]any, drop ...string) *jsonv.Object {
	o := jsonv.NewObject()
	placed := map[string]bool{}
	placeNew := func() {
		for _, k := range []string{"allow", "deny", "initial"} {
			if v, ok := set[k]; ok && !placed[k] {
				o.Set(k, v)
				placed[k] = true
				return
			}
		}
	}
	dropped := map[string]bool{}
	for _, k := range drop {
		dropped[k] = true
	}
	if f.raw != nil {
		for _, k := range f.raw.Keys() {
			if dropped[k] {
				placeNew()
				continue
			}
			if v, ok := set[k]; ok {
				o.Set(k, v)
				placed[k] = true
				continue
			}
			v, _ := f.raw.Get(k)
			o.Set(k, v)
		}
	}
	for _, k := range []string{"allow", "deny", "initial"} {
		if v, ok := set[k]; ok && !placed[k] {
			o.Set(k, v)
		}
	}
	return o
}

// setPatterns emits the new pattern list under the current mode (allow when
// the mode is none).
func (f *policyForm) setPatterns(patterns []string) tea.Cmd {
	if f.mode == policyNone || f.both {
		k := f.modeKey()
		other := policyDeny
		if k == policyDeny {
			other = policyAllow
		}
		return edit(Path{f.field}, f.rebuilt(map[string]any{k: toAnyList(patterns)}, other), f.field+"."+k)
	}
	return editAt(f.ctx.Draft, Path{f.field, f.modeKey()}, toAnyList(patterns), f.field+"."+f.modeKey())
}

// setMode emits the policy with the pattern list moved to mode. The list
// each mode had is remembered (Context.Memory): leaving a mode for none
// and coming back restores its patterns; allow ↔ deny moves the list.
func (f *policyForm) setMode(mode string) tea.Cmd {
	label := f.field + ".mode"
	mem := f.ctx.Memory
	if f.mode != policyNone {
		mem.remember(f.field+"."+f.mode, f.patterns)
		mem.remember(f.field+".last", f.patterns)
	}
	switch mode {
	case policyNone:
		return edit(Path{f.field}, f.rebuilt(nil, "allow", "deny"), label)
	default:
		other := policyDeny
		if mode == policyDeny {
			other = policyAllow
		}
		patterns := f.patterns
		if f.mode == policyNone {
			patterns, _ = mem.recall(f.field + "." + mode)
			if len(patterns) == 0 {
				patterns, _ = mem.recall(f.field + ".last")
			}
		}
		return edit(Path{f.field}, f.rebuilt(map[string]any{mode: toAnyList(patterns)}, other), label)
	}
}

func nextMode(mode string, step int) string {
	modes := []string{policyNone, policyAllow, policyDeny}
	for i, m := range modes {
		if m == mode {
			return modes[((i+step)%3+3)%3]
		}
	}
	return policyAllow
}

func (f *policyForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	defer f.refresh()
	if f.edit.open {
		return f, f.edit.update(msg, f.keys, func(text string, _ tea.KeyPressMsg) (tea.Cmd, error) {
			return f.commit(strings.TrimSpace(text))
		}, f.keys.FieldPrev, f.keys.FieldNext)
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	return f.handleKey(kp, f.rows[f.row])
}

// handleKey is Update for a key when no text is being typed.
func (f *policyForm) handleKey(kp tea.KeyPressMsg, r policyRow) (Form, tea.Cmd) {
	k := f.keys
	switch {
	case key.Matches(kp, k.Up):
		f.row = common.Clamp(f.row-1, 0, len(f.rows)-1)
	case key.Matches(kp, k.Down):
		f.row = common.Clamp(f.row+1, 0, len(f.rows)-1)
	case key.Matches(kp, k.Top):
		f.row = 0
	case key.Matches(kp, k.Bottom):
		f.row = len(f.rows) - 1
	case key.Matches(kp, k.PageUp):
		f.row = common.Clamp(f.row-10, 0, len(f.rows)-1)
	case key.Matches(kp, k.PageDown):
		f.row = common.Clamp(f.row+10, 0, len(f.rows)-1)
	case key.Matches(kp, k.Mode):
		return f, f.setMode(nextMode(f.mode, 1))
	case r.kind == rowMode && (key.Matches(kp, k.Toggle) || key.Matches(kp, k.Edit) || key.Matches(kp, k.Cycle)):
		return f, f.setMode(nextMode(f.mode, 1))
	case r.kind == rowMode && key.Matches(kp, k.CycleBck):
		return f, f.setMode(nextMode(f.mode, -1))
	case r.kind == rowTool && (key.Matches(kp, k.Toggle) || key.Matches(kp, k.Edit)):
		return f, f.toggleTool(f.ctx.KnownTools[r.index])
	case r.kind == rowInitialSet && (key.Matches(kp, k.Toggle) || key.Matches(kp, k.Edit)):
		if f.hasInitial {
			return f, remove(Path{f.field, "initial"}, "tools.initial")
		}
		return f, editAt(f.ctx.Draft, Path{f.field, "initial"}, []any{}, "tools.initial")
	case key.Matches(kp, k.Edit) && (r.kind == rowPattern || r.kind == rowInitial):
		f.startEdit(r)
	case key.Matches(kp, k.Add), key.Matches(kp, k.Edit) && (r.kind == rowAddPattern || r.kind == rowAddInitial):
		switch r.kind {
		case rowInitialSet, rowInitial, rowAddInitial:
			if f.hasInitial {
				f.startEdit(policyRow{kind: rowAddInitial})
			}
		default:
			f.startEdit(policyRow{kind: rowAddPattern})
		}
	case key.Matches(kp, k.Delete):
		switch r.kind {
		case rowPattern:
			return f, f.setPatterns(without(f.patterns, r.index))
		case rowInitial:
			return f, editAt(f.ctx.Draft, Path{f.field, "initial"}, toAnyList(without(f.initial, r.index)), "tools.initial")
		}
	case key.Matches(kp, k.MoveUp), key.Matches(kp, k.MoveDown):
		step := moveStep(kp, k)
		if r.kind == rowPattern && r.index+step >= 0 && r.index+step < len(f.patterns) {
			f.row += step
			return f, f.setPatterns(swapped(f.patterns, r.index, r.index+step))
		}
	}
	return f, nil
}

// toggleTool removes the exact pattern name when listed, else adds it.
// The pattern rows sit above the tool rows, so the cursor moves with the
// inserted or removed row and stays on the tool.
func (f *policyForm) toggleTool(name string) tea.Cmd {
	for i, p := range f.patterns {
		if p == name {
			f.row--
			return f.setPatterns(without(f.patterns, i))
		}
	}
	f.row++
	return f.setPatterns(append(append([]string(nil), f.patterns...), name))
}

func (f *policyForm) startEdit(r policyRow) {
	value, label := "", i18n.T("new pattern: ")
	switch r.kind {
	case rowPattern:
		value, label = f.patterns[r.index], ""
	case rowInitial:
		value, label = f.initial[r.index], ""
	case rowAddInitial:
		label = i18n.T("new initial tool: ")
	}
	f.target = r
	f.edit.start(f.styles, &f.keys.Text, label, value)
}

func (f *policyForm) commit(text string) (tea.Cmd, error) {
	t := f.target
	switch t.kind {
	case rowPattern, rowAddPattern:
		if text == "" {
			return nil, errors.New(i18n.T("a pattern cannot be empty (d deletes it)"))
		}
		list := append([]string(nil), f.patterns...)
		if t.kind == rowPattern {
			if list[t.index] == text {
				return nil, nil
			}
			list[t.index] = text
		} else {
			list = append(list, text)
			// The new pattern's row comes before "+ add pattern": the
			// cursor stays on the add row (or on the tool it came from).
			f.row++
		}
		return f.setPatterns(list), nil
	default:
		if !preset.IsValidToolName(text) {
			return nil, errors.New(i18n.T("%q is not a concrete tool name (no spaces or wildcards)", text))
		}
		list := append([]string(nil), f.initial...)
		if t.kind == rowInitial {
			list[t.index] = text
		} else {
			list = append(list, text)
			f.row++ // stays on "+ add initial tool"
		}
		return editAt(f.ctx.Draft, Path{f.field, "initial"}, toAnyList(list), "tools.initial"), nil
	}
}

func (f *policyForm) CapturesInput() bool { return f.edit.open }
func (f *policyForm) Title() string       { return i18n.T("Policy · %s", f.field) }
func (f *policyForm) cursor() Cursor      { return Cursor{Row: f.row} }

func (f *policyForm) ShortHelp() []key.Binding {
	if f.edit.open {
		return []key.Binding{f.keys.Commit, f.keys.Cancel}
	}
	k := f.keys
	bs := []key.Binding{k.Up, k.Down, k.Mode}
	switch f.rows[f.row].kind {
	case rowPattern:
		bs = append(bs, k.Edit, k.Delete, k.MoveUp, k.MoveDown, k.Add)
	case rowInitial:
		bs = append(bs, k.Edit, k.Delete, k.Add)
	case rowTool, rowInitialSet:
		bs = append(bs, k.Toggle)
	default:
		bs = append(bs, k.Add)
	}
	return bs
}
