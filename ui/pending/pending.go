// Package pending is the panel shown for a tab whose issue has not landed
// yet. It says plainly which piece of work fills it, so nobody mistakes it
// for a finished feature.
package pending

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// Model is a single-pane panel with a title and an explanation.
type Model struct {
	com           *common.Common
	title, filler string
	features      []string
	width, height int
}

// New returns a pending panel. filler names the issue that builds the panel
// and features lists what it will show.
func New(com *common.Common, title, filler string, features ...string) *Model {
	return &Model{com: com, title: title, filler: filler, features: features}
}

// Init implements common.Panel.
func (m *Model) Init() tea.Cmd { return nil }

// Update implements common.Panel; a pending panel has no keys of its own.
func (m *Model) Update(tea.Msg) (common.Panel, tea.Cmd) { return m, nil }

// SetSize implements common.Panel.
func (m *Model) SetSize(w, h int) { m.width, m.height = w, h }

// Title implements common.Panel.
func (m *Model) Title() string { return m.title }

// FocusNext implements common.Panel (one pane only).
func (m *Model) FocusNext() {}

// FocusPrev implements common.Panel (one pane only).
func (m *Model) FocusPrev() {}

// CapturesInput implements common.Panel.
func (m *Model) CapturesInput() bool { return false }

// ShortHelp implements common.Panel.
func (m *Model) ShortHelp() []key.Binding { return nil }

// FullHelp implements common.Panel.
func (m *Model) FullHelp() [][]key.Binding { return nil }

// View implements common.Panel.
func (m *Model) View() string {
	st := m.com.Styles
	var b strings.Builder
	b.WriteString(st.Pane.TitleFocused.Render(m.title))
	b.WriteString("\n\n")
	b.WriteString(st.Pane.Placeholder.Render("Not built yet — " + m.filler + "."))
	if len(m.features) > 0 {
		b.WriteString("\n\n")
		b.WriteString(st.Text.Subtle.Render("It will show:"))
		for _, f := range m.features {
			b.WriteString("\n  • ")
			b.WriteString(st.Text.Normal.Render(f))
		}
	}
	box := st.Pane.BorderFocused.Padding(0, 1)
	fw, fh := box.GetFrameSize()
	return box.Width(max(0, m.width)).Height(max(0, m.height)).
		Render(lipgloss.NewStyle().MaxWidth(max(0, m.width-fw)).MaxHeight(max(0, m.height-fh)).Render(b.String()))
}
