package capabilities

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/capability"
	"github.com/forgebench/forgebench/engine/compile"
	"github.com/forgebench/forgebench/engine/preset"
	"github.com/forgebench/forgebench/engine/sanitize"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// field is one part of the capability editor, in tab order.
type field int

const (
	fieldName field = iota
	fieldDescription
	fieldContent
	fieldTools
	fieldCount
)

// Tool states in the picker.
const (
	toolNone = iota
	toolAdd
	toolRemove
)

// groupThisCapability is the picker group of tools only the capability
// itself names (in its file, or typed with the tool-name key).
const groupThisCapability = "In this capability"

// toolChoice is one row of the tool picker.
type toolChoice struct {
	name, group string
	state       int
}

// editor is a capability draft, create (a new file) or edit (the file at
// revision), as a sub-model drawn in the detail pane: its fields, the
// tool picker, and why a save was refused. Its Update moves between the
// fields and edits them; saving, closing and the tool-name prompt it asks
// the panel for.
type editor struct {
	com  *common.Common
	keys *keymap.Capabilities

	create   bool
	scope    resources.Scope
	id       string
	revision string
	orig     *capability.Capability

	name, description textinput.Model
	content           windowedArea
	tools             []toolChoice
	toolCursor        int
	field             field
	dirty             bool
	// conflict explains a refused save; the draft stays.
	conflict string
}

// newEditor starts editing c (nil for a new capability of scope:id).
// declared are the tools the selected session declares, for the picker.
func newEditor(com *common.Common, keys *keymap.Capabilities, scope resources.Scope, id string, c *capability.Capability, revision string, declared []string) *editor {
	create := c == nil
	if create {
		c = &capability.Capability{ID: id, Tools: capability.ToolPatch{Add: []string{}, Remove: []string{}}}
	}
	e := &editor{com: com, keys: keys, create: create, scope: scope, id: id, revision: revision, orig: c.Clone()}
	e.name = common.NewTextInput(com, "name: ", deref(c.Name))
	e.description = common.NewTextInput(com, "description: ", deref(c.Description))
	e.content = newWindowedArea()
	e.content.area.ShowLineNumbers = false
	e.content.area.Prompt = ""
	e.content.area.MaxHeight = 0
	e.content.area.CharLimit = 0
	styles := e.content.area.Styles()
	styles.Cursor.Blink = false
	e.content.area.SetStyles(styles)
	e.content.SetValue(c.Content)
	e.tools = toolChoices(c.Tools, declared)
	e.focusField(fieldName)
	return e
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// toolChoices builds the picker: Pi's built-ins, pi-forge's control tool,
// the tools the session declares, then any other tool the patch names.
func toolChoices(p capability.ToolPatch, declared []string) []toolChoice {
	var out []toolChoice
	seen := map[string]bool{}
	addGroup := func(group string, names []string) {
		for _, n := range names {
			if seen[n] {
				continue
			}
			seen[n] = true
			state := toolNone
			switch {
			case slices.Contains(p.Add, n):
				state = toolAdd
			case slices.Contains(p.Remove, n):
				state = toolRemove
			}
			out = append(out, toolChoice{name: n, group: group, state: state})
		}
	}
	var builtins []string
	for _, b := range compile.BuiltinTools {
		builtins = append(builtins, b.Name)
	}
	addGroup("Pi built-ins", builtins)
	addGroup("pi-forge", []string{capability.ControlTool})
	addGroup("Declared in the session", declared)
	addGroup(groupThisCapability, append(append([]string{}, p.Add...), p.Remove...))
	return out
}

// focusField moves the keyboard to field f.
func (e *editor) focusField(f field) {
	e.field = (f + fieldCount) % fieldCount
	e.name.Blur()
	e.description.Blur()
	e.content.Blur()
	switch e.field {
	case fieldName:
		e.name.Focus()
	case fieldDescription:
		e.description.Focus()
	case fieldContent:
		e.content.Focus()
	}
}

// CapturesInput implements part: true while a text field has the
// keyboard.
func (e *editor) CapturesInput() bool { return e.field != fieldTools }

// ShortHelp implements part: the picker's keys, or the text fields'.
func (e *editor) ShortHelp() []key.Binding {
	k := e.keys
	if e.field == fieldTools {
		return []key.Binding{k.Toggle, k.ToolName, k.NextField, k.Save, k.Back}
	}
	return []key.Binding{k.NextField, k.Save, k.External, k.Back}
}

// Update implements part: the field keys move between fields, the
// picker's keys move and toggle its tools, the rest (a paste too) goes to
// the focused text field; the external editor key hands the content to
// $EDITOR; save, back and the tool-name key ask the panel.
func (e *editor) Update(msg tea.Msg) (tea.Cmd, intent) {
	k := e.keys
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return e.update(msg), nil
	}
	switch {
	case key.Matches(press, k.Save):
		return nil, saveIntent{}
	case key.Matches(press, k.External):
		return externalEditor(e.com, e.content.Value()), nil
	case key.Matches(press, k.NextField):
		e.focusField(e.field + 1)
		return nil, nil
	case key.Matches(press, k.PrevField):
		e.focusField(e.field - 1)
		return nil, nil
	case key.Matches(press, k.Back):
		return nil, closeEditorIntent{dirty: e.dirty}
	}
	if e.field == fieldTools {
		switch {
		case key.Matches(press, k.Up):
			e.toolCursor = max(0, e.toolCursor-1)
		case key.Matches(press, k.Down):
			e.toolCursor = min(len(e.tools)-1, e.toolCursor+1)
		case key.Matches(press, k.Toggle):
			e.cycleTool()
		case key.Matches(press, k.ToolName):
			return nil, toolNameIntent{}
		}
		return nil, nil
	}
	return e.update(msg), nil
}

