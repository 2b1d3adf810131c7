package capabilities

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/session/capstate"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/dialog"
)

// The panel's modals sit on a ui/components/dialog stack: an action's
// preview (confirmed before it writes), a yes/no question, the
// enable-bound chooser and the one-line prompts. Each holds its own state
// and the panel's keys; what it decides goes back to the panel as an
// answer, which the panel runs on itself (dialogKey). Opening one
// replaces the one on top rather than stacking it (openDialog): an
// action's plan arriving while a prompt is open takes its place, as it
// always has.

// answer is a dialog's decision, run by the panel on itself.
type answer func(m *Model) tea.Cmd

// openDialog puts d on top of the panel's dialog stack, in place of the
// dialog there, sized for the panel.
func (m *Model) openDialog(d dialog.Dialog) {
	m.dialogs.Replace(d)
	m.layoutDialog()
}

// dialogKey hands a key or a paste to the dialog stack and runs the
// answer it gives back.
func (m *Model) dialogKey(msg tea.Msg) tea.Cmd {
	ans, cmd := m.dialogs.Update(msg)
	if run, ok := ans.(answer); ok && run != nil {
		return tea.Batch(cmd, run(m))
	}
	return cmd
}

// sizedDialog is a dialog that lays itself out for the screen it is
// drawn over (a scrolled preview, a prompt's input).
type sizedDialog interface{ setSize(width, height int) }

// layoutDialog sizes the open dialog for the panel (after every Update
// and resize), so its View only draws.
func (m *Model) layoutDialog() {
	if d, ok := m.dialogs.Top().(sizedDialog); ok {
		d.setSize(m.width, m.height)
	}
}

// cancelled is the answer of a preview left without writing.
func cancelled(m *Model) tea.Cmd {
	m.setStatus(i18n.T("cancelled: nothing was written"), false)
	return nil
}

// dialogMaxBody is how many body lines a dialog on a screen height rows
// tall shows.
func dialogMaxBody(height int) int { return max(3, height-8) }

// dialogBox frames a dialog's body (cut to what fits, "…" last) and key
// hint for a screen of width×height cells.
func dialogBox(st *themes.Styles, width, height int, title string, body []string, hint string) string {
	if maxBody := dialogMaxBody(height); len(body) > maxBody {
		body = append(body[:maxBody-1], st.Text.Muted.Render("…"))
	}
	return common.DialogBox(st, width, height, title, body, hint)
}

// previewDialog is an action's preview: what confirming will append,
// scrolled when it is longer than the screen; confirming writes (reset
// asks twice), anything else writes nothing.
type previewDialog struct {
	com     *common.Common
	keys    *keymap.Capabilities
	title   string
	preview *preview
	// offset is the first body line shown (it scrolls).
	offset int
	// width and height are the screen's the dialog is drawn over.
	width, height int
}

// ShortHelp implements dialog.Dialog.
func (d *previewDialog) ShortHelp() []key.Binding {
	if d.preview.canWrite() {
		return []key.Binding{d.keys.Confirm, d.keys.Cancel}
	}
	return []key.Binding{d.keys.Dismiss}
}

// Update implements dialog.Dialog: confirm writes (after the second
// confirmation for reset), cancel leaves, the moving keys scroll.
func (d *previewDialog) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false, nil, nil
	}
	p := d.preview
	switch {
	case p.canWrite() && key.Matches(k, d.keys.Confirm):
		if p.needsSecondStep() {
			p.step++
			return false, nil, nil
		}
		return true, answer(func(m *Model) tea.Cmd {
			m.setStatus(i18n.T("appending to the session…"), false)
			return applyCmd(m.view.file, p.plan, m.com.Workspace.Cwd, m.now, m.view.lastWrite)
		}), nil
	case key.Matches(k, d.keys.Cancel), key.Matches(k, d.keys.Dismiss):
		return true, answer(cancelled), nil
	}
	d.scroll(k)
	return false, nil, nil
}

// Dismissed implements dialog.Dismisser: leaving writes nothing, and the
// status says so.
func (d *previewDialog) Dismissed() any { return answer(cancelled) }

func (d *previewDialog) setSize(width, height int) { d.width, d.height = width, height }

// body is the preview's text laid out for the dialog.
func (d *previewDialog) body() []string {
	return previewBody(d.preview, &d.com.Styles, common.DialogInner(d.width), d.keys.Disable.Help().Key)
}

// scroll moves the window over the body (the full text of a long
// capability does not fit); other keys are ignored.
func (d *previewDialog) scroll(msg tea.KeyPressMsg) {
	k := d.keys
	n := len(d.body())
	page := max(1, dialogMaxBody(d.height)-1) // one row says where the window is
	last := max(0, n-page)
	d.offset, _ = common.NavMove(msg, k.Nav, d.offset, page, last)
}

