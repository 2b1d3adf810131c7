package presets

import (
	"math/rand/v2"
	"testing"

	"github.com/forgebench/forgebench/ui/uitest"
)

// Issue 21: keys arriving in one read each move the Preset list and the
// open Preset's item list one row, while what earlier keys started (the
// preview's compile, its debounce) finishes in between.
func TestBurstsMoveThePresetListsOneRowPerKey(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	rng := rand.New(rand.NewPCG(3, 21))
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	n := hs.m.items.Len()
	if n < 3 {
		t.Fatalf("alpha has %d items", n)
	}
	for b := 0; b < 8; b++ {
		keys, want := uitest.MoveKeys(rng, 1+rng.IntN(8), hs.m.items.Cursor(), n)
		hs.Burst(rng, keys...)
		if got := hs.m.items.Cursor(); got != want {
			t.Fatalf("items, burst %v: cursor %d, want %d", keys, got, want)
		}
	}
	hs.m.focus = paneList
	n = hs.m.presets.Len()
	for b := 0; b < 8; b++ {
		keys, want := uitest.MoveKeys(rng, 1+rng.IntN(8), hs.m.presets.Cursor(), n)
		hs.Burst(rng, keys...)
		if got := hs.m.presets.Cursor(); got != want {
			t.Fatalf("presets, burst %v: cursor %d, want %d", keys, got, want)
		}
	}
}
