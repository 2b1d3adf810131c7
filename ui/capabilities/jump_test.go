package capabilities

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
)

// jump follows the main session (when no session is selected) and sends
// a jump to a capability, as the Payloads panel's jump to a cause does.
func (hs *harness) jump(capabilityID string) {
	if hs.com.Selection.SessionFile == "" {
		hs.follow(hs.mainSession(), "")
	}
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelCapabilities, CapabilityID: capabilityID}})
}

// A jump to a capability puts the library cursor on it (clearing a filter
// that hides it) and the session cursor on the card it is active as.
func TestJumpSelectsTheCapability(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.focusOn(paneSession)
	hs.m.list.SetQuery("review")
	hs.jump("project:write-access")
	if r, ok := hs.m.list.Selected(); !ok || r.key != "project:write-access" {
		t.Fatalf("library cursor on %+v", r)
	}
	if hs.m.list.Query() != "" {
		t.Error("the filter that hid the capability is still set")
	}
	if hs.m.focus != paneLibrary {
		t.Errorf("focus %d, want the library", hs.m.focus)
	}
	if a, ok := hs.m.view.selectedActive(); !ok || a.Snapshot.Source.Key.String() != "project:write-access" {
		t.Errorf("session cursor on %+v", a.Snapshot.Source)
	}
	if !strings.Contains(hs.m.View(), "Capability project:write-access") {
		t.Error("the detail does not show the capability jumped to")
	}
	// The selection moving on (another entry) leaves the cursor where
	// the user moved it: a jump is taken when it arrives, never again.
	hs.Press("up")
	hs.follow(hs.mainSession(), "missing-entry")
	if r, _ := hs.m.list.Selected(); r.key == "project:write-access" {
		t.Error("a later selection moved the cursor back to the jump")
	}
}

// A jump that arrives before the library is loaded is kept until it is.
func TestJumpBeforeTheLibraryLoads(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.m.lib = nil
	hs.jump("global:plain-english")
	hs.Run(hs.m.reloadLibrary())
	if r, ok := hs.m.list.Selected(); !ok || r.key != "global:plain-english" {
		t.Fatalf("library cursor on %+v after the load", r)
	}
}

// A capability no longer in the library is said so; the session card it
// is active as (frozen snapshot) still gets the cursor.
func TestJumpToACapabilityNotInTheLibrary(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.jump("project:gone")
	if !hs.m.statusErr || !strings.Contains(hs.m.status, "project:gone is not in the library") {
		t.Fatalf("status %q", hs.m.status)
	}
}

// $ on a library capability asks what it has cost: one jump to the
// Payloads panel naming the capability as the cause's ref.
func TestWhatHasThisCostJumpsToTheCacheView(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.jump("project:write-access")
	hs.focusOn(paneLibrary)
	r, ok := hs.m.list.Selected()
	if !ok || r.key != "project:write-access" {
		t.Fatalf("library cursor on %+v", r)
	}
	before := len(hs.Jumps)
	hs.Press("$")
	if len(hs.Jumps) != before+1 {
		t.Fatalf("%d jumps", len(hs.Jumps)-before)
	}
	got := hs.Jumps[len(hs.Jumps)-1]
	if got.Target.Panel != common.PanelPayloads || got.Target.CacheBreaksOf != "project:write-access" {
		t.Fatalf("jump %+v", got)
	}
}

// > on a session card is pi-forge's Locate: a jump to the Payloads panel
// comparing the request at the followed entry with the one before it,
// looking for the section that carries the card's text; a tool-only card
// has nothing to locate.
func TestLocateJumpsToTheUpdateBlock(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.follow(hs.mainSession(), "")
	hs.focusOn(paneSession)
	a, ok := hs.m.view.selectedActive()
	if !ok {
		t.Fatal("no card in the demo's main session")
	}
	hs.Press(">")
	if len(hs.Jumps) != 1 {
		t.Fatalf("%d jumps", len(hs.Jumps))
	}
	j := hs.Jumps[0].Target
	entry := hs.m.view.state.ID
	if j.Panel != common.PanelPayloads || j.LocateText != "forge-capability-"+a.Snapshot.ActivationID ||
		!strings.HasSuffix(j.CompareRefs[1], "#"+entry) || j.CompareRefs[0] == "" || j.CompareRefs[0] == j.CompareRefs[1] {
		t.Fatalf("jump %+v (entry %s)", j, entry)
	}
	// A tool-only capability sends no text.
	hs.m.view.state.Active()[hs.m.view.cursor].Snapshot.Content = " \n"
	hs.Press(">")
	if len(hs.Jumps) != 1 || !strings.Contains(hs.m.status, "tool-only") {
		t.Fatalf("tool-only: %d jumps, status %q", len(hs.Jumps), hs.m.status)
	}
}
