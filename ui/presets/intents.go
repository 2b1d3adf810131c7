package presets

import tea "charm.land/bubbletea/v2"

// A part's Update returns, next to its command, what it asks of the
// panel: an intent (nil: nothing). Intents are what touches more than the
// part itself (the focus, the open draft, a dialog), so only the panel
// acts on them (run), and a part never reaches into the panel or into
// another part.
type intent interface{ isIntent() }

// focusIntent gives a pane the keys.
type focusIntent struct{ pane pane }

func (focusIntent) isIntent() {}

// run acts on what a part asked and batches it with the part's command.
func (m *Model) run(cmd tea.Cmd, in intent) tea.Cmd {
	switch in := in.(type) {
	case focusIntent:
		m.focus = in.pane
	case openPresetIntent:
		return tea.Batch(cmd, m.confirmDiscard("Open "+in.p.Key(), func() tea.Cmd { return m.openPreset(in.p, openByUser) }))
	case newPresetIntent:
		return tea.Batch(cmd, m.promptNew())
	case deletePresetIntent:
		return tea.Batch(cmd, m.confirmDeletePreset(in.p))
	}
	return cmd
}
