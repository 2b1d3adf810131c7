package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/resources"
	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// Issue 21: bubbletea draws the screen after every message, and a burst
// of 100 keys (plus what they start) drew it hundreds of times, so the
// last key's frame came long after the key. With a frame interval, keys
// closer together than it share one frame; the newest state is drawn
// when the interval is over, by one scheduled redraw, and nothing stays
// scheduled once it is drawn.
func TestFramesAreDrawnAtMostOncePerInterval(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	m := New(Options{
		Workspace:     resources.Workspace{Cwd: "/home/ada/projects/demo-app", Trust: resources.Trust{Trusted: true}},
		Theme:         themes.Dark,
		Keys:          keymap.DefaultSet(),
		FrameInterval: FrameInterval,
	})
	m.com.Now = func() time.Time { return now }
	h := uitest.ForModel(t, m)
	h.UseTimers(m.com)
	h.Resize(100, 30)
	// The tab bar, styled: the active tab is drawn apart.
	tabs := func() string { return strings.Split(m.View().Content, "\n")[1] }
	first := tabs()
	now = now.Add(time.Millisecond)
	h.Send(uitest.Key("2")) // another tab, a millisecond after the last frame
	if got := tabs(); got != first {
		t.Fatalf("a frame drawn a millisecond after the last one: %q", got)
	}
	h.Send(uitest.Key("3"))
	var redraws int
	for _, tm := range h.Timers {
		if _, ok := tm.Msg.(redrawMsg); ok {
			redraws++
			if tm.After <= 0 || tm.After > FrameInterval {
				t.Fatalf("the redraw waits %s, want at most %s", tm.After, FrameInterval)
			}
		}
	}
	if redraws != 1 {
		t.Fatalf("%d redraws scheduled for two keys within a frame, want one", redraws)
	}
	now = now.Add(FrameInterval)
	h.FireTimers()
	if got := tabs(); got == first || m.active != 2 {
		t.Fatalf("after the interval the newest state is not drawn (active %d): %q", m.active, got)
	}
	if len(h.Timers) != 0 {
		t.Fatalf("still scheduled once drawn: %+v", h.Timers)
	}
	drawn := tabs()
	now = now.Add(time.Second)
	h.Send(uitest.Key("1")) // a key after a quiet second: drawn once no other key follows
	if got := tabs(); got != drawn || len(h.Timers) != 1 || h.Timers[0].After != InputSettle {
		t.Fatalf("a key is drawn before InputSettle has passed without another (timers %+v)", h.Timers)
	}
	now = now.Add(InputSettle)
	h.FireTimers()
	if got := tabs(); got == drawn || len(h.Timers) != 0 || !strings.Contains(ansi.Strip(got), "1 Presets") {
		t.Fatalf("a key is not drawn InputSettle after it (timers %+v)", h.Timers)
	}
}

// Issue 21: the first key of a burst was drawn at once, and that frame
// (longer than handling the rest of the burst) held up the keys queued
// behind it. Keys arriving back to back share one frame, drawn once
// InputSettle has passed without a key; a stream of keys that does not
// pause is still drawn every inputHold.
func TestKeysArrivingTogetherShareAFrame(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	m := New(Options{
		Workspace:     resources.Workspace{Cwd: "/home/ada/projects/demo-app", Trust: resources.Trust{Trusted: true}},
		Theme:         themes.Dark,
		Keys:          keymap.DefaultSet(),
		FrameInterval: FrameInterval,
	})
	m.com.Now = func() time.Time { return now }
	h := uitest.ForModel(t, m)
	h.UseTimers(m.com)
	h.Resize(100, 30)
	views := 0
	view := func() string {
		before := m.frames.last
		v := m.View().Content
		if m.frames.last != before {
			views++
		}
		return v
	}
	first := view()
	now = now.Add(time.Second)
	for _, k := range []string{"2", "3", "4", "5", "3"} { // 50 µs apart, as from one read
		h.Send(uitest.Key(k))
		if view(); views != 1 {
			t.Fatalf("a frame drawn in the middle of a burst, after %q", k)
		}
		now = now.Add(50 * time.Microsecond)
	}
	for len(h.Timers) > 0 {
		now = now.Add(h.Timers[0].After)
		h.FireTimers()
		view()
	}
	if got := view(); views != 2 || got == first || m.active != 2 {
		t.Fatalf("%d frames for a burst, want one after it (active %d)", views-1, m.active)
	}
	// A stream of keys 1 ms apart (each within InputSettle of the last)
	// is drawn every inputHold, not held back while it lasts.
	now = now.Add(time.Second)
	start := views
	for i := 0; i < 120; i++ {
		h.Send(uitest.Key([]string{"2", "3"}[i%2]))
		now = now.Add(time.Millisecond)
		view()
	}
	if got := views - start; got < 2 || got > 3 {
		t.Fatalf("%d frames in a 120 ms stream of keys, want one every %s", got, inputHold)
	}
}

