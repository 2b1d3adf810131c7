package presets

import (
	"github.com/forgebench/forgebench/ui/common"
	dialogkit "github.com/forgebench/forgebench/ui/components/dialog"
)

// The panel's own state beside its sub-models (Model): what opens over
// the panes and the message line.

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
	// lastWrite is the session file as the panel's last append left it
	// (sessionwrite.go): not live for the next one.
	lastWrite common.FileStamp
}
