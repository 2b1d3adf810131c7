package presets

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A pasted tab stays a tab in the block's text (the textarea would turn
// it into four spaces); the editor shows it as ⇥ and says so.
func TestPastedTabStaysATabInBlockText(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	hs.Press("enter") // edit the first block
	i := hs.itemIndex("persona")
	hs.Send(tea.PasteMsg{Content: "\ncol1\tcol2"})
	got, _ := hs.m.blockContent(i)
	if !strings.HasSuffix(got, "\ncol1\tcol2") {
		t.Fatalf("the pasted tab must reach the block as a tab, got %q", got)
	}
	view := ansi.Strip(hs.m.View())
	if !strings.Contains(view, "col1⇥col2") || !strings.Contains(view, "pasted tabs are kept as tabs") {
		t.Fatalf("the editor shows the tab as ⇥ and says it keeps it:\n%s", view)
	}
	hs.Press("left", "right") // moving the cursor must not rewrite the block
	if again, _ := hs.m.blockContent(i); again != got {
		t.Fatalf("moving in the editor changed the block: %q", again)
	}
}

// A block that already holds tabs opens in the inline editor without
// losing them.
func TestABlockWithTabsKeepsThemInTheInlineEditor(t *testing.T) {
	hs := newHarness(t, 160, 48, false)
	hs.openByID("project:alpha")
	i := hs.itemIndex("persona")
	if err := hs.m.d.SetBlockText(i, "a\tb", "test", false); err != nil {
		t.Fatal(err)
	}
	hs.m.syncEditor()
	hs.Press("enter", "end")
	hs.Type("c")
	if got, _ := hs.m.blockContent(i); got != "a\tbc" {
		t.Fatalf("typing into a block with a tab keeps the tab, got %q", got)
	}
}
