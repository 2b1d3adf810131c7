package agents

// A part of the panel (the detail, the timeline, the transcript) answers
// a key with what it asks of the panel: an intent (nil: nothing). Intents
// are what touches more than the part — the screen, the focus, the load,
// the list — so only the panel acts on them, and a part never reaches
// into the panel or into another part.
type intent interface{ isIntent() }

// backIntent leaves the part: its screen for the dashboard, the detail
// pane for the list.
type backIntent struct{}

func (backIntent) isIntent() {}

// reloadIntent reads the tree again (r).
type reloadIntent struct{}

func (reloadIntent) isIntent() {}

// openAgentIntent opens an agent as the list opens one; closed says which
// of the list's filters holds it.
type openAgentIntent struct {
	path   string
	closed bool
}

func (openAgentIntent) isIntent() {}

// followIntent follows the transcript's file.
type followIntent struct{}

func (followIntent) isIntent() {}

// renderIntent renders the transcript anew (other pages, expanded output).
type renderIntent struct{}

func (renderIntent) isIntent() {}

// statusIntent puts a message on the panel's status line.
type statusIntent struct {
	text  string
	isErr bool
}

func (statusIntent) isIntent() {}
