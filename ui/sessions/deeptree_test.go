package sessions

import (
	"strings"
	"testing"

	"github.com/forgebench/forgebench/themes"
	"github.com/forgebench/forgebench/ui/common"
)

// TestDeepDrawingsKeepTheirRows: a row keeps only the innermost
// keptLevels levels of its drawing (a session branched hundreds of times
// deep held a string as long as it is deep per branch row), and draws
// exactly as it would with the whole drawing on panes up to 864 columns.
func TestDeepDrawingsKeepTheirRows(t *testing.T) {
	levels := []string{"│  ", "   ", "│  ", "│  ", "   "}
	full := ""
	for d := 0; d < 300; d++ {
		full += levels[d%len(levels)]
	}
	kept := ""
	for d := 0; d < 300; d++ {
		kept = innerLevels(kept + levels[d%len(levels)]) // as flatten grows a drawing
	}
	if n := len([]rune(kept)); n != 3*keptLevels {
		t.Fatalf("kept %d columns of drawing, want %d", n, 3*keptLevels)
	}
	if !strings.HasSuffix(full, kept) {
		t.Fatal("the kept drawing is not the innermost levels of the whole")
	}
	st := themes.New(themes.DarkPalette(), true)
	for _, w := range []int{24, 80, 160, 400, 863} {
		for _, conn := range []string{connMid, connLast} {
			item := func(prefix string) treeItem {
				return treeItem{idx: 1, mark: "  ", prefix: prefix + conn, kind: "user", text: "hello there"}
			}
			rs := common.RowState{Width: w, Styles: &st}
			if a, b := renderTreeRow(item(full), rs), renderTreeRow(item(kept), rs); a != b {
				t.Errorf("width %d: the kept drawing draws\n%q\nthe whole one\n%q", w, b, a)
			}
		}
	}
}
