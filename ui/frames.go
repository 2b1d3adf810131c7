package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/forgebench/forgebench/ui/common"
)

// FrameInterval is the shortest time between two frames the workbench
// draws while messages keep coming. The runtime writes the newest frame
// to the terminal on its own 60 Hz tick, whose phase the workbench does
// not see; drawing at most twice a tick means a frame that became due
// while the gate held it back is in the runtime's hands half a tick
// later, not a whole one (with a whole one, the last frame of a burst of
// keys waited up to two ticks: the gate's, then the runtime's).
const FrameInterval = time.Second / 120

// bubbletea calls View after every message. Keys arriving in a burst (100
// in one read) and the results and timers they start are many messages in
// a few milliseconds; drawing the whole screen for each cost more than
// handling them, so the last key's frame came long after the key. The
// frame gate draws at most one frame per interval: a View asked for sooner
// gives the last frame again, and the Update before it schedules one
// redraw for when the interval is over, so the newest state is always
// drawn within an interval and nothing is scheduled once the workbench is
// idle.
//
// A frame that takes longer to draw than the interval (a loaded machine
// starves the process) widens the gate to its own cost: View then takes
// at most half the time while messages keep coming, and the keys queued
// behind a frame are not held up by the next one.
type frameGate struct {
	interval time.Duration
	drawn    bool          // a frame was drawn
	last     time.Time     // when
	cost     time.Duration // how long the last frame took to draw
	pending  bool          // a redraw is scheduled
}

// wait is the least time between two frames now: the interval, or the
// last frame's cost when that is longer.
func (g *frameGate) wait() time.Duration { return max(g.interval, g.cost) }

// redrawMsg is the scheduled redraw: its Update changes nothing, the View
// after it draws.
type redrawMsg struct{}

// afterUpdate schedules a redraw when the View that follows this Update
// will give the last frame again (too soon after it).
func (g *frameGate) afterUpdate(c *common.Common) tea.Cmd {
	if g.interval <= 0 || !g.drawn || g.pending {
		return nil
	}
	wait := g.wait() - c.Clock().Sub(g.last)
	if wait <= 0 {
		return nil // the View that follows draws
	}
	g.pending = true
	return c.Later(wait, redrawMsg{})
}

// skip reports whether a View asked for at now gives the last frame again.
func (g *frameGate) skip(now time.Time) bool {
	return g.interval > 0 && g.drawn && now.Sub(g.last) < g.wait()
}

// drew records a frame drawn at now.
func (g *frameGate) drew(now time.Time) { g.drawn, g.last = true, now }

// took records how long the frame drawn at start took (at end).
func (g *frameGate) took(start, end time.Time) { g.cost = end.Sub(start) }
