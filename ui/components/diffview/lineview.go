package diffview

import (
	"fmt"
	"sort"
	"strings"

	"github.com/forgebench/forgebench/i18n"
)

// Layout is how a line diff is drawn.
type Layout uint8

// The two line-diff layouts.
const (
	// Unified draws one column: removed lines, then added lines, git-style.
	Unified Layout = iota
	// Split draws the before side on the left and the after side on the
	// right; it needs MinSplitWidth columns and draws Unified below that.
	Split
)

// String names the layout ("unified", "split").
func (l Layout) String() string {
	if l == Split {
		return i18n.Mark("split")
	}
	return i18n.Mark("unified")
}

// Label is the layout as a caption shows it, in the run's language.
func (l Layout) Label() string { return i18n.T(l.String()) }

// MinSplitWidth is the narrowest view that draws the split layout: two
// sides of about 30 cells (line numbers, sign, and at least 20 cells of
// text each). Narrower views draw unified instead, and Caption says so;
// two 12-cell columns at 40 columns were judged illegible.
const MinSplitWidth = 60

// LineView is the state of a line diff on screen: which diff, layout,
// context mode, wrapping, size and scroll position. Its methods change the
// state; View is a pure function of that state and the styles, drawing only
// the visible rows. It carries no key bindings: a panel maps its keymap
// bindings to the methods. Copies share a cache of wrapped rows (a
// LineDiff never changes, so it stays valid), which makes a LineView for
// one goroutine, the program's, as bubbletea models are. The zero value is an empty view
// in changes-only mode without wrapping; NewLineView sets the usual
// defaults.
type LineView struct {
	diff          *LineDiff
	layout        Layout
	context       ContextMode
	wrap          bool
	width, height int
	top, sub      int // first visible logical row and visual line within it
	memo          *wrapMemo
}

// NewLineView is an empty view: unified, three lines of context, long lines
// wrapped. Give it a diff with SetDiff and a size with SetSize.
func NewLineView() LineView {
	return LineView{diff: emptyDiff, context: ContextThree, wrap: true, memo: &wrapMemo{}}
}

// SetDiff shows another diff from its top. Build large diffs with
// NewLineDiff in a tea.Cmd and hand the result here.
func (v *LineView) SetDiff(d *LineDiff) {
	if d == nil {
		d = emptyDiff
	}
	v.diff, v.top, v.sub = d, 0, 0
	v.memo = &wrapMemo{}
}

// SetTexts diffs two texts and shows the result (a convenience for small
// texts and tests; see SetDiff).
func (v *LineView) SetTexts(before, after string) { v.SetDiff(NewLineDiff(before, after)) }

// Diff is the diff on show (an empty one before SetDiff).
func (v LineView) Diff() *LineDiff { return v.lineDiff() }

// SetSize sets the view's size in cells; the first visible line stays.
func (v *LineView) SetSize(width, height int) {
	v.width, v.height = max(0, width), max(0, height)
	v.sub = 0
	v.clamp()
}

// Size is the view's width and height in cells.
func (v LineView) Size() (width, height int) { return v.width, v.height }

// SetLayout selects unified or split; the first visible source line stays
// on top.
func (v *LineView) SetLayout(l Layout) { v.relayout(func() { v.layout = l }) }

// ToggleLayout switches between unified and split.
func (v *LineView) ToggleLayout() {
	if v.layout == Split {
		v.SetLayout(Unified)
	} else {
		v.SetLayout(Split)
	}
}

// Layout is the chosen layout (see EffectiveLayout for what is drawn).
func (v LineView) Layout() Layout { return v.layout }

// EffectiveLayout is the layout drawn at the current width: Split falls
// back to Unified below MinSplitWidth.
func (v LineView) EffectiveLayout() Layout {
	if v.layout == Split && v.width >= MinSplitWidth {
		return Split
	}
	return Unified
}

// SetContext selects the context mode; the first visible source line stays
// on top when the new mode still shows it.
func (v *LineView) SetContext(c ContextMode) {
	if c >= contextModes {
		c = ContextThree
	}
	v.relayout(func() { v.context = c })
}

// CycleContext moves to the next context mode (changes → 3 lines → all).
func (v *LineView) CycleContext() { v.SetContext(v.context.Next()) }

// Context is the current context mode.
func (v LineView) Context() ContextMode { return v.context }

// SetWrap wraps long lines (true) or truncates them with "…" (false).
func (v *LineView) SetWrap(wrap bool) {
	v.wrap = wrap
	v.sub = 0
	v.clamp()
}

// Wrap reports whether long lines wrap.
func (v LineView) Wrap() bool { return v.wrap }

// ScrollBy moves the view n screen lines down (negative: up), stopping at
// the top and at the last full screen.
func (v *LineView) ScrollBy(n int) {
	rows := v.rows()
	for n > 0 && v.top < len(rows) {
		h := v.rowHeight(rows, v.top)
		if v.sub+n < h {
			v.sub += n
			break
		}
		n -= h - v.sub
		v.top, v.sub = v.top+1, 0
	}
	for n < 0 && (v.top > 0 || v.sub > 0) {
		if v.sub > 0 {
			step := min(v.sub, -n)
			v.sub -= step
			n += step
			continue
		}
		v.top--
		v.sub = v.rowHeight(rows, v.top)
	}
	v.clamp()
}

