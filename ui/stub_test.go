package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// stubPanel is a do-nothing panel the root tests put in a tab to watch
// routing, focus and the quit guard without a real panel's behaviour.
type stubPanel struct {
	title         string
	width, height int
}

func newStub(title string) *stubPanel { return &stubPanel{title: title} }

func (m *stubPanel) Init() tea.Cmd                          { return nil }
func (m *stubPanel) Update(tea.Msg) (common.Panel, tea.Cmd) { return m, nil }
func (m *stubPanel) SetSize(w, h int)                       { m.width, m.height = w, h }
func (m *stubPanel) Title() string                          { return m.title }
func (m *stubPanel) FocusNext()                             {}
func (m *stubPanel) FocusPrev()                             {}
func (m *stubPanel) CapturesInput() bool                    { return false }
func (m *stubPanel) ShortHelp() []key.Binding               { return nil }
func (m *stubPanel) FullHelp() [][]key.Binding              { return nil }
func (m *stubPanel) View() string                           { return common.Fit([]string{m.title}, m.width, m.height) }
