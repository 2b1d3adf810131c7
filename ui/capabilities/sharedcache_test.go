package capabilities

import (
	"testing"

	"github.com/forgebench/forgebench/session"
)

// The panel reads the selected session through session.Shared: the
// Presets and Payloads panels then get the same parsed file instead of a
// copy each, and following another entry reads nothing.
func TestSessionComesFromTheSharedCache(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	held := hs.m.view.sess
	if s, err := session.Shared(hs.mainSession()); err != nil || s != held {
		t.Fatalf("another panel gets a different copy of the session (%v)", err)
	}
	leaf := held.LeafIndex()
	hs.follow(hs.mainSession(), held.Entries[leaf-3].ID)
	if hs.m.view.sess != held {
		t.Error("following another entry read the file again")
	}
}
