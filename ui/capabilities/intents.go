package capabilities

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/session/capstate"
)

// A part's Update returns, next to its command, what it asks of the
// panel: an intent (nil: nothing). Intents are what touches more than the
// part itself (another part, the editor, a dialog, an action on the
// session), so only the panel acts on them (run), and a part never
// reaches into the panel or into another part.
type intent interface{ isIntent() }

type (
	// detailIntent asks for the detail of the capability under the
	// library's cursor (from its top when fromTop: the cursor moved).
	detailIntent struct{ fromTop bool }
	// openEditorIntent edits the capability under the library's cursor.
	openEditorIntent struct{}
	// newCapabilityIntent asks for the scope and id of a new capability.
	newCapabilityIntent struct{}
	// deleteIntent asks before deleting the capability under the cursor.
	deleteIntent struct{}
	// enableSelectedIntent plans enabling the capability under the
	// library's cursor.
	enableSelectedIntent struct{}
	// actionIntent plans op on the followed session.
	actionIntent struct{ op capstate.Operation }
	// enableBindingIntent plans enabling the binding under the bindings
	// view's cursor.
	enableBindingIntent struct{}
	// saveIntent saves the editor's draft.
	saveIntent struct{}
	// closeEditorIntent closes the editor (asking first when its draft
	// has changes).
	closeEditorIntent struct{ dirty bool }
	// toolNameIntent asks for a tool name the editor's picker lacks.
	toolNameIntent struct{}
)

func (detailIntent) isIntent()         {}
func (openEditorIntent) isIntent()     {}
func (newCapabilityIntent) isIntent()  {}
func (deleteIntent) isIntent()         {}
func (enableSelectedIntent) isIntent() {}
func (actionIntent) isIntent()         {}
func (enableBindingIntent) isIntent()  {}
func (saveIntent) isIntent()           {}
func (closeEditorIntent) isIntent()    {}
func (toolNameIntent) isIntent()       {}

// run acts on what a part asked and batches it with the part's command.
func (m *Model) run(cmd tea.Cmd, in intent) tea.Cmd {
	switch in := in.(type) {
	// The library list's and the detail's.
	case detailIntent:
		if in.fromTop {
			m.detail.offset = 0
		}
		return tea.Batch(cmd, m.requestDetail())
	case openEditorIntent:
		return tea.Batch(cmd, m.openEditor())
	case newCapabilityIntent:
		m.openDialog(newPrompt(m, promptNewID, "New capability",
			"enter opens an empty editor for it; "+m.keys.Save.Help().Key+" there creates its file, and saving never activates it.", "id: "))
	case deleteIntent:
		return tea.Batch(cmd, m.confirmDelete())
	case enableSelectedIntent:
		if r, ok := m.list.Selected(); ok {
			return tea.Batch(cmd, m.startAction(capstate.Operation{Kind: capstate.OpEnable, Arg: r.key}))
		}

	// The session view's and the bindings view's.
	case actionIntent:
		return tea.Batch(cmd, m.startAction(in.op))
	case locateIntent:
		return tea.Batch(cmd, m.locateSelected())
	case enableBindingIntent:
		if id := m.bindingUnderCursor(); id != "" {
			return tea.Batch(cmd, m.startAction(capstate.Operation{Kind: capstate.OpEnableBound, Arg: id}))
		}

	// The editor's.
	case saveIntent:
		return tea.Batch(cmd, m.save())
	case closeEditorIntent:
		return tea.Batch(cmd, m.closeEditor(in.dirty))
	case toolNameIntent:
		m.openDialog(newPrompt(m, promptToolName, "Add a tool by name",
			"A tool the picker does not offer (an extension's tool this session has not declared): enter adds it to the draft as +tool.", "tool: "))
	}
	return cmd
}
