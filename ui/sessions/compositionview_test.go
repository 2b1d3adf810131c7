package sessions

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/session/compare"
)

// A part's label cut to its column keeps the figures after it in line
// with the other parts' (the walk in tmux showed a cut label pushing its
// row one cell right).
func TestCompositionPartsStayAlignedWhenALabelIsCut(t *testing.T) {
	res := &compositionResult{entry: "e1", comp: compare.Composition{Total: 100, Parts: []compare.Part{
		{Kind: compare.PartHistory, Label: "user", Tokens: 40, Share: 0.4},
		{Kind: compare.PartCapability, Label: strings.Repeat("capability state re-sent after the compaction ", 4), Tokens: 60, Share: 0.6},
	}}}
	for _, width := range []int{60, 94, 150} {
		var cols []int
		for _, l := range renderComposition(res, width, hsStyles()) {
			l = ansi.Strip(l)
			if i := strings.Index(l, "%"); i >= 0 && (strings.Contains(l, "▒ user") || strings.Contains(l, "▚ capability state")) {
				cols = append(cols, ansi.StringWidth(l[:i]))
			}
		}
		if len(cols) != 2 || cols[0] != cols[1] {
			t.Fatalf("width %d: the share columns of the two parts are at %v", width, cols)
		}
	}
}
