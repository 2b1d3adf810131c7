package agents

import (
	"math/rand/v2"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// Issue 21: keys arriving in one read each move the agent list one row,
// while the results of what earlier keys started arrive in between.
func TestBurstsMoveTheAgentListOneRowPerKey(t *testing.T) {
	hs := newHarness(t, 160, 48)
	rng := rand.New(rand.NewPCG(5, 21))
	n := hs.m.agents.rows.Len()
	if n < 3 {
		t.Fatalf("the demo tree lists %d agents", n)
	}
	for b := 0; b < 8; b++ {
		keys, want := uitest.MoveKeys(rng, 1+rng.IntN(8), hs.m.agents.rows.Cursor(), n)
		hs.Burst(rng, keys...)
		if got := hs.m.agents.rows.Cursor(); got != want {
			t.Fatalf("burst %v: cursor %d, want %d", keys, got, want)
		}
	}
}
