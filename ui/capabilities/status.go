package capabilities

import "github.com/forgebench/forgebench/ui/common"

// panelStatus is the message on the panel's last row: set from many
// places (a part's intent, a command's result, a dialog's answer) and
// expired by itself (common.StatusClock, scheduled after every Update).
type panelStatus struct {
	status    string
	statusErr bool
	// statusClock expires the message (common.StatusClock).
	statusClock common.StatusClock
}

// setStatus shows a message in the panel's status line.
func (s *panelStatus) setStatus(text string, isErr bool) {
	s.status, s.statusErr = text, isErr
	s.statusClock.Set()
}
