package diffview

// The mouse over a block list: which block a screen line shows, and the
// wheel scrolling the window.

// BlockAt is the block drawn on line (0 = the first line of ViewLines);
// false on the column header, the boundary rule, the totals and padding.
func (l BlockList) BlockAt(line int) (int, bool) {
	if header, _ := l.chrome(); header {
		line--
	}
	if line < 0 || line >= l.bodyHeight() {
		return -1, false
	}
	r := l.offset + line
	if l.hasRule() {
		switch {
		case r == l.diff.Boundary:
			return -1, false
		case r > l.diff.Boundary:
			r--
		}
	}
	if r >= len(l.diff.Blocks) {
		return -1, false
	}
	return r, true
}

// ScrollBy moves the window n rows down (negative: up), clamped; the
// cursor moves only as far as it must to stay visible.
func (l *BlockList) ScrollBy(n int) {
	body := l.bodyHeight()
	if body == 0 || len(l.diff.Blocks) == 0 {
		return
	}
	l.offset = max(0, min(l.offset+n, l.bodyRows()-body))
	for l.cursor > 0 && l.rowOf(l.cursor) >= l.offset+body {
		l.cursor--
	}
	for l.cursor < len(l.diff.Blocks)-1 && l.rowOf(l.cursor) < l.offset {
		l.cursor++
	}
}