// View implements the part: the editor in the detail pane r.
func (e *editor) View(r rect, focused bool) string {
	st := e.com.Styles
	return common.Frame(st, r.w, r.h, "Editor", "", focused, e.view(&st, r.w-4, r.h-2))
}

// draft is the capability the editor holds now.
func (e *editor) draft() *capability.Capability {
	c := &capability.Capability{ID: e.id, Content: e.content.Value()}
	if v := e.name.Value(); v != "" { // an emptied field drops the key
		c.Name = &v
	}
	if v := e.description.Value(); v != "" {
		c.Description = &v
	}
	c.Tools = capability.ToolPatch{Add: keepOrder(e.orig.Tools.Add, e.tools, toolAdd), Remove: keepOrder(e.orig.Tools.Remove, e.tools, toolRemove)}
	return c
}

// keepOrder lists the tools in state: those the original patch had first,
// in its order, then newly chosen ones in picker order.
func keepOrder(orig []string, tools []toolChoice, state int) []string {
	out := []string{}
	chosen := map[string]bool{}
	for _, t := range tools {
		if t.state == state {
			chosen[t.name] = true
		}
	}
	for _, n := range orig {
		if chosen[n] {
			out = append(out, n)
			delete(chosen, n)
		}
	}
	for _, t := range tools {
		if chosen[t.name] {
			out = append(out, t.name)
		}
	}
	return out
}

// diagnostics validates the draft as pi-forge would read the file.
func (e *editor) diagnostics() capability.Diagnostics { return capability.Validate(e.draft()) }

// update routes a key or message to the focused field.
func (e *editor) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	before := e.draft()
	switch e.field {
	case fieldName:
		e.name, cmd = e.name.Update(msg)
	case fieldDescription:
		e.description, cmd = e.description.Update(msg)
	case fieldContent:
		e.content, cmd = e.content.Update(msg)
	}
	if !sameCapability(before, e.draft()) {
		e.dirty = true
	}
	return cmd
}

// cycleTool moves the tool under the cursor to its next state.
func (e *editor) cycleTool() {
	if e.toolCursor < 0 || e.toolCursor >= len(e.tools) {
		return
	}
	t := &e.tools[e.toolCursor]
	t.state = (t.state + 1) % 3
	e.dirty = true
}

// addTool puts a typed tool name into the picker as an add (a name the
// picker already offers only gets the cursor) and moves the cursor there.
func (e *editor) addTool(name string) {
	for i, t := range e.tools {
		if t.name == name {
			e.toolCursor = i
			return
		}
	}
	// Its group is the picker's last, so appending keeps it together.
	e.tools = append(e.tools, toolChoice{name: name, group: groupThisCapability, state: toolAdd})
	e.toolCursor = len(e.tools) - 1
	e.dirty = true
}

func sameCapability(a, b *capability.Capability) bool {
	return string(capability.Serialize(a)) == string(capability.Serialize(b))
}

// setContent replaces the content (back from $EDITOR).
func (e *editor) setContent(text string) {
	if text != e.content.Value() {
		e.content.SetValue(text)
		e.dirty = true
	}
}

