package common

import (
	"fmt"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/forgebench/forgebench/i18n"
	"github.com/forgebench/forgebench/keymap"
	"github.com/forgebench/forgebench/themes"
)

// RowState is everything a row's drawing may depend on besides the item:
// the width, the theme and whether the row is under a (focused) cursor.
type RowState struct {
	Width    int
	Styles   *themes.Styles
	Selected bool
	Focused  bool
}

// RenderRow draws one item as one line of at most state.Width cells, or as
// several lines joined by "\n" (a row with details under it). It must
// depend only on its arguments: the list caches its result under (item,
// state), so data that changes what a row shows belongs in the item
// value, never in variables the function reads on the side.
type RenderRow[T comparable] func(item T, state RowState) string

// rowKey is one cached rendering: the item's value is the version, so any
// change to the data is a new key and nobody bumps anything by hand.
type rowKey[T comparable] struct {
	item     T
	width    int
	theme    string
	selected bool
	focused  bool
}

// List is the panel kit's list: items with a cursor, a visible window
// that follows it, an optional filter typed on a filter line, and a
// per-row render cache. Items are values that carry what their row shows
// (T is comparable); the cache is keyed by the item value, the width, the
// theme and the row state, and holds the rows drawn in the last frame, so
// scrolling redraws only the row that came into view and any edit (a
// replaced, inserted, removed or reordered item, a resize, a theme
// switch, a cursor move) is drawn anew.
type List[T comparable] struct {
	render RenderRow[T]
	filter func(items []T, query string) []int
	id     func(T) string

	items []T
	// shown indexes items after the filter, in display order.
	shown          []int
	cursor, offset int
	// rows is the number of rows the last View showed in full (paging).
	rows int

	query     string
	line      LineInput // the query while filtering, with its cursor
	filtering bool
	// lastID is the identity of the last item the cursor was on, so a
	// filter that showed nothing gives the cursor back when it clears.
	lastID string
	// lineRows is the row each line of the last View shows (-1: the
	// filter line), for RowAt.
	lineRows []int

	cache, next map[rowKey[T]]string
}

// NewList returns an empty list that draws its rows with render.
func NewList[T comparable](render RenderRow[T]) *List[T] {
	return &List[T]{render: render, cache: map[rowKey[T]]string{}, next: map[rowKey[T]]string{}}
}

// SetFilter sets how a query selects and orders items: it returns the
// indexes of the items to show, best first. Without one the list keeps
// every item whatever the query.
func (l *List[T]) SetFilter(filter func(items []T, query string) []int) { l.filter = filter }

// SetIdentity names items across edits: when the items are replaced or
// the filter changes, the cursor stays on the item with the same id.
// Without it the cursor keeps its row number.
func (l *List[T]) SetIdentity(id func(T) string) { l.id = id }

