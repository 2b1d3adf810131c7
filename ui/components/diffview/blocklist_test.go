package diffview

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgebench/forgebench/internal/fixtures"
)

func blockList(d Diff, width, height int) BlockList {
	l := NewBlockList()
	l.SetDiff(d)
	l.SetSize(width, height)
	return l
}

// ruleIndex is the line of the cache boundary rule, or -1.
func ruleIndex(lines []string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, "── cache") {
			return i
		}
	}
	return -1
}

func TestBoundaryRuleSitsBetweenPrefixAndChange(t *testing.T) {
	d := sampleBlocks()
	got := plainLines(blockList(d, 80, 16).ViewLines(darkStyles()))
	r := ruleIndex(got)
	if r < 1 || !strings.Contains(got[r-1], "assistant #1") || !strings.Contains(got[r+1], "read src/parser.ts") {
		t.Fatalf("the rule sits between the last cached block and the first change:\n%s", strings.Join(got, "\n"))
	}
	if !strings.Contains(got[r], "prefix 488 tok (11.4%)") {
		t.Fatalf("the rule says how much is cached: %q", got[r])
	}

	d.Boundary = 0
	got = plainLines(blockList(d, 80, 16).ViewLines(darkStyles()))
	if ruleIndex(got) != 1 { // under the column header
		t.Fatalf("nothing cached: the rule opens the list:\n%s", strings.Join(got, "\n"))
	}
	d.Boundary = len(d.Blocks)
	got = plainLines(blockList(d, 80, 16).ViewLines(darkStyles()))
	if r := ruleIndex(got); r != 1+len(d.Blocks) || !strings.Contains(got[r-1], "request-stream") {
		t.Fatalf("everything cached: the rule closes the list:\n%s", strings.Join(got, "\n"))
	}
	d.Boundary = NoBoundary
	if ruleIndex(plainLines(blockList(d, 80, 16).ViewLines(darkStyles()))) >= 0 {
		t.Fatal("NoBoundary draws no rule")
	}
}

