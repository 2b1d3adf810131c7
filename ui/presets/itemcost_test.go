package presets

import (
	"testing"

	"github.com/forgebench/forgebench/ui/common"
)

// $ on an item of the open Preset asks what the item has cost: one jump
// to the Payloads panel naming "preset key/item id", the ref the cache
// report gives a Preset item's breaks; on a settings row, and from the
// Preset list, nothing jumps.
func TestWhatHasThisItemCostJumpsToTheCacheView(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	hs.m.items.SetCursor(hs.itemIndex("rules"))
	before := len(hs.Jumps)
	hs.Press("$")
	if len(hs.Jumps) != before+1 {
		t.Fatalf("%d jumps", len(hs.Jumps)-before)
	}
	got := hs.Jumps[len(hs.Jumps)-1].Target
	if got.Panel != common.PanelPayloads || got.CacheBreaksOf != "project:alpha/rules" {
		t.Fatalf("jump %+v", got)
	}
	if hs.m.d.Dirty() {
		t.Fatal("$ changed the draft")
	}

	hs.m.items.SetCursor(hs.m.d.Len()) // the first settings row
	hs.Press("$")
	hs.m.focus = paneList
	hs.Press("$")
	if len(hs.Jumps) != before+1 {
		t.Fatalf("%d jumps after $ on a settings row and on the list", len(hs.Jumps)-before-1)
	}
}

// The items pane's help offers $ (the footer is generated from it).
func TestItemPaneHelpOffersCost(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.openByID("project:alpha")
	hs.m.focus = paneItems
	found := false
	for _, b := range hs.m.draftEditor.ShortHelp(paneItems) {
		if b.Help().Key == "$" && b.Help().Desc == "what has this cost" {
			found = true
		}
	}
	if !found {
		t.Fatal("the items pane's help does not offer $")
	}
}
