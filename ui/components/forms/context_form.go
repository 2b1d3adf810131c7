package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/ui/common"
)

// contextForm edits the top-level `context` object (§2.1).
type contextForm struct {
	base
	list fieldList
	diag []diagLine
}

func newContextOptions(ctx Context, o options) Form {
	f := &contextForm{base: newBase(ctx, o)}
	ctxObj := objectAt(f.ctx.Draft, Path{"context"})
	mk := func(name string, kind fieldKind, def, note string) field {
		p := Path{"context", name}
		fd := field{name: name, path: p, label: "context." + name, kind: kind, def: def, note: note}
		if ctxObj != nil {
			fd.value, fd.present = ctxObj.Get(name)
		}
		fd.diags = diagsWhere(f.ctx.Diagnostics, hasPrefix("context."+name+" "))
		return fd
	}
	sep := mk("mergeSeparator", kindString, `"\n\n"`, i18n.T("joins merged messages; edit with escapes (\\n, \\t)")) //i18n:raw the field's name is a JSON key
	sep.escaped = true
	fields := []field{
		mk("allowDuplicateChatHistory", kindBool, "false", i18n.T("allow more than one chat-history slot")), //i18n:raw the field's name is a JSON key
		mk("mergeConsecutiveRoles", kindBool, "false", i18n.T("merge adjacent messages of the same role")),  //i18n:raw the field's name is a JSON key
		sep,
	}
	f.list = newFieldList(f.ctx.Draft, f.keys, f.styles, fields, o.cursor.Row)
	f.diag = diagsWhere(f.ctx.Diagnostics, hasPrefix("Preset context must")) //i18n:raw pi-forge's diagnostic, matched
	if _, ok := f.ctx.Draft.Get("context"); ok && ctxObj == nil {
		f.diag = append(f.diag, diagLine{level: string(preset.LevelError), text: i18n.T("context is not an object; committing a field replaces it")})
	}
	return f
}

func (f *contextForm) Update(msg tea.Msg) (Form, tea.Cmd) {
	_, cmd := f.list.update(msg)
	return f, cmd
}

// SetSize implements Form: the fields' editor fits the width.
func (f *contextForm) SetSize(width, _ int) { f.list.setWidth(width) }

func (f *contextForm) View(width, height int) string {
	lines := []string{f.styles.Text.Subtle.Render(truncate(i18n.T("Context options — how compiled messages are assembled"), width)), ""}
	for _, d := range f.diag {
		lines = append(lines, renderDiag(f.styles, d, width, ""))
	}
	return common.Fit(append(lines, f.list.view(width, max(0, height-len(lines)), true)...), width, height)
}

func (f *contextForm) CapturesInput() bool      { return f.list.editing() }
func (f *contextForm) Title() string            { return i18n.T("Context options") }
func (f *contextForm) ShortHelp() []key.Binding { return f.list.help() }
func (f *contextForm) cursor() Cursor           { return Cursor{Row: f.list.row()} }
