package diffview

import "testing"

// BenchmarkLineViewFrame is one frame of a 5,000-line modified block at
// 160×48 while paging down: each frame draws rows it has not wrapped
// before (the memo only helps when the user scrolls back).
func BenchmarkLineViewFrame(b *testing.B) {
	before, after := bigTexts()
	d := NewLineDiff(before, after)
	st := darkStyles()
	for _, layout := range []Layout{Unified, Split} {
		for _, ctx := range []ContextMode{ContextThree, ContextAll} {
			b.Run(layout.String()+"/"+ctx.String(), func(b *testing.B) {
				v := NewLineView()
				v.SetDiff(d)
				v.SetSize(160, 48)
				v.SetLayout(layout)
				v.SetContext(ctx)
				b.ReportAllocs()
				for b.Loop() {
					first, _ := v.Position()
					v.ScrollBy(48)
					if again, _ := v.Position(); again == first {
						v.Top()
					}
					_ = v.View(st)
				}
			})
		}
	}
}

// BenchmarkLineDiffBuild is the diff of the 5,000-line block itself, the
// work a panel does once per block in a tea.Cmd.
func BenchmarkLineDiffBuild(b *testing.B) {
	before, after := bigTexts()
	b.ReportAllocs()
	for b.Loop() {
		_ = NewLineDiff(before, after)
	}
}

// BenchmarkBlockListFrame is one frame of a 200-block list at 80×48 while
// the cursor moves.
func BenchmarkBlockListFrame(b *testing.B) {
	l := NewBlockList()
	l.SetDiff(manyBlocks(200))
	l.SetSize(80, 48)
	st := darkStyles()
	b.ReportAllocs()
	for b.Loop() {
		if l.Cursor() == 199 {
			l.Select(0)
		}
		l.MoveBy(1)
		_ = l.View(st)
	}
}