// FilterWords is a filter over the text of each item: an item is kept
// when its text contains every word of the query, case-insensitively,
// in the items' order.
func FilterWords[T any](text func(T) string) func(items []T, query string) []int {
	return func(items []T, query string) []int {
		words := strings.Fields(strings.ToLower(query))
		out := make([]int, 0, len(items))
		for i, it := range items {
			if containsAll(strings.ToLower(text(it)), words) {
				out = append(out, i)
			}
		}
		return out
	}
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// SetItems replaces the items (the list keeps the slice; callers hand over
// a new one instead of editing it) and applies the filter again.
func (l *List[T]) SetItems(items []T) {
	keep := l.currentID()
	l.items = items
	l.refilter(keep)
}

// Items are all items, filtered or not.
func (l *List[T]) Items() []T { return l.items }

// Len is the number of items the filter shows.
func (l *List[T]) Len() int { return len(l.shown) }

// Total is the number of items before the filter.
func (l *List[T]) Total() int { return len(l.items) }

// Shown is the item at row i of the filtered list.
func (l *List[T]) Shown(i int) T { return l.items[l.shown[i]] }

// Cursor is the row under the cursor (0 when the list is empty).
func (l *List[T]) Cursor() int { return l.cursor }

// Selected is the item under the cursor; ok is false when none is shown.
func (l *List[T]) Selected() (item T, ok bool) {
	if l.cursor < 0 || l.cursor >= len(l.shown) {
		return item, false
	}
	return l.items[l.shown[l.cursor]], true
}

// SelectedIndex is the index in Items of the item under the cursor, -1
// when none is shown.
func (l *List[T]) SelectedIndex() int {
	if l.cursor < 0 || l.cursor >= len(l.shown) {
		return -1
	}
	return l.shown[l.cursor]
}

// SetCursor puts the cursor on row i, clamped to the shown rows.
func (l *List[T]) SetCursor(i int) { l.cursor = Clamp(i, 0, len(l.shown)-1) }

// Move moves the cursor by delta rows, clamped.
func (l *List[T]) Move(delta int) { l.SetCursor(l.cursor + delta) }

// Select puts the cursor on the first shown item that match accepts and
// reports whether there was one.
func (l *List[T]) Select(match func(T) bool) bool {
	for row, i := range l.shown {
		if match(l.items[i]) {
			l.cursor = row
			return true
		}
	}
	return false
}

// PageSize is how far page up/down move: the rows the last frame showed,
// less one so a row of context stays.
func (l *List[T]) PageSize() int { return max(1, l.rows-1) }

// HandleNav applies the shared navigation keys (up, down, page up/down,
// top, bottom) and reports whether msg was one of them.
func (l *List[T]) HandleNav(msg tea.KeyPressMsg, nav keymap.Nav) bool {
	pos, ok := NavMove(msg, nav, l.cursor, l.PageSize(), len(l.shown)-1)
	if ok {
		l.SetCursor(pos)
	}
	return ok
}

// Query is the filter text.
func (l *List[T]) Query() string { return l.query }

// SetQuery sets the filter text and filters again, keeping the cursor on
// the same item when it is still shown.
func (l *List[T]) SetQuery(q string) {
	if q == l.query {
		return
	}
	keep := l.currentID()
	l.query = q
	if l.line.Value() != q {
		l.line.SetValue(q)
	}
	l.refilter(keep)
}

// Filtering is true while the filter line takes typed keys.
func (l *List[T]) Filtering() bool { return l.filtering }

// StartFilter gives the filter line the keyboard.
func (l *List[T]) StartFilter() {
	l.filtering = true
	l.line.SetValue(l.query)
}

// FilterKey edits the filter while Filtering: accept keeps the query and
// releases the keyboard, cancel clears it, up/down move the cursor and
// any other key edits the line with the text keys text (nil: the
// defaults); every change filters again. It reports whether the key was
// taken.
func (l *List[T]) FilterKey(msg tea.KeyPressMsg, accept, cancel key.Binding, text *keymap.TextEditor) bool {
	if !l.filtering {
		return false
	}
	switch {
	case key.Matches(msg, cancel):
		l.filtering = false
		l.SetQuery("")
	case key.Matches(msg, accept):
		l.filtering = false
	case msg.Code == tea.KeyUp:
		l.Move(-1)
	case msg.Code == tea.KeyDown:
		l.Move(1)
	default:
		if changed, _ := l.line.Key(msg, text); changed {
			l.SetQuery(l.line.Value())
		}
	}
	return true
}

// FilterInput edits the filter while Filtering with the search-line keys:
// keys.Search.Accept keeps the query and releases the keyboard,
// keys.Search.Cancel clears it and leaves, keys.Search.Clear empties the
// line and stays, up/down move the cursor and any other key edits the
// line with keys.Forms.Text (keys nil: the defaults); every change filters
// again (the cursor stays on the same item when it is still shown). It
// returns what the key did.
func (l *List[T]) FilterInput(msg tea.KeyPressMsg, keys *keymap.Set) SearchEvent {
	if !l.filtering {
		return SearchIgnored
	}
	switch msg.Code {
	case tea.KeyUp:
		l.Move(-1)
		return SearchEdited
	case tea.KeyDown:
		l.Move(1)
		return SearchEdited
	}
	ev := l.line.PromptKey(msg, keys)
	if ev == SearchAccepted || ev == SearchCancelled {
		l.filtering = false
	}
	l.SetQuery(l.line.Value())
	return ev
}

// RowAt is the shown row drawn on line (0 = the first line the last View
// returned, the filter line included), for mouse clicks; ok is false when
// no row is drawn there. A row of several lines answers for each.
func (l *List[T]) RowAt(line int) (row int, ok bool) {
	if line < 0 || line >= len(l.lineRows) || l.lineRows[line] < 0 {
		return -1, false
	}
	return l.lineRows[line], true
}

// Scroll moves the visible window by delta rows, moving the cursor only
// as far as it must to stay visible (the mouse wheel).
func (l *List[T]) Scroll(delta int) {
	n := len(l.shown)
	if n == 0 || l.rows <= 0 {
		return
	}
	l.offset = Clamp(l.offset+delta, 0, max(0, n-l.rows))
	l.cursor = Clamp(l.cursor, l.offset, min(n-1, l.offset+l.rows-1))
}

// typedText keeps what a key typed that can stand on one line: control
// characters (a pasted newline, an escape) become spaces or go.
func typedText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return ' '
		case !unicode.IsPrint(r):
			return -1
		}
		return r
	}, s)
}

