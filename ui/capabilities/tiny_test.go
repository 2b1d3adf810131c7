package capabilities

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/ui/uitest"
)

// Every pane, dialog and the editor fill tiny and odd sizes exactly (the
// root can hand the panel a single row) without a panic.
func TestTinySizesFillTheArea(t *testing.T) {
	hs := newHarness(t, 160, 48, true)
	steps := [][]string{nil, {"tab"}, {"tab"}, {"a"}, {"esc"}, {"R"}, {"esc"}, {"+"}, {"esc"}, {"n"}, {"esc"},
		{"enter"}, {"tab", "tab", "tab", "t"}, {"esc", "esc", "esc"}}
	for _, size := range [][2]int{{1, 1}, {10, 3}, {20, 6}, {40, 12}, {119, 20}, {120, 8}} {
		for _, keys := range steps {
			hs.Press(keys...)
			hs.Resize(size[0], size[1])
			uitest.AssertFills(t, hs.m.View(), size[0], size[1])
		}
	}
}

// The library's count agrees with its number.
func TestLibraryCountSaysCapability(t *testing.T) {
	hs := newHarness(t, 160, 48, false) // untrusted: only the global one
	if v := ansi.Strip(hs.m.View()); !strings.Contains(v, " 1 capability ") || strings.Contains(v, "1 capabilities") {
		t.Errorf("library count:\n%s", v)
	}
}
