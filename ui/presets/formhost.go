package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/components/draft"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// Form kinds the panel hosts.
const (
	formSlot       = "slot"
	formParameters = "parameters"
	formTools      = "tools"
	formSkills     = "skills"
	formRegex      = "regex"
	formContext    = "context"
	formBindings   = "bindings"
	formProps      = "properties"
	formItem       = "item"
	formRaw        = "raw"
)

// settingsForms maps the settings rows (after the items) to form kinds.
var settingsForms = []string{formProps, formParameters, formTools, formSkills, formRegex, formContext, formBindings, formRaw}

// settingsMembers are the top-level draft members each settings form
// edits (spec pi-forge-formats §2.1): y, v and o on a settings row act on
// them. The raw JSON form has none listed: it edits the whole draft.
var settingsMembers = map[string][]string{
	formProps:      {"schemaVersion", "name", "description", "mode", "autoActivate", "defaults"}, //i18n:raw JSON keys
	formParameters: {"parameters", "variables"},
	formTools:      {"tools"},
	formSkills:     {"skills"},
	formRegex:      {"regex"},
	formContext:    {"context"},
	formBindings:   {"capabilities"},
}

// formContext is what every form is built from.
func (m *Model) formContext() forms.Context {
	ctx := forms.Context{Com: m.com, Library: m.lib, Memory: m.formMemory}
	if m.d != nil {
		ctx.Draft, ctx.Stack, ctx.Diagnostics, ctx.Scope = m.d.Tree(), m.d.Stack(), m.d.Diagnostics(), m.d.Scope()
	}
	if m.rc != nil {
		ctx.KnownTools = m.rc.tools
	} else {
		ctx.KnownTools = knownTools()
	}
	return ctx
}

// buildForm constructs the form of a kind for row (the item index for slot
// options), keeping cursor when it comes from a previous instance.
func (m *Model) buildForm(kind string, row int, opts ...forms.Option) forms.Form {
	ctx := m.formContext()
	switch kind {
	case formSlot:
		return forms.NewSlotOptions(ctx, row, opts...)
	case formParameters:
		return forms.NewParameters(ctx, opts...)
	case formTools, formSkills:
		return forms.NewPolicy(ctx, kind, opts...)
	case formRegex:
		return forms.NewRegex(ctx, opts...)
	case formContext:
		return forms.NewContextOptions(ctx, opts...)
	case formBindings:
		return forms.NewBindings(ctx, opts...)
	case formProps:
		return forms.NewProperties(ctx, opts...)
	case formItem:
		return forms.NewItem(ctx, row, opts...)
	case formRaw:
		return forms.NewRawJSON(ctx, opts...)
	}
	return nil
}

// formKindAt is the form that edits the item-list row, "" for a block (the
// text editor) or nothing.
func (m *Model) formKindAt(row int) string {
	if m.d == nil {
		return ""
	}
	n := m.d.Len()
	if row >= n {
		if i := row - n; i < len(settingsForms) {
			return settingsForms[i]
		}
		return ""
	}
	if it, editable, _ := m.d.Item(row); editable && it.Kind == preset.KindSlot {
		return formSlot
	}
	return ""
}

// openForm shows the form of the row under the item cursor.
func (m *Model) openForm(focus bool) tea.Cmd {
	cur := m.items.Cursor()
	kind := m.formKindAt(cur)
	if kind == "" {
		m.closeForm()
		return nil
	}
	if m.form == nil || m.formKind != kind || m.formRow != cur {
		m.form = m.buildForm(kind, cur)
		m.formKind, m.formRow = kind, cur
	}
	if focus {
		m.focus = paneEditor
	}
	return nil
}

// closeForm drops the open form.
func (m *Model) closeForm() {
	m.form, m.formKind, m.formRow = nil, "", -1
}

// refreshForm rebuilds the open form from the current draft (after an
// edit, an undo or a reload), keeping the user's place.
func (m *Model) refreshForm() {
	if m.form == nil {
		return
	}
	if m.formKind == formItem {
		if _, _, ok := m.d.Item(m.formRow); !ok {
			m.closeForm()
			return
		}
	} else if m.formKindAt(m.formRow) != m.formKind {
		m.closeForm()
		return
	}
	if r, ok := m.form.(interface{ Refresh(forms.Context) }); ok {
		r.Refresh(m.formContext()) // keeps what is being typed (the raw JSON)
		return
	}
	m.form = m.buildForm(m.formKind, m.formRow, forms.WithCursor(forms.CursorOf(m.form)))
}

// retranslateForms rebuilds the open Preset form and profile form from
// the draft after a theme or language switch (ThemeChangedMsg), so text
// translated when they were built comes in the current language; a form
// with a field being typed in keeps its state.
func (m *Model) retranslateForms() {
	if m.form != nil && !m.form.CapturesInput() {
		m.refreshForm()
	}
	if m.profForm != nil && !m.profForm.CapturesInput() && m.prof != nil {
		m.rebuildProfileForm()
	}
}

// applyFormEdit applies a form's edit to the draft; the form is rebuilt
// from the new draft, keeping the user's place.
func (m *Model) applyFormEdit(msg forms.EditMsg) tea.Cmd {
	if m.d == nil {
		return nil
	}
	cur := m.items.Cursor()
	setting := cur - m.d.Len() // a settings row keeps its place after the items
	err := m.d.Apply(draft.Edit{Path: msg.Path, Value: msg.Value, Delete: msg.Delete, Label: msg.Label, Coalesce: msg.Coalesce})
	if err == nil && m.unparsed && len(msg.Path) == 0 {
		// the whole file typed anew where it did not parse: the draft is
		// the user's text now, which a save may write over the file
		m.unparsed = false
	}
	if err == nil && setting >= 0 {
		cur = m.d.Len() + setting
		if m.formRow >= 0 {
			m.formRow = cur
		}
	}
	return m.edited(cur, err)
}

// openItemForm shows the properties of the item under the cursor (name,
// id, role, enabled) in the editor pane.
func (m *Model) openItemForm() tea.Cmd {
	cur := m.items.Cursor()
	if _, _, ok := m.d.Item(cur); !ok {
		return nil
	}
	m.stopEditing()
	m.form = m.buildForm(formItem, cur)
	m.formKind, m.formRow = formItem, cur
	m.focus = paneEditor
	return nil
}

// applyRawEdited takes the JSON $EDITOR returned for the whole Preset: a
// JSON object becomes the draft (one undo step); anything else leaves the
// draft as it was and reopens the Advanced view's editor on the text, at
// its problem.
func (m *Model) applyRawEdited(text string) tea.Cmd {
	v, err := jsonv.Parse([]byte(text))
	obj, isObj := v.(*jsonv.Object)
	if err != nil || !isObj {
		if raw, ok := m.form.(interface{ StartWith(string) tea.Cmd }); ok && m.formKind == formRaw {
			m.focus = paneEditor
			m.setStatus(i18n.T("the JSON from $EDITOR does not parse; the draft is unchanged — fix it here"), true)
			return raw.StartWith(text)
		}
		m.setStatus(i18n.T("the JSON from $EDITOR does not parse; the draft is unchanged"), true)
		return nil
	}
	if draft.Equal(obj, m.d.Tree()) {
		m.setStatus(i18n.T("no change from $EDITOR"), false)
		return nil
	}
	m.setStatus(i18n.T("the Preset was replaced from $EDITOR"), false)
	return m.applyFormEdit(forms.EditMsg{Path: draft.Path{}, Value: obj, Label: i18n.T("$EDITOR raw JSON")})
}
