package agents

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
)

// noop is a message the panel does not act on.
type noop struct{}

// Issue 15: status messages expire after a few seconds; the Agents
// panel's ("follow ended", "this is the first page") stayed until the next
// key.
func TestAStatusMessageExpires(t *testing.T) {
	hs := newHarness(t, 160, 48)
	hs.m.setStatus("follow ended", false)
	hs.Send(noop{})
	if n, after := scheduled[common.StatusExpiredMsg](hs); n != 1 || after != common.StatusTTL {
		t.Fatalf("one expiry after %v is scheduled, got %d after %v", common.StatusTTL, n, after)
	}
	if !strings.Contains(hs.view(), "follow ended") {
		t.Fatal("the message shows")
	}
	fire[common.StatusExpiredMsg](hs)
	if strings.Contains(hs.view(), "follow ended") {
		t.Fatal("the message did not expire")
	}
}