// View implements dialog.Dialog.
func (d *previewDialog) View(width, height int) string {
	st := &d.com.Styles
	inner, maxBody := common.DialogInner(width), dialogMaxBody(height)
	body := previewBody(d.preview, st, inner, d.keys.Disable.Help().Key)
	if len(body) > maxBody {
		page := maxBody - 1
		from := common.Clamp(d.offset, 0, len(body)-page)
		where := i18n.T("%d–%d/%d · ↑/↓ pgup/pgdn g/G scroll", from+1, from+page, len(body))
		body = append(body[from:from+page:from+page], st.Text.Muted.Render(ansi.Truncate(where, inner, "…")))
	}
	return dialogBox(st, width, height, d.title, body, common.KeyHint(d.ShortHelp()))
}

// confirmDialog is a yes/no question (delete, discard): confirm runs
// onYes, cancel leaves.
type confirmDialog struct {
	com         *common.Common
	keys        *keymap.Capabilities
	title, body string
	onYes       answer
}

// ShortHelp implements dialog.Dialog.
func (d *confirmDialog) ShortHelp() []key.Binding {
	return []key.Binding{d.keys.Confirm, d.keys.Cancel}
}

// Update implements dialog.Dialog.
func (d *confirmDialog) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(k, d.keys.Confirm):
		return true, d.onYes, nil
	case key.Matches(k, d.keys.Cancel):
		return true, nil, nil
	}
	return false, nil, nil
}

// View implements dialog.Dialog: the body's paragraphs on lines of their
// own (a path, an id), wrapped at spaces only.
func (d *confirmDialog) View(width, height int) string {
	st := &d.com.Styles
	var body []string
	for _, par := range strings.Split(d.body, "\n") {
		body = append(body, common.WrapWhole(sanitize.Fold(par), common.DialogInner(width))...)
	}
	return dialogBox(st, width, height, d.title, body, common.KeyHint(d.ShortHelp()))
}

// choice is one binding offered by the enable-bound chooser.
type choice struct{ id, label string }

// choiceDialog is the enable-bound chooser: the bindings of the Preset
// in force; submit plans enabling the one under the cursor.
type choiceDialog struct {
	com         *common.Common
	keys        *keymap.Capabilities
	title, body string
	choices     []choice
	cursor      int
}

// ShortHelp implements dialog.Dialog.
func (d *choiceDialog) ShortHelp() []key.Binding {
	return []key.Binding{d.keys.Submit, d.keys.Dismiss}
}

// Update implements dialog.Dialog.
func (d *choiceDialog) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(k, d.keys.Up):
		d.cursor = max(0, d.cursor-1)
	case key.Matches(k, d.keys.Down):
		d.cursor = min(len(d.choices)-1, d.cursor+1)
	case key.Matches(k, d.keys.Submit) && len(d.choices) > 0:
		op := capstate.Operation{Kind: capstate.OpEnableBound, Arg: d.choices[d.cursor].id}
		return true, answer(func(m *Model) tea.Cmd { return m.startAction(op) }), nil
	}
	return false, nil, nil
}

// View implements dialog.Dialog: the note, then one row per binding.
func (d *choiceDialog) View(width, height int) string {
	st := &d.com.Styles
	inner := common.DialogInner(width)
	var body []string
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
	hint := common.KeyHint([]key.Binding{d.keys.Up, d.keys.Down, d.keys.Submit, d.keys.Dismiss})
	return dialogBox(st, width, height, d.title, body, hint)
}

// promptKind tells the one-line prompts apart.
type promptKind int

const (
	promptAddText  promptKind = iota // the text of a manual directive
	promptNewID                      // scope and id of a new capability
	promptToolName                   // a tool name typed into the editor's picker
)

// promptDialog asks for one line of text (and, for a new capability, its
// scope: ←/→). Submit hands the text to the panel (submitPrompt), which
// either acts on it and closes the prompt or says in its body why not.
type promptDialog struct {
	com   *common.Common
	keys  *keymap.Capabilities
	kind  promptKind
	title string
	body  string
	input textinput.Model
	scope resources.Scope
}

// newPrompt is a prompt with the kit's input (common.NewTextInput).
func newPrompt(m *Model, kind promptKind, title, body, prompt string) *promptDialog {
	in := common.NewTextInput(m.com, prompt, "")
	in.Focus()
	return &promptDialog{com: m.com, keys: &m.keys, kind: kind, title: title, body: body, input: in, scope: resources.ScopeProject}
}

