package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/forgebench/forgebench/themes"
)

func TestMarkWordsMarksWordsKeepingTextAndStyles(t *testing.T) {
	st := themes.For(themes.Dark, true, false)
	bold := "\x1b[1m"
	line := bold + "Invoice totals in cents: 総額 INVOICE" + "\x1b[0m" + " tail"
	got := MarkWords(line, []string{"invoice"}, st.List.Match)
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
	if MarkWords("nothing here", []string{"invoice"}, st.List.Match) != "nothing here" {
		t.Error("a line without the words must be returned as is")
	}
}

// MatchLine prefers the line holding the whole query, stays inside its
// range and ignores styles and case.
func TestMatchLineFindsTheQueryInRange(t *testing.T) {
	lines := []string{"header", "\x1b[1mthe Zebra\x1b[0m", "zebra corn", "a ZEBRA CORN here", "zebra corn again"}
	cases := []struct {
		query    string
		from, to int
		want     int
		ok       bool
	}{
		{"zebra corn", 0, len(lines), 2, true},
		{"zebra  corn", 3, len(lines), 3, true},   // spaces are the words' separators
		{"zebra unicorn", 0, len(lines), 1, true}, // no whole match: the first word's line
		{"zebra", 0, 1, 0, false},
		{"   ", 0, len(lines), 0, false},
		{"zebra", 3, 99, 3, true},
	}
	for _, c := range cases {
		got, ok := MatchLine(lines, c.query, c.from, c.to)
		if got != c.want || ok != c.ok {
			t.Errorf("MatchLine(%q, %d, %d) = %d, %v; want %d, %v", c.query, c.from, c.to, got, ok, c.want, c.ok)
		}
	}
}

// RevealOffset keeps the entry's header on screen when the line fits
// below it, else puts the line a third of the way down.
func TestRevealOffset(t *testing.T) {
	if got := RevealOffset(20, 5, 30); got != 5 {
		t.Errorf("a line that fits: offset %d, want the header's 5", got)
	}
	if got := RevealOffset(150, 0, 30); got != 140 || 150 < got || 150 >= got+30 {
		t.Errorf("a far line: offset %d, want 140", got)
	}
}
