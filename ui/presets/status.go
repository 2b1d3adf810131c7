package presets

import (
	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// statusExpiredMsg ends the status message numbered seq (statusSet), if
// it is still the one shown.
type statusExpiredMsg struct{ seq int }

// setStatus shows a one-line message under the panes; it expires after
// common.StatusTTL (common.StatusErrorTTL for an error) unless a later
// message replaces it first.
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
	m.statusSet++
}

// expireStatus schedules the expiry of a message set since the last call
// (nil when none is).
func (m *Model) expireStatus() tea.Cmd {
	if m.statusTimed == m.statusSet || m.status == "" {
		return nil
	}
	m.statusTimed = m.statusSet
	ttl := common.StatusTTL
	if m.statusErr {
		ttl = common.StatusErrorTTL
	}
	return m.com.Later(ttl, statusExpiredMsg{seq: m.statusSet})
}
