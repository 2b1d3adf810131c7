package sessions

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
)

func TestHighlightLineMarksWordsKeepingTextAndStyles(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	bold := "\x1b[1m"
	line := bold + "Invoice totals in cents: 総額 INVOICE" + "\x1b[0m" + " tail"
	got := highlightLine(line, []string{"invoice"}, st.List.Match)
	if ansi.Strip(got) != ansi.Strip(line) || ansi.StringWidth(got) != ansi.StringWidth(line) {
		t.Fatalf("text changed: %q", ansi.Strip(got))
	}
	for _, want := range []string{st.List.Match.Render("Invoice"), st.List.Match.Render("INVOICE")} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
	if !strings.Contains(got, bold) {
		t.Errorf("the line's own style was lost: %q", got)
	}
	if highlightLine("nothing here", []string{"invoice"}, st.List.Match) != "nothing here" {
		t.Error("a line without the words must be returned as is")
	}
}

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
