package presets

import (
	tea "charm.land/bubbletea/v2"
	"github.com/forgebench/forgebench/i18n"
)

// A part's Update returns, next to its command, what it asks of the
// panel: an intent (nil: nothing). Intents are what touches more than the
// part itself (the focus, the open draft, a dialog), so only the panel
// acts on them (run), and a part never reaches into the panel or into
// another part.
type intent interface{ isIntent() }

// focusIntent gives a pane the keys.
type focusIntent struct{ pane pane }

func (focusIntent) isIntent() {}

// statusIntent puts a message on the panel's status line.
type statusIntent struct {
	text  string
	isErr bool
}

func (statusIntent) isIntent() {}

// passIntent hands the key back: the part does not take it, the panel's
// own keys may.
type passIntent struct{}

func (passIntent) isIntent() {}

// formAnswerIntent is a form's answer to a key: typed text runs at once,
// any other answer holds the keys after it until it is back (formgate.go).
type formAnswerIntent struct {
	cmd    tea.Cmd
	typing bool
}

func (formAnswerIntent) isIntent() {}

// run acts on what a part asked and batches it with the part's command.
func (m *Model) run(cmd tea.Cmd, in intent) tea.Cmd {
	switch in := in.(type) {
	// Any part's.
	case focusIntent:
		m.focus = in.pane
	case statusIntent:
		m.setStatus(in.text, in.isErr)
	case formAnswerIntent:
		if in.cmd != nil && !in.typing {
			return tea.Batch(cmd, m.gateCmd(in.cmd))
		}
		return tea.Batch(cmd, in.cmd)
	case bothIntent:
		return m.run(m.run(cmd, in[0]), in[1])
	case saveIntent:
		m.stopEditing()
		return tea.Batch(cmd, m.save())

	// The Preset list's.
	case openPresetIntent:
		return tea.Batch(cmd, m.confirmDiscard(i18n.T("Open %s?", in.p.Key()), func() tea.Cmd { return m.openPreset(in.p, openByUser) }))
	case newPresetIntent:
		return tea.Batch(cmd, m.promptNew())
	case usePresetIntent:
		return tea.Batch(cmd, m.planPresetUse(in.p))
	case deletePresetIntent:
		return tea.Batch(cmd, m.confirmDeletePreset(in.p))

	// The draft editor's.
	case editedIntent:
		return tea.Batch(cmd, m.edited(in.cur, in.err))
	case draftTypedIntent:
		return tea.Batch(cmd, m.schedulePreview(), m.check())
	case itemMovedIntent:
		m.afterItemMove()
	case activateItemIntent:
		return tea.Batch(cmd, m.activateItem())
	case startEditingIntent:
		return tea.Batch(cmd, m.startEditing())
	case externalEditIntent:
		return tea.Batch(cmd, m.openExternalEditor())
	case itemFormIntent:
		return tea.Batch(cmd, m.openItemForm())
	case itemCostIntent:
		return tea.Batch(cmd, m.itemCost())
	case addBlockIntent:
		return tea.Batch(cmd, m.promptAddBlock(in.at))
	case addSlotIntent:
		m.openSlotPicker()
	case deleteItemIntent:
		m.confirmDeleteItem(in.cur)

	// The Profiles view's.
	case newProfileIntent:
		return tea.Batch(cmd, m.promptNewProfile())
	case forkProfileIntent:
		return tea.Batch(cmd, m.promptForkProfile(in.p))
	case deleteProfileIntent:
		return tea.Batch(cmd, m.confirmDeleteProfile(in.p))
	case useProfileIntent:
		return tea.Batch(cmd, m.planProfileUse(in.p))
	case forgetProfileIntent:
		return tea.Batch(cmd, m.planProfileForget())
	case captureProfileIntent:
		return tea.Batch(cmd, m.promptCaptureProfile())
	case openProfilePresetIntent:
		p := in.p
		return tea.Batch(cmd, m.confirmDiscard(i18n.T("Open %s?", p.Key()), func() tea.Cmd {
			m.presets.Select(func(r presetRow) bool { return r.path == p.Path })
			m.showProfile = false
			return m.openPreset(p, openByUser)
		}))
	}
	return cmd
}
