package payloads

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
)

// A jump naming two requests (the Session panel's branch comparison,
// JumpTarget.CompareRefs) shows their diff and stops following the
// selection; a jump to another panel leaves the comparison alone.
func TestJumpWithCompareRefsShowsTheirDiff(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "fa181dba")
	refs := [2]string{hs.sessionRef("79b86729"), hs.sessionRef("c0430f5a")}
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs}})
	if hs.m.mode != modeDiff || hs.m.auto || hs.m.refs != refs {
		t.Fatalf("mode %d auto %v refs %v, want the diff of %v", hs.m.mode, hs.m.auto, hs.m.refs, refs)
	}
	if hs.m.cmp == nil || hs.m.cmp.refs != refs {
		t.Fatal("the two requests were not compared")
	}
	hs.Send(common.JumpMsg{Seq: 2, Target: common.JumpTarget{Panel: common.PanelSession, CompareRefs: [2]string{refs[1], refs[0]}}})
	if hs.m.refs != refs {
		t.Fatalf("a jump to another panel changed the pair: %v", hs.m.refs)
	}
}

// A jump with LocateText (a capability card's Locate) puts the block
// cursor on the first block of B that holds the text, and says which; a
// text neither request holds leaves the cursor and says so.
func TestJumpLocatesABlock(t *testing.T) {
	hs := newHarness(t, 160, 48, true, "fa181dba")
	refs := [2]string{hs.sessionRef("79b86729"), hs.sessionRef("c0430f5a")}
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs}})
	blocks := hs.m.view.Diff().Blocks
	_, first, _ := hs.m.view.Selected()
	want, text := -1, ""
	for i := len(blocks) - 1; i >= 0; i-- {
		if i != first && len(blocks[i].After) > 12 && !strings.Contains(blocks[i].Before, blocks[i].After[:12]) {
			want, text = i, blocks[i].After[:12]
			break
		}
	}
	for i := 0; i < want; i++ {
		if strings.Contains(blocks[i].After, text) {
			want = i // the first block that holds it
			break
		}
	}
	if want < 0 {
		t.Fatalf("no block to locate among %d", len(blocks))
	}
	hs.Send(common.JumpMsg{Seq: 2, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs, LocateText: text}})
	if _, row, ok := hs.m.view.Selected(); !ok || row != want {
		t.Fatalf("cursor on block %d, want %d (%q)", row, want, text)
	}
	if !strings.Contains(hs.m.status, "located ") || hs.m.isErr {
		t.Errorf("status %q", hs.m.status)
	}
	hs.Send(common.JumpMsg{Seq: 3, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs, LocateText: "forge-capability-nowhere"}})
	if !strings.Contains(hs.m.status, "neither request carries forge-capability-nowhere") || !hs.m.isErr {
		t.Errorf("status %q for a text no block holds", hs.m.status)
	}
	// A pick afterwards is a comparison of its own: no Locate waits for it.
	if hs.m.locate != "" {
		t.Errorf("a Locate still waits: %q", hs.m.locate)
	}
}
