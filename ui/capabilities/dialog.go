package capabilities

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// dialogKind tells the dialogs apart.
type dialogKind int

const (
	dialogPreview  dialogKind = iota // an action's preview, confirmed before it writes
	dialogAddText                    // the text of a manual directive
	dialogNewID                      // scope and id of a new capability
	dialogBindings                   // choose a binding to enable
	dialogConfirm                    // a yes/no question (delete, discard)
	dialogToolName                   // a tool name typed into the editor's picker
)

// choice is one binding offered by the enable-bound chooser.
type choice struct{ id, label string }

// dialog is the open modal.
type dialog struct {
	kind    dialogKind
	title   string
	body    string
	preview *preview
	input   textinput.Model
	scope   resources.Scope
	choices []choice
	cursor  int
	// offset is the first body line a preview shows (it scrolls).
	offset int
	onYes  func(m *Model) tea.Cmd
}

func (d *dialog) help(k *keymap.Capabilities) []key.Binding {
	switch d.kind {
	case dialogPreview:
		if d.preview.canWrite() {
			return []key.Binding{k.Confirm, k.Cancel}
		}
		return []key.Binding{k.Dismiss}
	case dialogConfirm:
		return []key.Binding{k.Confirm, k.Cancel}
	}
	return []key.Binding{k.Submit, k.Dismiss}
}

func textDialog(m *Model, kind dialogKind, title, body, prompt string) *dialog {
	in := common.NewTextInput(m.com, prompt, "")
	in.Focus()
	return &dialog{kind: kind, title: title, body: body, input: in, scope: resources.ScopeProject}
}

// dialogKey handles a key while a dialog is open.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	d := m.dialog
	k := &m.keys
	switch d.kind {
	case dialogPreview:
		p := d.preview
		switch {
		case p.canWrite() && key.Matches(msg, k.Confirm):
			if p.needsSecondStep() {
				p.step++
				return nil
			}
			m.dialog = nil
			m.setStatus("appending to the session…", false)
			return applyCmd(m.view.file, p.plan, m.com.Workspace.Cwd, m.now, m.lastWrite)
		case key.Matches(msg, k.Cancel), key.Matches(msg, k.Dismiss):
			m.dialog = nil
			m.setStatus("cancelled: nothing was written", false)
		default:
			m.scrollPreview(msg)
		}
		return nil
	case dialogConfirm:
		switch {
		case key.Matches(msg, k.Confirm):
			m.dialog = nil
			return d.onYes(m)
		case key.Matches(msg, k.Cancel):
			m.dialog = nil
		}
		return nil
	case dialogBindings:
		switch {
		case key.Matches(msg, k.Up):
			d.cursor = max(0, d.cursor-1)
		case key.Matches(msg, k.Down):
			d.cursor = min(len(d.choices)-1, d.cursor+1)
		case key.Matches(msg, k.Submit) && len(d.choices) > 0:
			m.dialog = nil
			return m.startAction(capstate.Operation{Kind: capstate.OpEnableBound, Arg: d.choices[d.cursor].id})
		case key.Matches(msg, k.Dismiss):
			m.dialog = nil
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Dismiss):
		m.dialog = nil
		return nil
	case key.Matches(msg, k.Submit):
		return m.submitText(d)
	case d.kind == dialogNewID && (msg.String() == "left" || msg.String() == "right"):
		if d.scope == resources.ScopeProject {
			d.scope = resources.ScopeGlobal
		} else {
			d.scope = resources.ScopeProject
		}
		return nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd
}

// submitText accepts a text dialog.
func (m *Model) submitText(d *dialog) tea.Cmd {
	text := d.input.Value()
	switch d.kind {
	case dialogAddText:
		if jsonv.TrimJS(text) == "" {
			d.body = "Type the directive first (it is kept verbatim)."
			return nil
		}
		m.dialog = nil
		return m.startAction(capstate.Operation{Kind: capstate.OpAdd, Arg: text})
	case dialogNewID:
		id := jsonv.TrimJS(text)
		if !preset.IsValidResourceID(id) {
			d.body = "“" + sanitize.Fold(id) + "” is not a valid id: start with a letter or digit, then letters, digits, . _ -"
			return nil
		}
		if m.lib != nil {
			if err := m.lib.IDTaken(resources.KindCapability, d.scope, id); err != nil {
				d.body = sanitize.Fold(err.Error())
				return nil
			}
		}
		m.dialog = nil
		m.edit = newEditor(m.com, d.scope, id, nil, "", m.view.declared)
		m.focus = paneDetail
		return nil
	case dialogToolName:
		name := jsonv.TrimJS(text)
		if problem := capability.ToolNameProblem(name); problem != "" {
			d.body = problem
			return nil
		}
		m.dialog = nil
		if m.edit != nil {
			m.edit.addTool(name)
		}
		return nil
	}
	return nil
}