// ShowsFilterLine is true when the filter line is on screen: while typing
// or while a query narrows the list.
func (l *List[T]) ShowsFilterLine() bool { return l.filtering || l.query != "" }

// FilterLine is the "/ query" prompt, with the theme's cursor while
// typing.
func (l *List[T]) FilterLine(st *themes.Styles) string {
	query := st.Text.Normal.Render(l.query)
	if l.filtering {
		query = l.line.View(st, true)
	}
	return st.Text.Info.Render("/ ") + query
}

// Position is "cursor/shown" for a pane's border ("" when empty).
func (l *List[T]) Position() string {
	if len(l.shown) == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", l.cursor+1, len(l.shown))
}

// View draws at most height lines of width cells: the filter line when it
// shows, then the visible window of rows, which keeps the whole cursor
// row in view (the window only moves when the cursor leaves it). Only
// rows in and next to the window are rendered; rows drawn in the
// previous frame come from the cache. A row of several lines counts all
// of them; the last row shown may be cut off at the bottom.
func (l *List[T]) View(st *themes.Styles, width, height int, focused bool) []string {
	var lines []string
	l.lineRows = l.lineRows[:0]
	if l.ShowsFilterLine() && height > 0 {
		lines = append(lines, l.FilterLine(st))
		l.lineRows = append(l.lineRows, -1)
	}
	h := height - len(lines)
	clear(l.next)
	frame := rowFrame[T]{list: l, st: st, width: width, theme: ThemeKey(st), focused: focused}
	l.rows = 0
	if h > 0 && len(l.shown) > 0 {
		l.scrollTo(&frame, h)
		for row := l.offset; row < len(l.shown) && len(lines) < height; row++ {
			rowLines := frame.lines(row)
			if len(lines)+len(rowLines) <= height {
				l.rows++
			}
			shown := rowLines[:min(len(rowLines), height-len(lines))]
			lines = append(lines, shown...)
			for range shown {
				l.lineRows = append(l.lineRows, row)
			}
		}
	}
	l.cache, l.next = l.next, l.cache
	return lines
}

// rowFrame renders rows for one View: from the cache when the same row
// was drawn in the previous frame, and keeps every row it renders for the
// next one.
type rowFrame[T comparable] struct {
	list    *List[T]
	st      *themes.Styles
	width   int
	theme   string
	focused bool
}