// head is the editor's lines above its fields: what it edits with its
// keys, why a save was refused, and the draft's diagnostics.
func (e *editor) head(st *themes.Styles, width int) []string {
	k := e.keys
	verb := "Edit"
	if e.create {
		verb = "New"
	}
	lines := []string{ansi.Truncate(st.Text.Strong.Render(verb+" "+string(e.scope)+":"+e.id)+st.Text.Muted.Render("  "+common.KeyHint([]key.Binding{k.NextField, k.Save, k.External, k.Back})), width, "…")}
	if e.conflict != "" {
		lines = append(lines, wrap(st.Text.Danger.Render(sanitize.Fold(e.conflict)), width)...)
	}
	for _, d := range e.diagnostics() {
		style := st.Text.Warning
		if d.Level == preset.LevelError {
			style = st.Text.Danger
		}
		lines = append(lines, style.Render(ansi.Truncate(sanitize.Fold(string(d.Level)+": "+d.Message), width, "…")))
	}
	return lines
}

// fieldLines is how many lines the name, the description and the
// content's label take between the head and the content.
const fieldLines = 3

// layout sizes the fields for the detail pane r: the one-line inputs to
// its width, the content to what the head (its diagnostics change with
// the draft) and the tool picker leave. The panel calls it after every
// Update and resize (layoutParts), so View only draws.
func (e *editor) layout(r rect) {
	width, height := r.w-4, r.h-2
	e.name.SetWidth(max(10, width-16))
	e.description.SetWidth(max(10, width-22))
	e.content.SetWidth(max(10, width-2))
	e.content.SetHeight(e.contentHeight(len(e.head(&e.com.Styles, width)), height))
}

// contentHeight is the content's height under a head of n lines in a body
// height lines tall.
func (e *editor) contentHeight(n, height int) int {
	toolRows := min(len(e.tools)+4, max(6, height/3))
	return max(3, height-n-fieldLines-toolRows-1)
}

// view draws the editor in width×height cells' worth of lines, as laid
// out (layout); its key hints come from the panel's bindings.
func (e *editor) view(st *themes.Styles, width, height int) []string {
	k := e.keys
	lines := e.head(st, width)
	mark := func(f field, label string) string {
		if e.field == f {
			return st.Text.Info.Render("▸ " + label)
		}
		return st.Text.Muted.Render("  " + label)
	}
	lines = append(lines, mark(fieldName, "")+e.name.View(), mark(fieldDescription, "")+e.description.View())
	lines = append(lines, mark(fieldContent, "content"))
	for _, l := range strings.Split(e.content.View(), "\n") {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, mark(fieldTools, "tools")+st.Text.Muted.Render("  "+common.KeyHint([]key.Binding{k.Toggle, k.ToolName})))
	return append(lines, e.toolLines(st, width, max(1, height-len(lines)))...)
}

// toolLines draws the picker window around its cursor, grouped by source.
func (e *editor) toolLines(st *themes.Styles, width, height int) []string {
	var rows []string
	cursorRow := 0
	group := ""
	for i, t := range e.tools {
		if t.group != group {
			group = t.group
			rows = append(rows, st.Text.Subtle.Render("  "+group))
		}
		box := "[ ]"
		switch t.state {
		case toolAdd:
			box = st.Diff.Add.Render("[+]")
		case toolRemove:
			box = st.Diff.Del.Render("[-]")
		}
		line := "    " + box + " " + sanitize.Fold(t.name)
		if i == e.toolCursor && e.field == fieldTools {
			line = st.List.Selected.Render(ansi.Strip(line))
			cursorRow = len(rows)
		}
		rows = append(rows, ansi.Truncate(line, width, "…"))
	}
	from := max(0, min(cursorRow-height/2, len(rows)-height))
	return rows[from:min(len(rows), from+height)]
}

// externalEditor hands the draft's content to the external editor
// (common.ExternalEditor); a trailing newline the editor adds is dropped
// when the content had none.
func externalEditor(com *common.Common, content string) tea.Cmd {
	return com.ExternalEditor().Edit(content, "forgebench-capability-*.md", func(text string, err error) tea.Msg {
		if err != nil {
			return editorDoneMsg{err: err}
		}
		if !strings.HasSuffix(content, "\n") {
			text = strings.TrimSuffix(text, "\n")
		}
		return editorDoneMsg{content: text}
	})
}

// editorDoneMsg carries the text the external editor left.
type editorDoneMsg struct {
	content string
	err     error
}
