// Package palette is the `:` command palette: a fuzzy-filtered list of
// actions contributed by the root and the focused panel. Choosing an action
// emits its message; the palette itself knows nothing about what it runs.
package palette

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// Action is one palette entry.
type Action struct {
	Title string // what the user searches and reads
	Hint  string // usually the key that does the same outside the palette
	Msg   tea.Msg
}

// ClosedMsg is sent when the palette closes without running anything.
type ClosedMsg struct{}

// Model is the palette dialog.
type Model struct {
	keys     keymap.Palette
	input    textinput.Model
	actions  []Action
	matches  []int // indexes into actions, best first
	cursor   int
	open     bool
	maxItems int
}

// New returns a closed palette answering to keys; its input edits with
// text, the workbench's one-line text keys (keymap.TextEditor).
func New(keys keymap.Palette, text keymap.TextEditor) Model {
	in := textinput.New()
	in.Prompt = ": "
	in.Placeholder = "type to filter commands"
	common.ApplyTextKeys(&in, &text)
	// A steady cursor, like every input of the workbench; View gives it
	// the theme's colour, so a theme switch reaches it.
	common.ApplyTextStyle(&in, nil)
	return Model{keys: keys, input: in, maxItems: 10}
}

// Open shows the palette with the given actions and focuses its input.
func (m *Model) Open(actions []Action) tea.Cmd {
	m.actions, m.open, m.cursor = actions, true, 0
	m.input.Reset()
	m.filter()
	return m.input.Focus()
}

// IsOpen reports whether the palette is showing.
func (m Model) IsOpen() bool { return m.open }

// filter ranks actions by fuzzy match on their titles; an empty query
// keeps the contributed order.
func (m *Model) filter() {
	q := strings.TrimSpace(m.input.Value())
	m.matches = m.matches[:0]
	if q == "" {
		for i := range m.actions {
			m.matches = append(m.matches, i)
		}
	} else {
		titles := make([]string, len(m.actions))
		for i, a := range m.actions {
			titles[i] = a.Title
		}
		for _, r := range fuzzy.Find(q, titles) {
			m.matches = append(m.matches, r.Index)
		}
	}
	m.cursor = min(m.cursor, max(0, len(m.matches)-1))
}

// Update handles keys while the palette is open.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if !m.open {
		return m, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.keys.Close):
			m.open = false
			return m, func() tea.Msg { return ClosedMsg{} }
		case key.Matches(k, m.keys.Up):
			if m.cursor > 0 {
				m.cursor--
			}
			return m, nil
		case key.Matches(k, m.keys.Down):
			if m.cursor < len(m.matches)-1 {
				m.cursor++
			}
			return m, nil
		case key.Matches(k, m.keys.Run):
			m.open = false
			if len(m.matches) == 0 {
				return m, func() tea.Msg { return ClosedMsg{} }
			}
			chosen := m.actions[m.matches[m.cursor]].Msg
			return m, func() tea.Msg { return chosen }
		}
	}
	var cmd tea.Cmd
	before := m.input.Value()
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		m.cursor = 0
		m.filter()
	}
	return m, cmd
}

// View renders the dialog no wider than width.
func (m Model) View(st themes.Styles, width int) string {
	inner := max(20, min(64, width-6))
	m.input = m.themedInput(st)
	m.input.SetWidth(inner - 3)
	var b strings.Builder
	b.WriteString(st.Dialog.Title.Render("Commands"))
	b.WriteString("\n")
	b.WriteString(m.input.View())
	b.WriteString("\n")
	if len(m.matches) == 0 {
		b.WriteString(st.Text.Muted.Render("no matching command"))
	}
	start := max(0, m.cursor-m.maxItems+1)
	for i := start; i < len(m.matches) && i < start+m.maxItems; i++ {
		a := m.actions[m.matches[i]]
		hint := st.Text.Muted.Render(a.Hint)
		title := ansi.Truncate(a.Title, inner-lipgloss.Width(hint)-3, "…")
		gap := max(1, inner-lipgloss.Width(title)-lipgloss.Width(hint)-2)
		line := title + strings.Repeat(" ", gap) + hint
		if i == m.cursor {
			line = st.List.Selected.Render("> " + line)
		} else {
			line = st.List.Item.Render("  " + line)
		}
		b.WriteString("\n" + line)
	}
	return st.Dialog.Box.Width(inner + 4).Render(b.String())
}

// themedInput is the input with the cursor of theme st: styled at render
// time, so a theme switch reaches an open palette.
func (m Model) themedInput(st themes.Styles) textinput.Model {
	in := m.input
	common.ApplyTextStyle(&in, &st)
	return in
}
