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

// InputSettle is how long a key's frame waits for the next key: keys of
// one read reach Update back to back (tens of microseconds apart), so
// they are all handled before the frame that shows where they ended, and
// quick work they start (the Session panel's detail, the palette's
// match: common.RenderDelay) lands in that frame too. A key typed alone
// is drawn InputSettle after it.
const InputSettle = 3 * time.Millisecond

// inputHold is the longest input arriving without a pause holds frames
// back: a stream of keys longer than that is drawn as it goes.
const inputHold = 50 * time.Millisecond

// bubbletea calls View after every message. Keys arriving in a burst (100
// in one read) and the results and timers they start are many messages in
// a few milliseconds; drawing the whole screen for each cost more than
// handling them, so the last key's frame came long after the key. The
// frame gate draws at most one frame per interval, and none while input
// is still arriving (InputSettle, at most inputHold): a View asked for
// sooner gives the last frame again, and the Update before it schedules
// one redraw for when the gate opens, so the newest state is always drawn
// and nothing is scheduled once the workbench is idle. Without the input
// rule, the first key of a burst was drawn at once, and the frame, which
// took longer than the rest of the burst, held up the keys behind it.
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
	// input is when the newest input was handled; held when the first
	// input not drawn yet was (zero: none is waiting for a frame).
	input, held time.Time
	// answering is until when frames answer the keys drawn last: for two
	// intervals after the frame keys waited for, what they started (the
	// palette's match, a detail that took longer than InputSettle) is
	// drawn as soon as it comes, held only by the last frame's cost, and
	// not an interval after the frame a timer of theirs drew meanwhile.
	answering time.Time
}

// wait is the least time between two frames now: the interval, or the
// last frame's cost when that is longer.
func (g *frameGate) wait() time.Duration { return max(g.interval, g.cost) }

// afterUpdate notes input (msg) and schedules a redraw when the View that
// follows this Update will give the last frame again.
func (g *frameGate) afterUpdate(c *common.Common, msg tea.Msg) tea.Cmd {
	if g.interval <= 0 {
		return nil
	}
	now := c.Clock()
	if isInput(msg) {
		g.input = now
		if g.held.IsZero() {
			g.held = now
		}
	}
	open := g.opens()
	if g.pending || !now.Before(open) {
		return nil // a redraw is on its way, or the View that follows draws
	}
	g.pending = true
	return c.Later(open.Sub(now), redrawMsg{})
}

// opens is when the gate lets the next frame be drawn.
func (g *frameGate) opens() time.Time {
	var at time.Time
	switch {
	case g.last.Before(g.answering):
		at = g.last.Add(g.cost)
	case g.drawn:
		at = g.last.Add(g.wait())
	}
	if !g.held.IsZero() {
		settled := g.input.Add(InputSettle)
		if limit := g.held.Add(inputHold); settled.After(limit) {
			settled = limit
		}
		if settled.After(at) {
			at = settled
		}
	}
	return at
}

// redrawMsg is the scheduled redraw: its Update changes nothing, the View
// after it draws.
type redrawMsg struct{}

// skip reports whether a View asked for at now gives the last frame again.
func (g *frameGate) skip(now time.Time) bool {
	return g.interval > 0 && now.Before(g.opens())
}

// drew records a frame drawn at now.
func (g *frameGate) drew(now time.Time) {
	if !g.held.IsZero() {
		g.answering = now.Add(2 * g.interval)
	}
	g.drawn, g.last, g.held = true, now, time.Time{}
}

// took records how long the frame drawn at start took (at end).
func (g *frameGate) took(start, end time.Time) { g.cost = end.Sub(start) }
