package presets

import (
	"testing"

	"github.com/forgebench/forgebench/ui/common"
)

// The selection moves with every cursor move in the Session panel, so run
// contexts can come back out of order: one for an entry that is no
// longer selected is dropped, the current one is used.
func TestAContextForAnOldSelectionIsDropped(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.com.Selection = common.Selection{SessionFile: "/s.jsonl", EntryID: "e2"}
	stale := &runContext{file: "/s.jsonl", entry: "e1", source: "stale"}
	hs.Send(contextMsg{ctx: stale})
	if hs.m.rc == stale {
		t.Fatal("a context for e1 must not replace the preview's context once e2 is selected")
	}
	current := &runContext{file: "/s.jsonl", entry: "e2", source: "current"}
	hs.Send(contextMsg{ctx: current})
	if hs.m.rc != current {
		t.Fatal("the context of the selected entry is used")
	}
}
