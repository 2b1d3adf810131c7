package forms

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/profile"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// ProfileContext is what the profile form is built from: the profile
// file's JSON tree (edited by path, like a Preset draft) and its
// diagnostics.
type ProfileContext struct {
	Com         *common.Common
	Tree        *jsonv.Object
	Diagnostics profile.Diagnostics
	// Presets are the Preset selectors the profile may name (a hint).
	Presets []string
}

// profileForm edits every field of an agent profile (spec §11.1): name,
// description, model provider and id, thinking level, the Preset
// (promptStack, x sets null: no Preset) and autoActivate.
type profileForm struct {
	ctx    ProfileContext
	keys   *keymap.Forms
	styles *themes.Styles
	list   fieldList
	diags  []diagLine
}

// NewProfile edits an agent profile's tree.
func NewProfile(ctx ProfileContext, opts ...Option) Form {
	o := applyOptions(opts)
	b := newBase(Context{Com: ctx.Com, Draft: jsonv.NewObject()}, o)
	f := &profileForm{ctx: ctx, keys: b.keys, styles: b.styles}
	root := ctx.Tree
	mk := func(path Path, name string, kind fieldKind, def, note, diagField string) field {
		fd := field{name: name, path: path, label: name, kind: kind, def: def, note: note}
		fd.value, fd.present = valueAtOK(root, path)
		for _, d := range ctx.Diagnostics {
			if d.Field == diagField || (diagField != "" && strings.HasPrefix(d.Field, diagField+".")) {
				fd.diags = append(fd.diags, diagLine{level: string(d.Level), text: d.Message})
			}
		}
		return fd
	}
	thinking := mk(Path{"thinkingLevel"}, "thinkingLevel", kindEnum, "", i18n.T("the model's reasoning effort; Pi clamps what the model cannot do"), "thinkingLevel") //i18n:raw the field's name is a JSON key
	thinking.choices = profile.ThinkingLevels
	stackNote := i18n.T("a Preset selector (id, project:id, global:id), or null: no Preset (x sets null)")
	if len(ctx.Presets) > 0 {
		stackNote += " · " + i18n.T("e.g. %s", strings.Join(ctx.Presets[:min(3, len(ctx.Presets))], ", "))
	}
	stack := mk(Path{"promptStack"}, "promptStack", kindString, "", stackNote, "promptStack") //i18n:raw the field's name is a JSON key
	if stack.present && stack.value == nil {
		stack.kind, stack.lenient = kindJSON, true // shows null; a selector needs no quotes
	}
	stack.check = func(text string) string {
		sel := strings.TrimSpace(text)
		if v, err := jsonv.Parse([]byte(sel)); err == nil {
			s, isString := v.(string)
			if !isString {
				return "" // null, or a value the profile's own diagnostics judge
			}
			sel = strings.TrimSpace(s)
		}
		return presetProblem(ctx.Presets, sel)
	}
	if sel, ok := stack.value.(string); ok {
		if problem := presetProblem(ctx.Presets, strings.TrimSpace(sel)); problem != "" {
			stack.status = diagLine{level: "warning", text: problem}
		}
	}
	fields := []field{
		mk(Path{"name"}, "name", kindString, "", i18n.T("the label lists show"), "name"),
		mk(Path{"description"}, "description", kindString, "", i18n.T("what the profile is for"), "description"),
		mk(Path{"model", "provider"}, "model.provider", kindString, "", i18n.T("Pi's provider name, e.g. anthropic"), "model"),
		mk(Path{"model", "id"}, "model.id", kindString, "", i18n.T("the model id in Pi's catalog"), "model"),
		thinking,
		stack,
		mk(Path{"autoActivate"}, "autoActivate", kindBool, "false", i18n.T("applied to every fresh session (one per scope)"), "autoActivate"), //i18n:raw the field's name is a JSON key
	}
	for _, d := range ctx.Diagnostics {
		if d.Field == "" || d.Field == "id" || d.Field == "schemaVersion" || d.Field == "type" || strings.HasPrefix(d.Message, "Unsupported profile field") {
			f.diags = append(f.diags, diagLine{level: string(d.Level), text: d.Message})
		}
	}
	f.list = newFieldList(root, f.keys, f.styles, fields, o.cursor.Row)
	return f
}

// presetProblem says why a promptStack selector names no Preset among
// presets (the keys the profile may use); "" when it resolves. A bare id
// matches a Preset of either listed scope.
func presetProblem(presets []string, sel string) string {
	if sel == "" {
		return ""
	}
	for _, k := range presets {
		if k == sel || strings.HasSuffix(k, ":"+sel) && !strings.Contains(sel, ":") {
			return ""
		}
	}
	return i18n.T("%s names no Preset this profile can use: pi-forge would refuse to apply it", sel)
}

func (f *profileForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	if kp, ok := msg.(tea.KeyPressMsg); ok && !f.list.editing() {
		if cur := f.list.current(); cur != nil && cur.name == "promptStack" && key.Matches(kp, f.keys.Reset) {
			return f, edit(Path{"promptStack"}, nil, "promptStack") //i18n:raw JSON key; required: null, never absent
		}
	}
	_, cmd := f.list.update(msg)
	return f, cmd
}

// SetSize implements Form: the fields' editor fits the width.
func (f *profileForm) SetSize(width, _ int) { f.list.setWidth(width) }

func (f *profileForm) View(width, height int) string {
	st := f.styles
	lines := []string{st.Text.Subtle.Render(truncate(i18n.T("Agent profile — model, thinking level and Preset applied together"), width))}
	for _, d := range f.diags {
		lines = append(lines, renderDiag(st, d, width, ""))
	}
	lines = append(lines, "")
	return common.Fit(append(lines, f.list.view(width, max(0, height-len(lines)), true)...), width, height)
}

func (f *profileForm) CapturesInput() bool { return f.list.editing() }
func (f *profileForm) Title() string       { return i18n.T("Profile") }

func (f *profileForm) ShortHelp() []key.Binding { return f.list.help() }
func (f *profileForm) cursor() Cursor           { return Cursor{Row: f.list.row()} }
