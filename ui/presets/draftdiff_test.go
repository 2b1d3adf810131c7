package presets

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/engine/turndiff"
	"github.com/forgebench/forgebench/ui/common"
	"github.com/forgebench/forgebench/ui/components/requestdiff"
	"github.com/forgebench/forgebench/ui/uitest"
)

// D compares the unsaved draft with the saved Preset, compiled at the
// selected entry: editing the second system block changes the system
// prompt there, and the first change is traced to that item.
func TestDraftDiff(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		hs := newHarness(t, size.w, size.h, true)
		hs.openByID("project:alpha")
		hs.Press("D")
		if hs.m.diff == nil || hs.m.diff.summary.ChangedBlocks != 0 ||
			!strings.Contains(hs.m.View(), "the draft compiles to the same request as the saved Preset") {
			t.Fatalf("an untouched draft: %+v", hs.m.diff)
		}
		hs.Press("esc")
		if hs.m.diff != nil {
			t.Fatal("esc closes the draft diff")
		}
		hs.m.focus = paneItems
		hs.m.items.SetCursor(hs.itemIndex("rules"))
		hs.Press("enter")
		hs.Type(" Cite line numbers.")
		hs.Press("esc", "D")
		d := hs.m.diff
		if d == nil || d.cause == nil || d.cause.Kind != turndiff.CausePresetItem || d.cause.ItemID != "rules" {
			t.Fatalf("cause %+v", d)
		}
		b, _, ok := d.view.Selected()
		if !ok || b.Key != "system" || !strings.Contains(b.After, "Cite line numbers.") {
			t.Fatalf("selected block %+v", b)
		}
		view := hs.m.View()
		uitest.AssertFills(t, view, size.w, size.h)
		for _, want := range []string{"Draft diff · project:alpha saved → draft · at entry e0000004", "first change: preset item House Rules", "system prompt"} {
			if !strings.Contains(ansi.Strip(view), want) {
				t.Errorf("%dx%d: view lacks %q", size.w, size.h, want)
			}
		}
		uitest.Golden(t, "draft_diff_"+strings.Join([]string{itoa(size.w), itoa(size.h)}, "x"), view)
		// The line diff pane takes the shared view's keys.
		hs.Press("enter", "|")
		if d.view.Focus() != requestdiff.Lines || !strings.Contains(d.view.LineView().Caption(), "split") && size.w >= 60 {
			t.Errorf("lines: focus %v caption %q", d.view.Focus(), d.view.LineView().Caption())
		}
		hs.Press("esc", "esc")
		if hs.m.diff != nil || !hs.m.d.Dirty() {
			t.Error("esc from the blocks closes the diff and keeps the draft")
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// A jump from the Payloads panel names a Preset and an item: the panel
// opens it with that item under the cursor.
func TestJumpToAnItemFocusesTheItem(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	hs.Send(common.JumpMsg{Seq: 1, Target: common.JumpTarget{Panel: common.PanelPresets, PresetID: "project:alpha", ItemID: "rules"}})
	if hs.m.open == nil || hs.m.open.Key() != "project:alpha" || hs.m.items.Cursor() != hs.itemIndex("rules") || hs.m.focus != paneItems {
		t.Fatalf("open %v cursor %d focus %v", hs.m.open, hs.m.items.Cursor(), hs.m.focus)
	}
	if hs.com.Selection.PresetID != "project:alpha" {
		t.Errorf("the selection names %q, want the Preset jumped to", hs.com.Selection.PresetID)
	}
	// The selection moving on (another entry in the Session panel) leaves
	// the cursor where the user put it: a jump is taken once.
	hs.m.items.SetCursor(0)
	sel := hs.com.Selection
	sel.EntryID = "e0000003"
	hs.Send(common.SelectionChangedMsg{Selection: sel})
	if hs.m.items.Cursor() != 0 {
		t.Error("a later selection moved the cursor back to the jump's item")
	}
}
