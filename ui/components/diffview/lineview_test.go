package diffview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// findLine returns the first plain line containing s, or -1.
func findLine(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

func TestUnifiedShowsSignsAndNumbers(t *testing.T) {
	v := lineView("a\nb\nc\n", "a\nB\nc\nd\n", Unified, ContextAll, 40, 10)
	got := plainLines(v.ViewLines(monoStyles()))
	for _, want := range []string{"@@ -1,3 +1,4 @@", "1 1   a", "2   - b", "  2 + B", "  4 + d"} {
		if findLine(got, want) < 0 {
			t.Errorf("missing %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if findLine(got, "- b") > findLine(got, "+ B") {
		t.Error("removed lines come before the added lines that replace them")
	}
}

func TestSplitPutsSidesOnOneLine(t *testing.T) {
	v := lineView("a\nold\nc\n", "a\nnew\nc\n", Split, ContextAll, 80, 6)
	if v.EffectiveLayout() != Split {
		t.Fatal("80 columns draw split")
	}
	got := plainLines(v.ViewLines(darkStyles()))
	i := findLine(got, "- old")
	if i < 0 || !strings.Contains(got[i], "+ new") || !strings.Contains(got[i], "│") {
		t.Fatalf("old and new share a line with a divider:\n%s", strings.Join(got, "\n"))
	}
	if strings.Index(got[i], "- old") > strings.Index(got[i], "│") {
		t.Fatal("the before side is on the left")
	}
}

func TestSplitFallsBackBelowMinimumWidth(t *testing.T) {
	v := lineView("a\n", "b\n", Split, ContextAll, MinSplitWidth-1, 5)
	if v.EffectiveLayout() != Unified || v.Layout() != Split {
		t.Fatal("below MinSplitWidth split draws unified but stays chosen")
	}
	if !strings.Contains(v.Caption(), "split needs") {
		t.Fatalf("the caption says why: %q", v.Caption())
	}
	if strings.Contains(strings.Join(plainLines(v.ViewLines(darkStyles())), "\n"), "│") {
		t.Fatal("no divider in the fallback")
	}
	v.SetSize(MinSplitWidth, 5)
	if v.EffectiveLayout() != Split {
		t.Fatal("at MinSplitWidth split is drawn")
	}
}

func TestContextModeHidesAndShowsLines(t *testing.T) {
	var before []string
	for i := 0; i < 30; i++ {
		before = append(before, "line "+string(rune('A'+i%26))+string(rune('a'+i/26)))
	}
	after := append([]string(nil), before...)
	after[15] = "CHANGED"
	b, a := strings.Join(before, "\n"), strings.Join(after, "\n")
	count := func(ctx ContextMode) (lines int, has func(string) bool) {
		v := lineView(b, a, Unified, ctx, 60, 40)
		got := plainLines(v.ViewLines(monoStyles()))
		n := 0
		for _, l := range got {
			if strings.TrimSpace(l) != "" {
				n++
			}
		}
		return n, func(s string) bool { return findLine(got, s) >= 0 }
	}
	nChanges, hasChanges := count(ContextChanges)
	nThree, hasThree := count(ContextThree)
	nAll, hasAll := count(ContextAll)
	if nChanges != 3 || nThree != 9 || nAll != 32 {
		t.Fatalf("rows per mode: changes %d (want header+2), three %d (want 9), all %d (want 32)", nChanges, nThree, nAll)
	}
	if hasChanges("line Na") || !hasThree("line Na") || hasThree("line Ab") || !hasAll("line Ab") {
		t.Fatal("three lines of context show neighbours only; all shows everything")
	}
}

func TestIdenticalTextsSayNoChanges(t *testing.T) {
	v := lineView("same\ntext\n", "same\ntext\n", Split, ContextThree, 80, 3)
	got := plainLines(v.ViewLines(darkStyles()))
	if !strings.Contains(got[0], "no line changes") {
		t.Fatalf("identical texts: %q", got)
	}
	v.SetContext(ContextAll)
	if got := plainLines(v.ViewLines(darkStyles())); findLine(got, "same") < 0 {
		t.Fatalf("all context shows identical text: %q", got)
	}
}

func TestWrapKeepsEveryCharacter(t *testing.T) {
	long := "alpha beta  gamma   delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma"
	v := lineView("", long, Unified, ContextAll, 30, 20)
	var text strings.Builder
	for _, l := range plainLines(v.ViewLines(monoStyles()))[1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		text.WriteString(strings.TrimRight(l[len("  1 + "):], " ")) // numbers, sign
		if !strings.HasSuffix(text.String(), " ") {
			text.WriteString(" ")
		}
	}
	if strings.Join(strings.Fields(text.String()), " ") != strings.Join(strings.Fields(long), " ") {
		t.Fatalf("wrapped text lost words: %q", text.String())
	}
	pieces := wrapText(long, 12, true)
	if strings.Join(pieces, "") != long {
		t.Fatalf("pieces must concatenate to the line, whitespace included: %q", pieces)
	}
	for _, p := range pieces {
		if ansi.StringWidth(p) > 12 {
			t.Fatalf("piece %q exceeds 12 cells", p)
		}
	}
	v.SetWrap(false)
	got := plainLines(v.ViewLines(monoStyles()))
	if !strings.Contains(got[1], "…") || strings.TrimSpace(got[2]) != "" {
		t.Fatalf("without wrap the line is truncated on one row: %q", got[:3])
	}
}

func TestWidthInvariantAcrossSizesAndTexts(t *testing.T) {
	texts := [][2]string{
		{promptBefore, promptAfter},
		{"", "世界😀\ttab\x1b[31mred\x1b[0m\x07bell\u202eRTL"},
		{"a\r\nb\r\n", "a\nb"},
		{strings.Repeat("x", 500), strings.Repeat("世", 300)},
		{"", ""},
	}
	for _, tx := range texts {
		for _, w := range []int{0, 1, 2, 3, 5, 10, 20, 40, 59, 60, 61, 80, 160} {
			for _, h := range []int{0, 1, 3, 12} {
				for _, lay := range []Layout{Unified, Split} {
					for _, wrap := range []bool{true, false} {
						v := lineView(tx[0], tx[1], lay, ContextThree, w, h)
						v.SetWrap(wrap)
						v.ScrollBy(2)
						lines := v.ViewLines(darkStyles())
						assertFrame(t, lines, w, h)
						for _, l := range lines {
							if p := ansi.Strip(l); strings.ContainsAny(p, "\x1b\x07\r\t\u202e") {
								t.Fatalf("control characters reached the screen: %q", p)
							}
						}
					}
				}
			}
		}
	}
}

func TestScrolling(t *testing.T) {
	b, a := bigTexts()
	v := lineView(b, a, Unified, ContextAll, 80, 10)
	v.SetWrap(false) // one screen line per text line
	first, total := v.Position()
	if first != 0 || total < 5000 {
		t.Fatalf("position %d of %d", first, total)
	}
	v.ScrollBy(25)
	if got := plainLines(v.ViewLines(monoStyles())); !strings.HasPrefix(strings.TrimSpace(got[0]), "25   25") {
		t.Fatalf("after scrolling 25 lines (header + 24) line 25 is on top: %q", got[0])
	}
	v.Bottom()
	got := plainLines(v.ViewLines(monoStyles()))
	if !strings.Contains(got[9], "line 5000 of") || strings.TrimSpace(got[0]) == "" {
		t.Fatalf("bottom puts the last line at the bottom of a full screen: %q", got)
	}
	v.ScrollBy(100)
	if again := plainLines(v.ViewLines(monoStyles())); again[0] != got[0] {
		t.Fatal("scrolling past the end stays on the last screen")
	}
	v.Top()
	v.ScrollBy(-3)
	if first, _ := v.Position(); first != 0 {
		t.Fatal("scrolling above the top stays at the top")
	}

	v.SetContext(ContextThree)
	v.NextHunk() // from the first hunk to the second
	got = plainLines(v.ViewLines(monoStyles()))
	if !strings.HasPrefix(got[0], "@@ -97,7 +97,7 @@") {
		t.Fatalf("the second hunk's header is on top: %q", got[0])
	}
	v.PrevHunk()
	if got := plainLines(v.ViewLines(monoStyles())); !strings.HasPrefix(got[0], "@@ -47,7 +47,7 @@") {
		t.Fatalf("back to the first hunk: %q", got[0])
	}
}

func TestSwitchingModesKeepsTheTopLine(t *testing.T) {
	b, a := bigTexts()
	v := lineView(b, a, Unified, ContextThree, 100, 10)
	for range 5 {
		v.NextHunk()
	}
	v.ScrollBy(2)
	top := plainLines(v.ViewLines(monoStyles()))[0] // a context line of the 6th hunk
	num := strings.Fields(top)[0]
	v.SetContext(ContextAll)
	if got := plainLines(v.ViewLines(monoStyles()))[0]; strings.Fields(got)[0] != num {
		t.Fatalf("switching to all context keeps line %s on top, got %q", num, got)
	}
	v.SetLayout(Split)
	if got := plainLines(v.ViewLines(monoStyles()))[0]; strings.Fields(got)[0] != num {
		t.Fatalf("switching to split keeps line %s on top, got %q", num, got)
	}
}

func TestWrappedRowsScrollByScreenLine(t *testing.T) {
	long := strings.Repeat("word ", 40) // 200 cells: 10 rows at 20 cells of text
	v := lineView("", long+"\nnext\n", Unified, ContextAll, 26, 4)
	v.ScrollBy(3) // header + two wrapped rows of the long line
	got := plainLines(v.ViewLines(monoStyles()))
	if strings.Contains(got[0], "1 +") || !strings.Contains(got[0], "word") {
		t.Fatalf("the view starts inside the wrapped line: %q", got)
	}
	v.Bottom()
	got = plainLines(v.ViewLines(monoStyles()))
	if !strings.Contains(got[3], "+ next") {
		t.Fatalf("bottom shows the last line: %q", got)
	}
}

func TestLongLinesAreCut(t *testing.T) {
	huge := strings.Repeat("a", maxLineBytes+100)
	if s := screenText(huge); !strings.HasSuffix(s, "[100 more bytes not shown]") {
		t.Fatalf("a huge line is cut with a note: …%q", s[len(s)-40:])
	}
}

func TestMonoKeepsSignsAndDropsColour(t *testing.T) {
	v := lineView("a\n", "b\n", Unified, ContextAll, 40, 4)
	out := v.View(monoStyles())
	if strings.Contains(out, "38;2;") || strings.Contains(out, "48;2;") {
		t.Fatal("NO_COLOR output carries no colours")
	}
	plain := ansi.Strip(out)
	if !strings.Contains(plain, "- a") || !strings.Contains(plain, "+ b") {
		t.Fatalf("signs show the change without colour:\n%s", plain)
	}
	if colour := v.View(darkStyles()); !strings.Contains(colour, "48;2;") {
		t.Fatal("the dark theme paints added and removed lines")
	}
}

func TestZeroLineViewIsUsable(t *testing.T) {
	var v LineView
	v.SetSize(20, 2)
	v.ScrollBy(5)
	v.NextHunk()
	v.PrevHunk()
	v.CycleContext()
	assertFrame(t, v.ViewLines(darkStyles()), 20, 2)
	if v.Diff() == nil {
		t.Fatal("Diff is never nil")
	}
}