// dialogInner is the width of a dialog's body.
func (m *Model) dialogInner() int { return min(max(30, m.width-8), 72) - 4 }

// dialogMaxBody is how many body lines a dialog shows.
func (m *Model) dialogMaxBody() int { return max(3, m.height-8) }

// scrollPreview moves the preview's window over its body (the full text
// of a long capability does not fit); other keys are ignored.
func (m *Model) scrollPreview(msg tea.KeyPressMsg) {
	d, k := m.dialog, &m.keys
	n := len(previewBody(d.preview, &m.com.Styles, m.dialogInner(), m.keys.Disable.Help().Key))
	page := max(1, m.dialogMaxBody()-1) // one row says where the window is
	last := max(0, n-page)
	switch {
	case key.Matches(msg, k.Up):
		d.offset--
	case key.Matches(msg, k.Down):
		d.offset++
	case key.Matches(msg, k.PageUp):
		d.offset -= page
	case key.Matches(msg, k.PageDown):
		d.offset += page
	case key.Matches(msg, k.Top):
		d.offset = 0
	case key.Matches(msg, k.Bottom):
		d.offset = last
	}
	d.offset = common.Clamp(d.offset, 0, last)
}

// dialogView draws the open dialog for the panel's size.
func (m *Model) dialogView(st *themes.Styles) string {
	d := m.dialog
	inner := m.dialogInner()
	maxBody := m.dialogMaxBody()
	var body []string
	hint := common.KeyHint(d.help(&m.keys))
	switch d.kind {
	case dialogPreview:
		body = previewBody(d.preview, st, inner, m.keys.Disable.Help().Key)
		if len(body) > maxBody {
			page := maxBody - 1
			from := common.Clamp(d.offset, 0, len(body)-page)
			where := fmt.Sprintf("%d–%d/%d · ↑/↓ pgup/pgdn g/G scroll", from+1, from+page, len(body))
			body = append(body[from:from+page:from+page], st.Text.Muted.Render(ansi.Truncate(where, inner, "…")))
		}
	case dialogConfirm: // paragraphs on lines of their own (a path, an id)
		for _, par := range strings.Split(d.body, "\n") {
			body = append(body, common.WrapWhole(sanitize.Fold(par), inner)...)
		}
	case dialogBindings:
		if d.body != "" {
			body = wrap(st.Text.Muted.Render(sanitize.Fold(d.body)), inner)
		}
		for i, c := range d.choices {
			line := "  " + sanitize.Fold(c.label)
			if i == d.cursor {
				line = st.List.Selected.Render(ansi.Truncate("▸ "+sanitize.Fold(c.label), inner, "…"))
			}
			body = append(body, line)
		}
		hint = common.KeyHint([]key.Binding{m.keys.Up, m.keys.Down, m.keys.Submit, m.keys.Dismiss})
	default:
		if d.body != "" {
			body = wrap(st.Text.Muted.Render(sanitize.Fold(d.body)), inner)
		}
		if d.kind == dialogNewID {
			proj, glob := "  project  ", "  global  "
			if d.scope == resources.ScopeProject {
				proj = st.List.Selected.Render("[project]")
			} else {
				glob = st.List.Selected.Render("[global]")
			}
			body = append(body, "scope: "+proj+" "+glob+st.Text.Muted.Render("  ←/→"))
		}
		d.input.SetWidth(max(10, inner-len(d.input.Prompt)-1))
		body = append(body, d.input.View())
	}
	if len(body) > maxBody {
		body = append(body[:maxBody-1], st.Text.Muted.Render("…"))
	}
	return common.DialogBox(st, m.width, m.height, d.title, body, hint)
}

// bindingChoices lists the bindings of the Preset in force at the leaf.
func bindingChoices(v *sessionView) ([]choice, string) {
	st := v.state
	if st == nil || st.Runtime == nil {
		return nil, "The session's capability state is still being computed."
	}
	bs, msg := st.Runtime.ReadBindings()
	if msg != "" {
		return nil, piForgeSays(msg)
	}
	if st.Preset == nil {
		return nil, piForgeSays("No active preset; cannot activate a bound capability.")
	}
	out := make([]choice, 0, len(bs))
	for _, b := range bs {
		who := "human-only"
		if b.ModelCallable {
			who = "model-callable"
		}
		out = append(out, choice{id: b.ID, label: b.ID + " — " + b.Ref.String() + " · " + who + "  " + strings.TrimSpace(b.Capability.Tools.String())})
	}
	if len(out) == 0 {
		return nil, piForgeSays("No capability bindings in active preset.")
	}
	return out, ""
}
