package presets

import tea "charm.land/bubbletea/v2"

// setStatus shows a one-line message under the panes; it expires after
// common.StatusTTL (common.StatusErrorTTL for an error) unless a later
// message replaces it first (common.StatusClock).
func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.statusErr = s, isErr
	m.statusClock.Set()
}

// expireStatus schedules the expiry of a message set since the last call
// (nil when none is).
func (m *Model) expireStatus() tea.Cmd {
	return m.statusClock.Schedule(m.com, m.status != "", m.statusErr)
}