// Top scrolls to the first line.
func (v *LineView) Top() { v.top, v.sub = 0, 0 }

// Bottom scrolls so the last line is at the bottom of the view.
func (v *LineView) Bottom() {
	v.top, v.sub = len(v.rows()), 0
	v.clamp()
}

// NextHunk scrolls the next hunk header to the top; it does nothing on the
// last hunk.
func (v *LineView) NextHunk() {
	rows := v.rows()
	for i := v.top + 1; i < len(rows); i++ {
		if rows[i].kind == rowHunk {
			v.top, v.sub = i, 0
			v.clamp()
			return
		}
	}
}

// PrevHunk scrolls the previous hunk header (or the start of the current
// one when scrolled into it) to the top.
func (v *LineView) PrevHunk() {
	rows := v.rows()
	start := v.top - 1
	if v.sub > 0 {
		start = v.top
	}
	for i := min(start, len(rows)-1); i >= 0; i-- {
		if rows[i].kind == rowHunk {
			v.top, v.sub = i, 0
			return
		}
	}
	v.top, v.sub = 0, 0
}

// Position is the first visible logical row (hunk header, line or line
// pair) and how many there are, for a "row 12 of 340" indicator.
func (v LineView) Position() (first, total int) { return v.top, len(v.rows()) }

// Caption summarises the view for a frame's title or footer, e.g.
// "+12 -3 · split · 3 lines · wrap", saying when split fell back.
func (v LineView) Caption() string {
	var b strings.Builder
	fmt.Fprintf(&b, "+%d -%d · %s", v.lineDiff().added, v.lineDiff().removed, v.EffectiveLayout().Label())
	if v.layout == Split && v.EffectiveLayout() != Split {
		b.WriteString(i18n.T(" (split needs %d cols)", MinSplitWidth))
	}
	fmt.Fprintf(&b, " · %s", v.context.Label())
	if v.wrap {
		b.WriteString(i18n.T(" · wrap"))
	}
	return b.String()
}

// rows are the logical rows of the current layout and context mode.
func (v LineView) rows() []row {
	if v.EffectiveLayout() == Split {
		return v.lineDiff().split[v.context]
	}
	return v.lineDiff().unified[v.context]
}

// emptyDiff stands in for a zero LineView's missing diff.
var emptyDiff = NewLineDiff("", "")

// lineDiff is the diff on show, never nil.
func (v LineView) lineDiff() *LineDiff {
	if v.diff == nil {
		return emptyDiff
	}
	return v.diff
}

// relayout applies a change of layout or context mode and puts the source
// line that was on top back on top.
func (v *LineView) relayout(change func()) {
	if v.top == 0 && v.sub == 0 {
		change() // at the top, stay at the top
		v.clamp()
		return
	}
	anchor := anchorLine(v.rows(), v.top)
	change()
	rows := v.rows()
	v.top = sort.Search(len(rows), func(i int) bool { return lineOf(rows[i]) >= anchor })
	if v.top > 0 && v.top < len(rows) && rows[v.top-1].kind == rowHunk {
		v.top-- // keep the hunk's header with its first line
	}
	v.sub = 0
	v.clamp()
}

// anchorLine is the index into LineDiff.lines of the first line at or
// after row top (-1 when none).
func anchorLine(rows []row, top int) int {
	for i := top; i < len(rows); i++ {
		if l := lineOf(rows[i]); l >= 0 && rows[i].kind != rowHunk && rows[i].kind != rowMessage {
			return l
		}
	}
	return -1
}

// lineOf is the smallest line index a row draws, or, for a header, the
// first line of its hunk's position (so rows stay sorted by it).
func lineOf(r row) int {
	switch {
	case r.left >= 0 && r.right >= 0:
		return int(min(r.left, r.right))
	case r.left >= 0:
		return int(r.left)
	case r.right >= 0:
		return int(r.right)
	}
	return -1
}

// clamp keeps the scroll position inside the rows and never past the last
// full screen.
func (v *LineView) clamp() {
	rows := v.rows()
	if v.top >= len(rows) {
		v.top, v.sub = len(rows), 0
	}
	if v.top < 0 {
		v.top, v.sub = 0, 0
	}
	if v.top < len(rows) {
		v.sub = min(v.sub, v.rowHeight(rows, v.top)-1)
	}
	// Walk back from the end: the highest position that still fills the
	// screen is the furthest the view may scroll.
	need := max(v.height, 1)
	lastTop, lastSub := len(rows), 0
	for lastTop > 0 && need > 0 {
		lastTop--
		h := v.rowHeight(rows, lastTop)
		if h >= need {
			lastSub = h - need
			need = 0
			break
		}
		need -= h
	}
	if v.top > lastTop || v.top == lastTop && v.sub > lastSub {
		v.top, v.sub = lastTop, lastSub
	}
}
