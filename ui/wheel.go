package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// wheelInterval is how close together two wheel events of the same
// direction must be for the second to be dropped.
const wheelInterval = 15 * time.Millisecond

// WheelFilter returns a program filter (tea.WithFilter) that coalesces
// mouse wheel events: trackpads send bursts of dozens of them, and each
// would otherwise cost an Update and a frame. An event in the same
// direction within wheelInterval of the last one let through is dropped;
// every other message passes untouched. now is the clock (time.Now).
func WheelFilter(now func() time.Time) func(tea.Model, tea.Msg) tea.Msg {
	var last time.Time
	var lastButton tea.MouseButton
	return func(_ tea.Model, msg tea.Msg) tea.Msg {
		wheel, ok := msg.(tea.MouseWheelMsg)
		if !ok {
			return msg
		}
		t := now()
		if wheel.Button == lastButton && t.Sub(last) < wheelInterval {
			return nil
		}
		last, lastButton = t, wheel.Button
		return msg
	}
}
