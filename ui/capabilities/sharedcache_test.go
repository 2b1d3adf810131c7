package capabilities

import "testing"

// The panel reads the selected session through the panels' shared cache:
// the Presets and Payloads panels then get the same parsed file instead of
// a copy each, and following another entry reads nothing.
func TestSessionComesFromTheSharedCache(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	cache := hs.com.Sessions()
	if cache.Reads() != 1 || hs.m.sess == nil {
		t.Fatalf("the followed session was read %d times through the shared cache", cache.Reads())
	}
	if s, err := cache.Open(hs.mainSession()); err != nil || s != hs.m.sess {
		t.Fatalf("another panel gets a different copy of the session (%v)", err)
	}
	leaf := hs.m.sess.LeafIndex()
	hs.follow(hs.mainSession(), hs.m.sess.Entries[leaf-3].ID)
	if cache.Reads() != 1 {
		t.Errorf("following another entry read the file again (%d reads)", cache.Reads())
	}
}
