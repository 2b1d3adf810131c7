package capabilities

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// noop is a message the panel does not act on.
type noop struct{}

// Issue 15: status messages expire after a few seconds. The panel's line
// kept a message ("deleted …", an error) until the next key; it now goes
// back to the idle hints once its time is up, and an expiry meant for an
// older message leaves a newer one alone.
func TestAStatusMessageExpires(t *testing.T) {
	hs := newHarness(t, 160, 30, true)
	hs.Timers = nil
	hs.m.setStatus("only bindings of the session's active Preset can be enabled", true)
	hs.Send(noop{})
	if len(hs.Timers) != 1 {
		t.Fatalf("one expiry is scheduled: %+v", hs.Timers)
	}
	old := hs.Timers
	hs.Timers = nil
	hs.m.setStatus("deleted project:x", false)
	hs.Send(noop{})
	hs.Timers, old = old, hs.Timers
	hs.FireTimers()
	if line := ansi.Strip(hs.m.statusLine()); !strings.Contains(line, "deleted project:x") {
		t.Fatalf("an older expiry ended the newer message: %q", line)
	}
	hs.Timers = old
	hs.FireTimers()
	if line := ansi.Strip(hs.m.statusLine()); strings.Contains(line, "deleted") || !strings.Contains(line, "enable binding") {
		t.Fatalf("the message expired and the idle hints are back: %q", line)
	}
}