// lines is row's rendering split into screen lines.
func (f *rowFrame[T]) lines(row int) []string {
	l := f.list
	k := rowKey[T]{item: l.items[l.shown[row]], width: f.width, theme: f.theme,
		selected: row == l.cursor, focused: f.focused}
	text, ok := l.next[k]
	if !ok {
		if text, ok = l.cache[k]; !ok {
			text = l.render(k.item, RowState{Width: f.width, Styles: f.st, Selected: k.selected, Focused: f.focused})
		}
		l.next[k] = text
	}
	return strings.Split(text, "\n")
}

// scrollTo moves the window (l.offset) the least that shows the whole
// cursor row in h lines, and no further down than needed to fill them.
func (l *List[T]) scrollTo(f *rowFrame[T], h int) {
	l.offset = Clamp(l.offset, 0, len(l.shown)-1)
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	// Every row takes at least one line, so rows more than h above the
	// cursor cannot share the window with it: start there instead of
	// rendering every row in between (a jump to the end of a long list).
	l.offset = max(l.offset, l.cursor-h+1)
	used := 0
	for row := l.offset; row <= l.cursor; row++ {
		used += len(f.lines(row))
	}
	for used > h && l.offset < l.cursor {
		used -= len(f.lines(l.offset))
		l.offset++
	}
	// Rows below the cursor fill the window; when the list ends first,
	// earlier rows come back in while they fit.
	for row := l.cursor + 1; row < len(l.shown) && used < h; row++ {
		used += len(f.lines(row))
	}
	for l.offset > 0 && used+len(f.lines(l.offset-1)) <= h {
		l.offset--
		used += len(f.lines(l.offset))
	}
}

// ThemeKey names what a rendering depends on besides its data and width,
// for cache keys: the palette, its glamour base and the language (i18n), so
// a cache keyed by it never serves text of the previous theme or language.
func ThemeKey(st *themes.Styles) string {
	base := "/light/"
	if st.IsDark {
		base = "/dark/"
	}
	return st.Palette.Name + base + string(i18n.Current())
}

// currentID is the identity of the item under the cursor ("" without an
// identity function or an item).
func (l *List[T]) currentID() string {
	item, ok := l.Selected()
	if !ok || l.id == nil {
		return l.lastID
	}
	l.lastID = l.id(item)
	return l.lastID
}

// refilter applies the query and puts the cursor back on the item whose
// identity is keep, else clamps it.
func (l *List[T]) refilter(keep string) {
	l.shown = l.shown[:0]
	if l.filter != nil && strings.TrimSpace(l.query) != "" {
		l.shown = append(l.shown, l.filter(l.items, l.query)...)
	} else {
		for i := range l.items {
			l.shown = append(l.shown, i)
		}
	}
	l.SetCursor(l.cursor)
	if keep != "" {
		l.Select(func(it T) bool { return l.id(it) == keep })
	}
}

// Clamp limits v to [lo, hi]; lo wins when the range is empty (hi < lo),
// so a cursor over no rows sits at 0.
func Clamp(v, lo, hi int) int {
	if hi < lo {
		return lo
	}
	return min(max(v, lo), hi)
}

// TextRow is a row that is one line of text (already clean of control
// characters): the entries of a picker or of a form's list. Dim rows are
// drawn in the dim style (an entry that cannot be chosen).
type TextRow struct {
	Text string
	Dim  bool
}

// RenderTextRow draws a TextRow: "▸ " and the selected style under the
// cursor (blurred while the list is not focused), else two spaces and the
// item (or dim) style, cut to the width.
func RenderTextRow(r TextRow, s RowState) string {
	st := s.Styles
	style, marker := st.List.Item, "  "
	if r.Dim {
		style = st.List.Dim
	}
	if s.Selected {
		marker, style = "▸ ", st.List.SelectedBlurred
		if s.Focused {
			style = st.List.Selected
		}
	}
	return style.Render(ansi.Truncate(marker+r.Text, s.Width, "…"))
}

// TextRows makes a TextRow of each text.
func TextRows(texts []string) []TextRow {
	out := make([]TextRow, len(texts))
	for i, t := range texts {
		out[i] = TextRow{Text: t}
	}
	return out
}