// ShortHelp implements dialog.Dialog.
func (d *promptDialog) ShortHelp() []key.Binding {
	return []key.Binding{d.keys.Submit, d.keys.Dismiss}
}

// Update implements dialog.Dialog: submit answers with the text, ←/→
// switch a new capability's scope, the rest (a paste too) is typed.
func (d *promptDialog) Update(msg tea.Msg) (bool, any, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, d.keys.Submit):
			return false, answer(func(m *Model) tea.Cmd { return m.submitPrompt(d) }), nil
		case d.kind == promptNewID && (k.String() == "left" || k.String() == "right"):
			if d.scope == resources.ScopeProject {
				d.scope = resources.ScopeGlobal
			} else {
				d.scope = resources.ScopeProject
			}
			return false, nil, nil
		}
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return false, nil, cmd
}

// setSize fits the input into the dialog's body on a screen width cells
// wide.
func (d *promptDialog) setSize(width, _ int) {
	d.input.SetWidth(max(10, common.DialogInner(width)-len(d.input.Prompt)-1))
}

// View implements dialog.Dialog: the note, the scope of a new
// capability, the input.
func (d *promptDialog) View(width, height int) string {
	st := &d.com.Styles
	var body []string
	if d.body != "" {
		body = wrap(st.Text.Muted.Render(sanitize.Fold(d.body)), common.DialogInner(width))
	}
	if d.kind == promptNewID {
		project, global := i18n.T("project"), i18n.T("global")
		proj, glob := "  "+project+"  ", "  "+global+"  "
		if d.scope == resources.ScopeProject {
			proj = st.List.Selected.Render("[" + project + "]")
		} else {
			glob = st.List.Selected.Render("[" + global + "]")
		}
		body = append(body, i18n.T("scope: %s", proj+" "+glob)+st.Text.Muted.Render("  ←/→"))
	}
	body = append(body, d.input.View())
	return dialogBox(st, width, height, d.title, body, common.KeyHint(d.ShortHelp()))
}

// submitPrompt acts on a prompt's text: a directive is planned, a new
// capability's editor opens, a tool name joins the editor's picker; the
// prompt closes, or stays with its body saying what is wrong.
func (m *Model) submitPrompt(d *promptDialog) tea.Cmd {
	text := d.input.Value()
	switch d.kind {
	case promptAddText:
		if jsonv.TrimJS(text) == "" {
			d.body = i18n.T("Type the directive first (it is kept verbatim).")
			return nil
		}
		m.dialogs.Pop()
		return m.startAction(capstate.Operation{Kind: capstate.OpAdd, Arg: text})
	case promptNewID:
		id := jsonv.TrimJS(text)
		if !preset.IsValidResourceID(id) {
			d.body = i18n.T("“%s” is not a valid id: start with a letter or digit, then letters, digits, . _ -", sanitize.Fold(id))
			return nil
		}
		if m.lib != nil {
			if err := m.lib.IDTaken(resources.KindCapability, d.scope, id); err != nil {
				d.body = sanitize.Fold(err.Error())
				return nil
			}
		}
		m.dialogs.Pop()
		m.edit = newEditor(m.com, &m.keys, d.scope, id, nil, "", m.view.declared)
		m.focus = paneDetail
		return nil
	case promptToolName:
		name := jsonv.TrimJS(text)
		if problem := capability.ToolNameProblem(name); problem != "" {
			d.body = problem
			return nil
		}
		m.dialogs.Pop()
		if m.edit != nil {
			m.edit.addTool(name)
		}
		return nil
	}
	return nil
}

// bindingChoices lists the bindings of the Preset in force at the leaf.
func bindingChoices(v *sessionView) ([]choice, string) {
	st := v.state
	if st == nil || st.Runtime == nil {
		return nil, i18n.T("The session's capability state is still being computed.")
	}
	bs, msg := st.Runtime.ReadBindings()
	if msg != "" {
		return nil, piForgeSays(msg)
	}
	if st.Preset == nil {
		return nil, piForgeSays("No active preset; cannot activate a bound capability.") //i18n:raw pi-forge's message, reproduced exactly
	}
	out := make([]choice, 0, len(bs))
	for _, b := range bs {
		who := i18n.T("human-only")
		if b.ModelCallable {
			who = i18n.T("model-callable")
		}
		out = append(out, choice{id: b.ID, label: b.ID + " — " + b.Ref.String() + " · " + who + "  " + strings.TrimSpace(b.Capability.Tools.String())})
	}
	if len(out) == 0 {
		return nil, piForgeSays("No capability bindings in active preset.") //i18n:raw pi-forge's message, reproduced exactly
	}
	return out, ""
}
