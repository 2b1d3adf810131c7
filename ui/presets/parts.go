package presets

import (
	"charm.land/bubbles/v2/textarea"

	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/ui/common"
	dialogkit "github.com/forgebench/forgebench/ui/components/dialog"
	"github.com/forgebench/forgebench/ui/components/draft"
	"github.com/forgebench/forgebench/ui/components/forms"
)

// The panel's parts: each holds the state of one thing on screen (Model).

// draftEditor is the open Preset: its draft, the item list, the inline
// block editor and the form of the row under the cursor.
type draftEditor struct {
	// open is the loaded Preset the draft came from (nil = none open).
	open     *resources.Preset
	revision string
	d        *draft.Draft
	// opening numbers open requests: the file is parsed in a command and
	// only the latest request's result is installed.
	opening int
	// autoOpened is true while the open Preset was picked by the panel
	// (not the user) and is untouched, so the session's active Preset may
	// replace it when the run context arrives.
	autoOpened bool
	// focusNewDraft moves focus to the items once a preset just created
	// (new, fork) has opened, so editing can start at once.
	focusNewDraft bool
	// unparsed is true when the open file is not a JSON object: its draft
	// is the fallback stack and is never saved over the file.
	unparsed bool
	// conflict says the open file changed on disk under the draft: a save
	// was refused, or the watcher saw it.
	conflict conflictState
	// wantItem is an item id a jump to this panel points at
	// (common.JumpTarget.ItemID), shown once its Preset is open.
	wantItem string

	// items lists the draft's items, then the settings rows.
	items *common.List[itemRow]

	editing bool
	ta      textarea.Model
	// blockScroll is the wheel's scroll of the block being read and
	// blockWrap its wrapped lines (mouse.go).
	blockScroll blockScroll
	blockWrap   blockWrap
	// taItem is the item index whose content the textarea holds (-1 none).
	taItem int

	form     forms.Form
	formRow  int // the item or settings row the form edits (-1 none)
	formKind string
	// formMemory is what forms remember for the open draft.
	formMemory *forms.Memory
	// gate holds keys while a form's edit is on its way (formgate.go).
	gate formGate
}

// overlays are what opens over the panes: the dialogs and the draft diff.
type overlays struct {
	// dialogs are the open dialogs (dialog.go); the top one has the keys.
	dialogs dialogkit.Stack
	// diff is the open draft diff (draftdiff.go); nil when closed.
	diff *draftDiff
}

// panelStatus is the panel's message line.
type panelStatus struct {
	status    string
	statusErr bool
	// wholeNote is the message the last key found, which v shows whole
	// (copy.go) after the key cleared the line.
	wholeNote string
	// statusClock expires the message (status.go).
	statusClock common.StatusClock
}
