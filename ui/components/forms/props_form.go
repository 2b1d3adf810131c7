package forms

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// propsForm edits the Preset's own properties (spec §2.1): name,
// description, mode, autoActivate, both defaults keys and schemaVersion,
// whose switch migrates variables (v1) and parameters (v2) like pi-forge's
// migrate-stack-v2 script does.
type propsForm struct {
	base
	list  fieldList
	diags []diagLine
}

// NewProperties edits the Preset's properties.
func NewProperties(ctx Context, opts ...Option) Form {
	o := applyOptions(opts)
	f := &propsForm{base: newBase(ctx, o)}
	root := f.ctx.Draft
	mk := func(path Path, name string, kind fieldKind, def, note string, prefixes ...string) field {
		fd := field{name: name, path: path, label: name, kind: kind, def: def, note: note}
		fd.value, fd.present = valueAtOK(root, path)
		if len(prefixes) > 0 {
			fd.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix(prefixes...))
		}
		return fd
	}
	mode := mk(Path{"mode"}, "mode", kindEnum, "replace", i18n.T("replace: the Preset is the whole prompt; append/prepend keep Pi's prompt"), "Preset mode") //i18n:raw pi-forge's diagnostic, matched
	mode.choices = []string{string(preset.ModeReplace), string(preset.ModeAppend), string(preset.ModePrepend)}
	policy := mk(Path{"defaults", "unresolvedMacroPolicy"}, "defaults.unresolvedMacroPolicy", kindEnum, "warn", //i18n:raw JSON keys
		i18n.T("validated but ignored by pi-forge: an undefined template path is always an error"), "defaults.unresolvedMacroPolicy") //i18n:raw JSON key
	policy.choices = []string{"warn", "keep", "error"}
	version := mk(Path{"schemaVersion"}, "schemaVersion", kindEnum, "1", f.versionNote(), "Unsupported schemaVersion") //i18n:raw JSON key and pi-forge's diagnostic, matched
	version.choices = []string{"1", "2"}
	if n, ok := version.value.(float64); ok {
		version.value = jsonv.FormatNumber(n)
	}
	fields := []field{
		mk(Path{"name"}, "name", kindString, "", i18n.T("shown in lists; the id when unset"), "Preset name"),           //i18n:raw pi-forge's diagnostic, matched
		mk(Path{"description"}, "description", kindString, "", i18n.T("what the Preset is for"), "Preset description"), //i18n:raw pi-forge's diagnostic, matched
		mode,
		mk(Path{"autoActivate"}, "autoActivate", kindBool, "false", i18n.T("a fresh session activates it (one usable per scope)"), "Preset autoActivate", "default.json no longer"), //i18n:raw JSON key and pi-forge's diagnostics, matched
		mk(Path{"defaults", "syntheticMessagesVisible"}, "defaults.syntheticMessagesVisible", kindBool, "false", //i18n:raw JSON keys
			i18n.T("custom messages of the Preset are shown in Pi's transcript"), "defaults.syntheticMessagesVisible", "Preset defaults"), //i18n:raw JSON key and pi-forge's diagnostic, matched
		policy,
		version,
	}
	f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, fields, o.cursor.Row)
	return f
}

// valueAtOK reads the value at path and whether it is there.
func valueAtOK(root *jsonv.Object, path Path) (any, bool) {
	if !present(root, path) {
		return nil, false
	}
	return valueAt(root, path), true
}

// versionNote explains what switching the schema version does to this
// Preset.
func (f *propsForm) versionNote() string {
	if f.ctx.Stack.SchemaVersion == 2 {
		dropped := 0
		if params := objectAt(f.ctx.Draft, Path{"parameters"}); params != nil {
			for _, k := range params.Keys() {
				if v, _ := params.Get(k); !isString(v) {
					dropped++
				}
			}
		}
		if dropped > 0 {
			return i18n.T("v2 reads parameters (any JSON); switching to 1 moves string parameters to variables and drops %d non-string one(s)", dropped)
		}
		return i18n.T("v2 reads parameters (any JSON); switching to 1 moves string parameters to variables")
	}
	return i18n.T("v1 reads variables (strings); switching to 2 moves them to parameters, as pi-forge's migrate-stack-v2 does")
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// migrated is the draft with schemaVersion switched to version and the
// template values moved: v1 variables become v2 parameters (added to any
// already there), v2 string parameters become v1 variables.
func (f *propsForm) migrated(version int) *jsonv.Object {
	from, to := "variables", "parameters"
	if version == 1 {
		from, to = "parameters", "variables"
	}
	src := objectAt(f.ctx.Draft, Path{from})
	dst := jsonv.NewObject()
	if old := objectAt(f.ctx.Draft, Path{to}); old != nil {
		for _, k := range old.Keys() {
			v, _ := old.Get(k)
			dst.Set(k, v)
		}
	}
	if src != nil {
		for _, k := range src.Keys() {
			v, _ := src.Get(k)
			if version == 1 && !isString(v) {
				continue
			}
			if _, taken := dst.Get(k); !taken {
				dst.Set(k, v)
			}
		}
	}
	out := jsonv.NewObject()
	placed := false
	for _, k := range f.ctx.Draft.Keys() {
		v, _ := f.ctx.Draft.Get(k)
		switch k {
		case "schemaVersion":
			v = float64(version)
		case from:
			if src != nil {
				if !placed && len(dst.Keys()) > 0 {
					out.Set(to, dst)
					placed = true
				}
				continue
			}
		case to:
			if placed {
				continue
			}
			v, placed = dst, true
		}
		out.Set(k, v)
	}
	if _, ok := out.Get("schemaVersion"); !ok { //i18n:raw JSON key
		out.Set("schemaVersion", float64(version)) //i18n:raw JSON key
	}
	if !placed && len(dst.Keys()) > 0 {
		out.Set(to, dst)
	}
	return out
}

func (f *propsForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	if kp, ok := msg.(tea.KeyPressMsg); ok && !f.list.editing() {
		if cur := f.list.current(); cur != nil && cur.name == "schemaVersion" &&
			(key.Matches(kp, f.keys.Toggle, f.keys.Edit, f.keys.Cycle, f.keys.CycleBck)) {
			next := 2
			if f.ctx.Stack.SchemaVersion == 2 {
				next = 1
			}
			return f, edit(Path{}, f.migrated(next), fmt.Sprintf("schemaVersion %d", next)) //i18n:raw the edit's label names the JSON key
		}
	}
	_, cmd := f.list.update(msg)
	return f, cmd
}

// SetSize implements Form: the fields' editor fits the width.
func (f *propsForm) SetSize(width, _ int) { f.list.setWidth(width) }

func (f *propsForm) View(width, height int) string {
	st := f.styles
	lines := []string{st.Text.Subtle.Render(truncate(i18n.T("Preset properties — %s (the id is the file name; fork to change it)", f.ctx.Stack.ID), width)), ""}
	return common.Fit(append(lines, f.list.view(width, max(0, height-len(lines)), true)...), width, height)
}

func (f *propsForm) CapturesInput() bool      { return f.list.editing() }
func (f *propsForm) Title() string            { return i18n.T("Properties") }
func (f *propsForm) ShortHelp() []key.Binding { return f.list.help() }
func (f *propsForm) cursor() Cursor           { return Cursor{Row: f.list.row()} }
