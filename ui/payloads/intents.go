package payloads

// The panel's cache views (the branch's requests, requests.go, and the
// project's breaks, breaks.go) are parts that own their list, their load
// and their keys. A part's key handling returns, next to its command, what
// it asks of the panel: an intent (nil: nothing). Intents are what touches
// the comparison or the mode, so only the panel acts on them (run), and a
// part never reaches into the panel or into the other part.
type intent interface{ isIntent() }

// backIntent leaves a cache view for the comparison.
type backIntent struct{}

func (backIntent) isIntent() {}

// openRequestsIntent shows the branch's requests.
type openRequestsIntent struct{}

func (openRequestsIntent) isIntent() {}

// compareIntent compares a pair picked in a cache view; mark, when set,
// is the break's cause for the header (enter on a break), which also stops
// a wait for the selection to rest.
type compareIntent struct {
	refs [2]string
	mark string
}

func (compareIntent) isIntent() {}
