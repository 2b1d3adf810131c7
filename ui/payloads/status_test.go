package payloads

import (
	"strings"
	"testing"
)

// noop is a message the panel does not act on.
type noop struct{}

// Issue 15: status messages expire after a few seconds; the Payloads
// panel's stayed until the next key.
func TestAStatusMessageExpires(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "")
	hs.Timers = nil
	hs.m.setStatus("nothing to jump to: no comparison", true)
	hs.Send(noop{})
	if len(hs.Timers) != 1 || !strings.Contains(hs.view(), "nothing to jump to") {
		t.Fatalf("the message shows and one expiry is scheduled: %+v", hs.Timers)
	}
	hs.FireTimers()
	if strings.Contains(hs.view(), "nothing to jump to") {
		t.Fatal("the message did not expire")
	}
}
