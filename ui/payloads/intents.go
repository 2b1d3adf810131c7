package payloads

// The panel's views are parts that own their state and their keys (the
// pair view with its cause line, pair.go and cause.go; the reference
// picker, picker.go; the cache views, the branch's requests, requests.go,
// and the project's breaks, breaks.go). A part's key handling returns,
// next to its command, what it asks of the panel: an intent (nil:
// nothing). Intents are what touches the comparison, the mode, the picker
// or another panel, so only the panel acts on them (run), and a part
// never reaches into the panel or into another part.
type intent interface{ isIntent() }

// backIntent leaves a cache view for the comparison.
type backIntent struct{}

func (backIntent) isIntent() {}

// openRequestsIntent shows the branch's requests.
type openRequestsIntent struct{}

func (openRequestsIntent) isIntent() {}

// compareIntent compares a pair picked in a cache view; brk, when set,
// is the break whose cause the header shows (enter on a break), which
// also stops a wait for the selection to rest.
type compareIntent struct {
	refs [2]string
	brk  *breakRow
}

func (compareIntent) isIntent() {}

// pickIntent opens the reference picker for a side (0 = A, 1 = B).
type pickIntent struct{ side int }

func (pickIntent) isIntent() {}

// reloadIntent compares the pair again, read anew.
type reloadIntent struct{}

func (reloadIntent) isIntent() {}

// openBreaksIntent shows the project's cache breaks.
type openBreaksIntent struct{}

func (openBreaksIntent) isIntent() {}

// jumpIntent jumps to what produced the selected block (jump.go).
type jumpIntent struct{}

func (jumpIntent) isIntent() {}

// statusIntent puts a message on the panel's status.
type statusIntent struct {
	text  string
	isErr bool
}

func (statusIntent) isIntent() {}

// chooseIntent makes a picked row the picker's side.
type chooseIntent struct{ item pickItem }

func (chooseIntent) isIntent() {}

// closePickerIntent leaves the picker, the pair as it was.
type closePickerIntent struct{}

func (closePickerIntent) isIntent() {}
