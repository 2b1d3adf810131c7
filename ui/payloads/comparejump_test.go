package payloads

import (
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
