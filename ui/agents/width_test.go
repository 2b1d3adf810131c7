package agents

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Issue 21: on a wide screen the detail kept 30% of the width and cut its
// lines while the list's task column took the free width. The list keeps
// what its columns need; the detail takes the rest.
func TestDetailTakesTheFreeWidth(t *testing.T) {
	var listW int
	for _, w := range []int{160, 200, 240} {
		hs := newHarness(t, w, 48)
		first := strings.Split(hs.view(), "\n")[0]
		at := strings.Index(first, "╭─ Details")
		if at < 0 {
			t.Fatalf("%d: no detail pane:\n%s", w, hs.view())
		}
		list := ansi.StringWidth(first[:at])
		if listW == 0 {
			listW = list
		}
		if list != listW {
			t.Errorf("%d columns: the list takes %d, at 160 it took %d: the free width goes to the detail", w, list, listW)
		}
		if !strings.Contains(hs.view(), "CREATED") {
			t.Errorf("%d columns: the list lost a column:\n%s", w, hs.view())
		}
		if w == 160 && w-list < 50 {
			t.Errorf("at 160 columns the detail gets %d: the list's task column takes what the detail needs", w-list)
		}
	}
}
