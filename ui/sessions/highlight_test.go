package sessions

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The session search marks its words in the entry detail on screen
// (issue 16: "highlights"), not only the matching rows.
func TestSessionSearchHighlightsTheDetail(t *testing.T) {
	hs, _ := newHarness(t, 120, 40)
	hs.focusOn(paneTree)
	hs.Press("/")
	hs.Type("TAXRATE")
	hs.Press("enter")
	view := hs.view()
	plain, lower := ansi.Strip(view), strings.ToLower(ansi.Strip(view))
	shown := map[string]bool{}
	for i := strings.Index(lower, "taxrate"); i >= 0; {
		shown[plain[i:i+7]] = true
		next := strings.Index(lower[i+1:], "taxrate")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	for s := range shown {
		if strings.Contains(view, hs.com.Styles.List.Match.Render(s)) {
			return
		}
	}
	t.Fatalf("no highlighted %v in the detail:\n%s", shown, plain)
}
