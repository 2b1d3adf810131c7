package presets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/jsonv"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
)

// defaultMirror returns a fresh tree of the project's default Pi mirror
// (resources.DefaultMirror: no auto-activation, so it never competes with
// an existing auto-activating preset).
func defaultMirror() *jsonv.Object {
	return preset.ToJSON(resources.DefaultMirror("new-preset"))
}

func newConfirm(title, body string, onYes func(*Model, string) tea.Cmd) *dialog {
	return &dialog{kind: "confirm", title: title, body: body, onYes: onYes}
}

func newPrompt(title, body, value string, onYes func(*Model, string) tea.Cmd) *dialog {
	in := textinput.New()
	in.Prompt = "id: "
	in.SetValue(value)
	in.CursorEnd()
	styles := in.Styles()
	styles.Cursor.Blink = false
	in.SetStyles(styles)
	return &dialog{kind: "prompt", title: title, body: body, input: in, onYes: onYes}
}

// dialogKey handles a key while a dialog is open.
func (m *Model) dialogKey(msg tea.KeyPressMsg) tea.Cmd {
	d := m.dlg
	k := &m.keys
	switch d.kind {
	case "confirm":
		switch {
		case key.Matches(msg, k.Confirm):
			m.dlg = nil
			return d.onYes(m, "")
		case key.Matches(msg, k.Cancel):
			m.dlg = nil
		}
		return nil
	case "slots":
		slots := slotNames()
		switch {
		case key.Matches(msg, k.Up):
			d.cursor = max(0, d.cursor-1)
		case key.Matches(msg, k.Down):
			d.cursor = min(len(slots)-1, d.cursor+1)
		case key.Matches(msg, k.Submit):
			m.dlg = nil
			return d.onYes(m, slots[d.cursor])
		case key.Matches(msg, k.Dismiss):
			m.dlg = nil
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Submit):
		id := jsonv.TrimJS(d.input.Value())
		if !preset.IsValidResourceID(id) {
			d.body = "“" + id + "” is not a valid id: start with a letter or digit, then letters, digits, . _ -"
			return nil
		}
		m.dlg = nil
		return d.onYes(m, id)
	case key.Matches(msg, k.Dismiss):
		m.dlg = nil
		return nil
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd
}

// createFromTree writes tree under a new id as a new Preset file.
func (m *Model) createFromTree(tree *jsonv.Object, id string, scope preset.Scope, verb string) tea.Cmd {
	next, err := setPath(tree, Path{"id"}, id, false)
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	if verb == "new" {
		next, _ = setPath(next, Path{"name"}, id, false)
	}
	stack, _ := preset.ParseValue(next, id+".json", preset.ParseOptions{Scope: scope})
	m.setStatus(verb+" "+string(scope)+":"+id+"…", false)
	return createCmd(m.com.Workspace, verb, scope, stack)
}

// dialogView draws the open dialog centred in the panel.
func (m *Model) dialogView() string {
	st := m.com.Styles
	d := m.dlg
	w := min(max(30, m.width-8), 72)
	inner := w - 4
	var lines []string
	lines = append(lines, st.Dialog.Title.Render(d.title), "")
	for _, l := range wrap(d.body, inner) {
		lines = append(lines, l)
	}
	lines = append(lines, "")
	hint := st.Text.Muted.Render(common.KeyHint(m.ShortHelp()))
	switch d.kind {
	case "confirm":
		lines = append(lines, hint)
	case "prompt":
		d.input.SetWidth(max(10, inner-6))
		lines = append(lines, d.input.View(), "", hint)
	case "slots":
		slots := slotNames()
		for i, s := range slots {
			if i == d.cursor {
				lines = append(lines, st.List.Selected.Render("▸ "+s))
			} else {
				lines = append(lines, "  "+s)
			}
		}
		lines = append(lines, "", hint)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	box := st.Dialog.Box.Width(w).MaxWidth(m.width).MaxHeight(m.height).Render(strings.Join(lines, "\n"))
	return lipgloss.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, box)
}

// wrap breaks text into lines of at most width cells.
func wrap(text string, width int) []string {
	if width <= 0 {
		return nil
	}
	return strings.Split(ansi.Wordwrap(text, width, ""), "\n")
}
