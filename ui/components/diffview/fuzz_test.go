package diffview

import (
	"strings"
	"testing"
)

// sides rebuilds each side's line texts from a diff: the old side is the
// equal and removed lines, the new side the equal and added ones.
func sides(d *LineDiff) (old, cur []string) {
	for _, l := range d.Lines() {
		if l.Kind != LineInsert {
			old = append(old, l.Text)
		}
		if l.Kind != LineDelete {
			cur = append(cur, l.Text)
		}
	}
	return old, cur
}

// textLines is what Line.Text holds for each line of s.
func textLines(s string) []string {
	var out []string
	for _, raw := range splitKeepingEnds(s) {
		text, hadNL := strings.CutSuffix(raw, "\n")
		if hadNL {
			text = strings.TrimSuffix(text, "\r")
		}
		out = append(out, text)
	}
	return out
}

// FuzzLineView diffs and draws random texts at random sizes and settings:
// never a panic, always exactly width×height cells, and the diff always
// rebuilds both texts.
func FuzzLineView(f *testing.F) {
	f.Add("a\nb\n", "a\nc\n", uint8(80), uint8(10), uint8(0), int16(0))
	f.Add(promptBefore, promptAfter, uint8(40), uint8(12), uint8(1), int16(5))
	f.Add("x\r\ny", "x\ny\n", uint8(61), uint8(3), uint8(3), int16(-2))
	f.Add("", "世界😀\t\x1b[31m\u202e", uint8(1), uint8(1), uint8(9), int16(100))
	f.Add("\xff\xfe\n", "\n\n\n", uint8(7), uint8(0), uint8(30), int16(1))
	f.Fuzz(func(t *testing.T, before, after string, width, height, flags uint8, scroll int16) {
		w, h := int(width)%200, int(height)%60
		d := NewLineDiff(before, after)
		old, cur := sides(d)
		if strings.Join(old, "\n") != strings.Join(textLines(before), "\n") ||
			strings.Join(cur, "\n") != strings.Join(textLines(after), "\n") {
			t.Fatalf("the diff does not rebuild its sides:\nold %q\ncur %q", old, cur)
		}
		v := NewLineView()
		v.SetDiff(d)
		v.SetSize(w, h)
		if flags&1 != 0 {
			v.SetLayout(Split)
		}
		v.SetContext(ContextMode(flags >> 1 % 3))
		v.SetWrap(flags&8 == 0)
		v.ScrollBy(int(scroll))
		if flags&16 != 0 {
			v.NextHunk()
		}
		if flags&32 != 0 {
			v.PrevHunk()
		}
		if flags&64 != 0 {
			v.Bottom()
		}
		assertFrame(t, v.ViewLines(darkStyles()), w, h)
		v.CycleContext()
		v.ToggleLayout()
		assertFrame(t, v.ViewLines(monoStyles()), w, h)
	})
}

// FuzzBlockList draws lists of random blocks at random sizes, cursors and
// boundaries: never a panic, always exactly width×height cells.
func FuzzBlockList(f *testing.F) {
	f.Add("system prompt", "user", uint8(12), uint8(80), uint8(16), int16(3), int16(4))
	f.Add("世界😀\t\x1b[2J\n", "", uint8(1), uint8(5), uint8(2), int16(-1), int16(-7))
	f.Add("", "assistant", uint8(0), uint8(0), uint8(0), int16(0), int16(0))
	f.Fuzz(func(t *testing.T, label, role string, n, width, height uint8, cursor, boundary int16) {
		blocks := make([]Block, int(n)%64)
		for i := range blocks {
			blocks[i] = Block{Key: label + strings.Repeat("x", i%5), Label: label, Role: role,
				Status: Status(i % 4), BeforeTokens: i * 1000, AfterTokens: i, TokenDelta: i - 20}
		}
		d := Diff{Blocks: blocks, Boundary: int(boundary), Totals: Summarize(blocks)}
		l := NewBlockList()
		l.SetSize(int(width)%200, int(height)%60)
		l.SetDiff(d)
		l.MoveBy(int(cursor))
		l.NextChange()
		assertFrame(t, l.ViewLines(darkStyles()), int(width)%200, int(height)%60)
	})
}