// A frame that takes longer to draw than the interval (a starved
// process) widens the gate to its cost, so keys queued behind it are
// handled before the next frame instead of between frames; the redraw
// then comes when that cost has passed.
func TestASlowFrameWidensTheGate(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := t0
	var waits []time.Duration
	com := &common.Common{Now: func() time.Time { return now }, Timer: func(d time.Duration, msg tea.Msg) tea.Cmd {
		waits = append(waits, d)
		return nil
	}}
	g := frameGate{interval: FrameInterval}
	g.drew(t0)
	g.took(t0, t0.Add(40*time.Millisecond))
	now = t0.Add(20 * time.Millisecond) // past the interval, within the cost
	if !g.skip(now) {
		t.Fatal("a frame drawn 20 ms after one that took 40 ms")
	}
	g.afterUpdate(com, nil)
	if len(waits) != 1 || waits[0] != 20*time.Millisecond {
		t.Fatalf("the redraw waits %v, want [20ms]", waits)
	}
	if g.skip(t0.Add(40 * time.Millisecond)) {
		t.Fatal("no frame once the cost has passed")
	}
	g.took(t0, t0.Add(time.Millisecond)) // a cheap frame: the interval again
	if g.skip(t0.Add(FrameInterval)) || !g.skip(t0.Add(FrameInterval-time.Millisecond)) {
		t.Fatal("a cheap frame does not bring the interval back")
	}
}

// What keys started (the palette's match, a detail that took longer
// than InputSettle) is drawn as soon as it comes after the keys' frame,
// not an interval later, also after a frame one of their timers drew;
// two intervals after the keys' frame, frames wait for the interval
// again.
func TestTheFirstResultAfterAKeysFrameIsDrawnAtOnce(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	now := t0
	com := &common.Common{Now: func() time.Time { return now }, Timer: func(time.Duration, tea.Msg) tea.Cmd { return nil }}
	g := frameGate{interval: FrameInterval}
	g.drew(t0)
	now = t0.Add(time.Second)
	g.afterUpdate(com, uitest.Key("k"))
	if g.skip(now) == false {
		t.Fatal("a key drawn before InputSettle")
	}
	now = now.Add(InputSettle)
	g.pending = false
	if g.skip(now) {
		t.Fatal("the key's frame is held after InputSettle")
	}
	g.drew(now)
	g.took(now, now.Add(time.Millisecond))
	now = now.Add(2 * time.Millisecond) // the match arrives
	if g.skip(now) {
		t.Fatal("the first result after the keys' frame waits for the interval")
	}
	g.drew(now)
	now = now.Add(2 * time.Millisecond) // another result
	if g.skip(now) {
		t.Fatal("the second result after the keys' frame waits for the interval")
	}
	g.drew(now)
	now = now.Add(2 * FrameInterval)
	g.drew(now)
	if !g.skip(now.Add(2 * time.Millisecond)) {
		t.Fatal("two intervals after the keys' frame, frames do not wait for the interval")
	}
}
