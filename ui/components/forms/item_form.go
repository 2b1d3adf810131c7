package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// itemForm edits one item's own properties: name, id (checked live: not
// empty, unique among the items), role and enabled. It is how the demo's
// "Duplicate item id" is fixed without leaving the panel.
type itemForm struct {
	base
	index int
	label string
	list  fieldList
	diags []diagLine
}

// NewItem edits items[itemIndex]'s name, id, role and enabled.
func NewItem(ctx Context, itemIndex int, opts ...Option) Form {
	o := applyOptions(opts)
	f := &itemForm{base: newBase(ctx, o), index: itemIndex}
	raw := objectAt(f.ctx.Draft, Path{"items", itemIndex})
	if raw == nil || itemIndex >= len(f.ctx.Stack.Items) {
		f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, nil, 0)
		f.label = i18n.T("item %d", itemIndex+1)
		return f
	}
	it := &f.ctx.Stack.Items[itemIndex]
	f.label = it.ID
	others := map[string]int{}
	for i := range f.ctx.Stack.Items {
		if i != itemIndex {
			others[f.ctx.Stack.Items[i].ID]++
		}
	}
	mk := func(name string, kind fieldKind, def, note string) field {
		fd := field{name: name, path: Path{"items", itemIndex, name}, label: i18n.T("%s of %s", name, it.ID), kind: kind, def: def, note: note}
		fd.value, fd.present = raw.Get(name)
		return fd
	}
	id := mk("id", kindString, "", i18n.T("unique among the items; diagnostics and regex roles name items by it"))
	id.check = func(text string) string {
		t := jsonv.TrimJS(text)
		switch {
		case t == "":
			return i18n.T("an item id cannot be empty")
		case others[t] > 0:
			return i18n.T("another item already has the id %s", t)
		}
		return ""
	}
	id.diags = diagsWhere(f.ctx.Diagnostics, func(d preset.Diagnostic) bool {
		return d.ItemID == it.ID && (hasPrefix("Duplicate item id", "Item id")(d)) //i18n:raw pi-forge's diagnostics, matched
	})
	role := mk("role", kindEnum, "", i18n.T("system items build the system prompt; user, assistant and custom items become messages"))
	role.choices = []string{string(preset.RoleSystem), string(preset.RoleUser), string(preset.RoleAssistant), string(preset.RoleCustom)}
	if it.Kind == preset.KindSlot && it.Slot == "chat-history" {
		role.note = i18n.T("the chat-history slot takes no role")
	}
	role.diags = diagsWhere(f.ctx.Diagnostics, func(d preset.Diagnostic) bool {
		return d.ItemID == it.ID && hasPrefix("Enabled block has no role", "System item appears")(d) //i18n:raw pi-forge's diagnostics, matched
	})
	fields := []field{
		mk("name", kindString, "", i18n.T("the label the panel and the preview show")),
		id,
		role,
		mk("enabled", kindBool, "true", i18n.T("a disabled item compiles to nothing")),
	}
	f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, fields, o.cursor.Row)
	return f
}

func (f *itemForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	_, cmd := f.list.update(msg)
	return f, cmd
}

// SetSize implements Form: the fields' editor fits the width.
func (f *itemForm) SetSize(width, _ int) { f.list.setWidth(width) }

func (f *itemForm) View(width, height int) string {
	st := f.styles
	lines := []string{st.Text.Subtle.Render(truncate(i18n.T("Item properties — name, id, role, enabled"), width)), ""}
	if len(f.list.fields) == 0 {
		lines = append(lines, st.Text.Danger.Render(truncate(i18n.T("%s is not a JSON object; delete it or fix the file", f.label), width)))
		return common.Fit(lines, width, height)
	}
	return common.Fit(append(lines, f.list.view(width, max(0, height-len(lines)), true)...), width, height)
}

func (f *itemForm) CapturesInput() bool      { return f.list.editing() }
func (f *itemForm) Title() string            { return i18n.T("Item · %s", f.label) }
func (f *itemForm) ShortHelp() []key.Binding { return f.list.help() }
func (f *itemForm) cursor() Cursor           { return Cursor{Row: f.list.row()} }