func TestBlockRowsShowStatusTokensAndTotals(t *testing.T) {
	got := plainLines(blockList(sampleBlocks(), 80, 16).ViewLines(monoStyles()))
	for _, want := range []string{
		"› = same     system prompt",              // cursor on the first block
		"~ modified read src/parser.ts",           // status glyph and word
		"1480 → 1533    +53",                      // before → after, delta
		"- removed  assistant #2", "7 → –     -7", // removed: no after side
		"+ added    user #3", "– → 9     +9", // added: no before side
		"=8 ~2 +1 -1 · Δ +55 tok · (+62 -7) · prefix 488 tok (11.4%)", // totals
	} {
		if findLine(got, want) < 0 {
			t.Errorf("missing %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if !strings.HasPrefix(got[0], "    status   block") {
		t.Errorf("column header: %q", got[0])
	}
}

func TestCursorScrollsTheWindow(t *testing.T) {
	l := blockList(manyBlocks(200), 60, 10)
	l.MoveBy(150)
	got := plainLines(l.ViewLines(darkStyles()))
	if i := findLine(got, "› "); i < 0 || !strings.Contains(got[i], "message-150") {
		t.Fatalf("the cursor row is visible:\n%s", strings.Join(got, "\n"))
	}
	if b, ok := l.Selected(); !ok || b.Key != "message-150" || l.Cursor() != 150 {
		t.Fatalf("selected %q at %d", b.Key, l.Cursor())
	}
	l.MoveBy(1000)
	if l.Cursor() != 199 {
		t.Fatal("the cursor stops at the last block")
	}
	if !strings.Contains(plainLines(l.ViewLines(darkStyles()))[8], "message-199") {
		t.Fatal("the last block sits on the last body row")
	}
	l.Select(-5)
	if l.Cursor() != 0 {
		t.Fatal("the cursor stops at the first block")
	}
	// Landing on the first changed block from below shows the rule too.
	l.Select(199)
	l.Select(l.Diff().Boundary)
	got = plainLines(l.ViewLines(darkStyles()))
	if r := ruleIndex(got); r != 1 || !strings.HasPrefix(got[2], "›") {
		t.Fatalf("the rule stays above the first change:\n%s", strings.Join(got, "\n"))
	}
	l.PageDown()
	if l.Cursor() != l.Diff().Boundary+8 {
		t.Fatalf("page down moves one screen of rows: %d", l.Cursor())
	}
}

func TestChangeNavigationAndKeptSelection(t *testing.T) {
	d := sampleBlocks()
	l := blockList(d, 80, 10)
	l.NextChange()
	l.NextChange()
	if b, _ := l.Selected(); b.Label != "assistant #2" {
		t.Fatalf("second change is the removed block, got %q", b.Label)
	}
	l.PrevChange()
	if b, _ := l.Selected(); b.Label != "read src/parser.ts" {
		t.Fatalf("back to the modified block, got %q", b.Label)
	}
	// A new diff with the same keys in another order keeps the block.
	reordered := sampleBlocks()
	reordered.Blocks = append([]Block{{Key: "new-first", Status: StatusAdded}}, reordered.Blocks...)
	l.SetDiff(reordered)
	if b, _ := l.Selected(); b.Label != "read src/parser.ts" || l.Cursor() != 4 {
		t.Fatalf("the selection follows the key: %q at %d", b.Label, l.Cursor())
	}
	l.SetDiff(Diff{})
	if _, ok := l.Selected(); ok {
		t.Fatal("an empty diff selects nothing")
	}
	got := plainLines(l.ViewLines(darkStyles()))
	if !strings.Contains(got[1], "no blocks") {
		t.Fatalf("an empty diff says so: %q", got)
	}
}

func TestBlockListFitsAnySize(t *testing.T) {
	long := sampleBlocks()
	long.Blocks[0].Label = "a label with 世界 and 😀 and\ttabs\x1b[2J and a newline\nthat goes on and on and on"
	for _, d := range []Diff{sampleBlocks(), long, manyBlocks(40), {}} {
		for _, w := range []int{0, 1, 2, 5, 10, 23, 24, 40, 56, 64, 72, 80, 120, 160} {
			for _, h := range []int{0, 1, 2, 3, 4, 7, 20} {
				l := blockList(d, w, h)
				l.MoveBy(3)
				lines := l.ViewLines(darkStyles())
				assertFrame(t, lines, w, h)
				for _, line := range lines {
					if p := ansi.Strip(line); strings.ContainsAny(p, "\x1b\t\n") {
						t.Fatalf("control characters reached the screen: %q", p)
					}
				}
			}
		}
	}
}

func TestMonoStatusIsReadable(t *testing.T) {
	out := blockList(sampleBlocks(), 80, 16).View(monoStyles())
	if strings.Contains(out, "38;2;") {
		t.Fatal("NO_COLOR output carries no colours")
	}
	plain := ansi.Strip(out)
	for _, glyph := range []string{"  = same", "  ~ modified", "  - removed", "  + added"} {
		if !strings.Contains(plain, glyph) {
			t.Errorf("status %q is readable without colour", glyph)
		}
	}
}

func TestParseStatusAndSummaries(t *testing.T) {
	for _, s := range []Status{StatusSame, StatusModified, StatusAdded, StatusRemoved} {
		if got, err := ParseStatus(s.String()); err != nil || got != s {
			t.Fatalf("%v round trip: %v %v", s, got, err)
		}
	}
	if _, err := ParseStatus("moved"); err == nil || !strings.Contains(err.Error(), `"moved"`) {
		t.Fatalf("an unknown status names itself: %v", err)
	}
	tot := Summarize(sampleBlocks().Blocks)
	if tot.Same != 8 || tot.Modified != 2 || tot.Added != 1 || tot.Removed != 1 ||
		tot.DeltaTokens != 55 || tot.AddedTokens != 62 || tot.RemovedTokens != 7 {
		t.Fatalf("summary %+v", tot)
	}
	if FirstChange(nil) != 0 || FirstChange([]Block{{}, {}}) != 2 {
		t.Fatal("FirstChange of nothing changed is len(blocks)")
	}
}

// fixtureDiff is the shape of one diffTurns result in pi-forge's
// context-diff fixtures.
type fixtureDiff struct {
	Blocks []struct {
		Status        string `json:"status"`
		Before, After *struct {
			Key, Role, Text string
			ApproxTokens    int `json:"approxTokens"`
		}
		TokenDelta int `json:"tokenDelta"`
	} `json:"blocks"`
	PrefixTokens int     `json:"prefixTokens"`
	PrefixRatio  float64 `json:"prefixRatio"`
	DeltaTokens  int     `json:"deltaTokens"`
	Summary      struct {
		Same     int `json:"sameBlocks"`
		Added    int `json:"addedBlocks"`
		Removed  int `json:"removedBlocks"`
		Modified int `json:"modifiedBlocks"`
		AddTok   int `json:"addedTokens"`
		RemTok   int `json:"removedTokens"`
	} `json:"summary"`
}

// adapt is the adapter the package doc describes, field by field.
func adapt(t *testing.T, f fixtureDiff) Diff {
	var d Diff
	for _, fb := range f.Blocks {
		st, err := ParseStatus(fb.Status)
		if err != nil {
			t.Fatal(err)
		}
		b := Block{Status: st, TokenDelta: fb.TokenDelta}
		if fb.Before != nil {
			b.Key, b.Role, b.Before, b.BeforeTokens = fb.Before.Key, fb.Before.Role, fb.Before.Text, fb.Before.ApproxTokens
		}
		if fb.After != nil {
			b.Key, b.Role, b.After, b.AfterTokens = fb.After.Key, fb.After.Role, fb.After.Text, fb.After.ApproxTokens
		}
		d.Blocks = append(d.Blocks, b)
	}
	d.Boundary = FirstChange(d.Blocks)
	d.Totals = Totals{PrefixTokens: f.PrefixTokens, PrefixRatio: f.PrefixRatio, DeltaTokens: f.DeltaTokens,
		AddedTokens: f.Summary.AddTok, RemovedTokens: f.Summary.RemTok,
		Same: f.Summary.Same, Modified: f.Summary.Modified, Added: f.Summary.Added, Removed: f.Summary.Removed}
	return d
}

// TestPiForgeFixtureDiffs feeds pi-forge's own diffTurns results through
// the documented adapter: the rule falls where the fixture's prefix ends.
func TestPiForgeFixtureDiffs(t *testing.T) {
	raw := fixtures.Read(t, "pi-forge/context-diff-fixtures.json")
	var sets []struct {
		Name  string `json:"name"`
		Diffs []struct {
			Diff fixtureDiff `json:"diff"`
		} `json:"diffs"`
	}
	if err := json.Unmarshal(raw, &sets); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{ // block index the rule sits above, per set's second diff
		"identical-consecutive-turns": 4, "block-added": 4, "block-removed": 3,
		"block-modified-mid-array": 2, "first-block-change": 0, "multi-block-mixed-changes": 1,
	}
	for _, s := range sets {
		if len(s.Diffs) < 2 {
			t.Fatalf("%s: want two diffs", s.Name)
		}
		if first := adapt(t, s.Diffs[0].Diff); first.Boundary != 0 {
			t.Errorf("%s: with no previous turn nothing is cached (boundary %d)", s.Name, first.Boundary)
		}
		d := adapt(t, s.Diffs[1].Diff)
		if d.Boundary != want[s.Name] {
			t.Errorf("%s: boundary %d, want %d", s.Name, d.Boundary, want[s.Name])
		}
		got := plainLines(blockList(d, 80, 12).ViewLines(monoStyles()))
		r := ruleIndex(got)
		if r != 1+d.Boundary {
			t.Errorf("%s: the rule is on line %d, want %d:\n%s", s.Name, r, 1+d.Boundary, strings.Join(got, "\n"))
		}
		if sum := Summarize(d.Blocks); sum.DeltaTokens != d.Totals.DeltaTokens {
			t.Errorf("%s: block deltas sum to %d, the fixture says %d", s.Name, sum.DeltaTokens, d.Totals.DeltaTokens)
		}
	}
}
