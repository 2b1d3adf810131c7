package payloads

import (
	"fmt"
	"testing"

	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/uitest"
)

// TestGoldenViews snapshots the panel's screens at 80x24 and 160x48.
func TestGoldenViews(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		for _, tc := range []struct {
			name  string
			entry string
			keys  []string
		}{
			{"session_pair", "c0430f5a", nil},
			{"saved_pair", "-", nil},
			{"lines_focused_split", "c0430f5a", []string{"enter", "|", "c"}},
			{"picker_b", "c0430f5a", []string{"]"}},
			{"requests", "", []string{"s", "s"}},
			{"compaction_drop", "", []string{"s", "s", "G", "k", "k", "enter"}},
		} {
			name := fmt.Sprintf("%s_%dx%d", tc.name, w, h)
			t.Run(name, func(t *testing.T) {
				hs := newHarness(t, w, h, true, tc.entry)
				hs.Press(tc.keys...)
				view := hs.m.View()
				uitest.AssertFills(t, view, w, h)
				uitest.Golden(t, name, view)
			})
		}
	}
}

// TestGoldenDiffMatrix is the diff-view matrix of the issue at panel
// level: unified/split × dark/light × widths 40/80/160, with colours (the
// component's own matrix is in ui/components/diffview).
func TestGoldenDiffMatrix(t *testing.T) {
	for _, split := range []bool{false, true} {
		for _, dark := range []bool{true, false} {
			for _, w := range []int{40, 80, 160} {
				layout, theme := "unified", "light"
				if split {
					layout = "split"
				}
				if dark {
					theme = "dark"
				}
				name := fmt.Sprintf("matrix_%s_%s_%d", layout, theme, w)
				t.Run(name, func(t *testing.T) {
					hs := newHarness(t, w, 30, dark, "c0430f5a")
					if split {
						hs.Press("|")
					}
					view := hs.m.View()
					uitest.AssertFills(t, view, w, 30)
					uitest.GoldenANSI(t, name, view)
				})
			}
		}
	}
}

// TestGoldenLocate snapshots where a capability card's Locate lands: the
// request at the entry against the one before it, the block cursor on the
// capability's update block and the status naming it.
func TestGoldenLocate(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		w, h := size[0], size[1]
		name := fmt.Sprintf("locate_%dx%d", w, h)
		t.Run(name, func(t *testing.T) {
			hs := newHarness(t, w, h, true, "c0430f5a")
			refs := [2]string{hs.sessionRef("79b86729"), hs.sessionRef("c0430f5a")}
			hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPayloads, CompareRefs: refs,
				LocateText: "forge-capability-58b3f2cf-01ce-4a9c-936d-758a73104f5b"}})
			view := hs.m.View()
			uitest.AssertFills(t, view, w, h)
			uitest.Golden(t, name, view)
		})
	}
}
