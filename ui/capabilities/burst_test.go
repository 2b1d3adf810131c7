package capabilities

import (
	"math/rand/v2"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// Issue 21: keys arriving in one read each move the session's active
// capability cards one card, while the results of what earlier keys
// started arrive in between.
func TestBurstsMoveTheSessionCardsOneCardPerKey(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.focusOn(paneSession)
	if hs.m.view.state == nil {
		t.Fatal("no capability state at the leaf")
	}
	n := len(hs.m.view.state.Active())
	if n < 2 {
		t.Fatalf("%d active capabilities at the leaf", n)
	}
	rng := rand.New(rand.NewPCG(2, 21))
	for b := 0; b < 8; b++ {
		keys, want := uitest.MoveKeys(rng, 1+rng.IntN(6), hs.m.view.cursor, n)
		hs.Burst(rng, keys...)
		if got := hs.m.view.cursor; got != want {
			t.Fatalf("burst %v: card %d, want %d", keys, got, want)
		}
	}
}
