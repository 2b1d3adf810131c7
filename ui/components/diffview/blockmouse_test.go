package diffview

import (
	"strings"
	"testing"
)

// BlockAt names the block on each drawn line and nothing on the header,
// the rule, the totals or padding; it agrees with what ViewLines draws.
func TestBlockAtMatchesTheDrawnLines(t *testing.T) {
	l := blockList(manyBlocks(200), 60, 10)
	l.Select(l.Diff().Boundary) // the rule on screen
	lines := plainLines(l.ViewLines(darkStyles()))
	for line, text := range lines {
		i, ok := l.BlockAt(line)
		switch {
		case line == 0 || line == len(lines)-1 || strings.HasPrefix(text, "── cache"):
			if ok {
				t.Errorf("line %d (%q) names block %d", line, text, i)
			}
		case !ok || !strings.Contains(text, l.Diff().Blocks[i].Key+" "):
			t.Errorf("line %d (%q): block %d %v", line, text, i, ok)
		}
	}
	if _, ok := l.BlockAt(-1); ok {
		t.Error("a line above the list names a block")
	}
}

// ScrollBy moves the window and drags the cursor only as far as it must
// to stay visible; it stops at both ends.
func TestScrollByDragsTheCursorAlong(t *testing.T) {
	l := blockList(manyBlocks(200), 60, 10) // 8 body rows
	l.Select(2)
	l.ScrollBy(1)
	if l.Cursor() != 2 {
		t.Fatalf("a cursor still visible stays: %d", l.Cursor())
	}
	l.ScrollBy(5)
	first, _ := l.BlockAt(1)
	if l.Cursor() != first {
		t.Fatalf("a cursor scrolled off the top moves to the first visible block %d, got %d", first, l.Cursor())
	}
	l.ScrollBy(10000)
	if _, ok := l.BlockAt(8); !ok || l.Cursor() < 190 {
		t.Fatalf("scrolled to the end: cursor %d", l.Cursor())
	}
	l.ScrollBy(-10000)
	last, _ := l.BlockAt(8)
	if l.Cursor() != last || l.offset != 0 {
		t.Fatalf("scrolled back to the top: cursor %d, last visible %d, offset %d", l.Cursor(), last, l.offset)
	}
}
