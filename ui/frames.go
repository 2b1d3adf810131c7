package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// FrameInterval is the shortest time between two frames the workbench
// draws while messages keep coming (the terminal shows at most 60 a
// second anyway).
const FrameInterval = time.Second / 60

// bubbletea calls View after every message. Keys arriving in a burst (100
// in one read) and the results and timers they start are many messages in
// a few milliseconds; drawing the whole screen for each cost more than
// handling them, so the last key's frame came long after the key. The
// frame gate draws at most one frame per interval: a View asked for sooner
// gives the last frame again, and the Update before it schedules one
// redraw for when the interval is over, so the newest state is always
// drawn within an interval and nothing is scheduled once the workbench is
// idle.
type frameGate struct {
	interval time.Duration
	drawn    bool      // a frame was drawn
	last     time.Time // when
	pending  bool      // a redraw is scheduled
}

// redrawMsg is the scheduled redraw: its Update changes nothing, the View
// after it draws.
type redrawMsg struct{}

// afterUpdate schedules a redraw when the View that follows this Update
// will give the last frame again (too soon after it).
func (g *frameGate) afterUpdate(c *common.Common) tea.Cmd {
	if g.interval <= 0 || !g.drawn || g.pending {
		return nil
	}
	wait := g.interval - c.Clock().Sub(g.last)
	if wait <= 0 {
		return nil // the View that follows draws
	}
	g.pending = true
	return c.Later(wait, redrawMsg{})
}

// skip reports whether a View asked for at now gives the last frame again.
func (g *frameGate) skip(now time.Time) bool {
	return g.interval > 0 && g.drawn && now.Sub(g.last) < g.interval
}

// drew records a frame drawn at now.
func (g *frameGate) drew(now time.Time) { g.drawn, g.last = true, now }
